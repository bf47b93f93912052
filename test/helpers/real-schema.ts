/**
 * The real NerdGraph schema and reference operations, from the copies `npm run schema:sync` keeps in
 * schema/ (names and types only), so the real-schema checks run on every clone.
 */
import { readFileSync } from 'node:fs'
import { buildSchema, parse, type DocumentNode, type GraphQLSchema } from 'graphql'

const read = (name: string) =>
  readFileSync(new URL(`../../schema/${name}`, import.meta.url), 'utf8')

let schema: GraphQLSchema | undefined
/** Built once per test file (about 0.3 s). */
export function realSchema(): GraphQLSchema {
  return (schema ??= buildSchema(read('nerdgraph.graphql')))
}

export function referenceOperations(): DocumentNode {
  return parse(read('nerdgraph-operations.graphql'))
}

/**
 * Every GraphQL document the metric routes send validates against the real NerdGraph schema
 * (../shared/contract, skipped with a message when absent) and against the simulator's subset.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { buildSchema, parse, validate, type GraphQLSchema } from 'graphql'
import { describe, expect, it } from 'vitest'
import { metricDataDocument, metricNamesDocument } from '../../src/metrics/documents'
import { SCHEMA_SDL } from '../../src/simulator/schema'

const realPath = fileURLToPath(
  new URL('../../../shared/contract/nerdgraph-schema.graphql', import.meta.url)
)
const present = existsSync(realPath)
if (!present) console.warn(`skipped: ${realPath} is absent (no ../shared checkout)`)

const documents = {
  'MetricData with one alias': metricDataDocument(1),
  'MetricData with three aliases': metricDataDocument(3),
  'metric names (Nrql)': metricNamesDocument,
}

function errorsOf(schema: GraphQLSchema, document: string): string[] {
  return validate(schema, parse(document)).map((e) => e.message)
}

describe('metric documents', () => {
  const real = present ? buildSchema(readFileSync(realPath, 'utf8')) : null
  const simulator = buildSchema(SCHEMA_SDL)
  for (const [label, document] of Object.entries(documents)) {
    it.skipIf(!present)(`${label} validates against the real NerdGraph schema`, () => {
      expect(errorsOf(real!, document)).toEqual([])
    })
    it(`${label} validates against the simulator's schema`, () => {
      expect(errorsOf(simulator, document)).toEqual([])
    })
  }

  it('builds the one-alias document once', () => {
    expect(metricDataDocument(1)).toBe(metricDataDocument(1))
  })
})

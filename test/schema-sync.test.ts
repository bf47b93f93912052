import { readFileSync } from 'node:fs'
import { buildSchema, GraphQLObjectType } from 'graphql'
import { describe, expect, it } from 'vitest'
import { reduceOperations, reduceSchema, SCHEMA_COPY } from '../scripts/schema-sync'

const SDL = `
"""The root"""
type Query {
  "An account"
  account(
    """Its id"""
    id: Int! = 7
  ): Account @deprecated(reason: "Use accounts, says a long text")
}
"""An account"""
type Account { name: String, kind: Kind }
enum Kind {
  "first"
  A
  B @deprecated(reason: "no")
}
`

describe('schema:sync', () => {
  it('drops descriptions and deprecation reasons and keeps names, types, defaults and deprecation', () => {
    const reduced = reduceSchema(SDL)
    expect(reduced).not.toMatch(/"/)
    const schema = buildSchema(reduced)
    const field = (schema.getQueryType() as GraphQLObjectType).getFields()['account']!
    expect(String(field.type)).toBe('Account')
    expect(field.args.map((a) => [a.name, String(a.type), a.defaultValue])).toEqual([
      ['id', 'Int!', 7],
    ])
    expect(field.deprecationReason).toBe('No longer supported')
    expect(field.description).toBeUndefined()
    expect(Object.keys((schema.getType('Account') as GraphQLObjectType).getFields())).toEqual([
      'name',
      'kind',
    ])
  })

  it('drops comments from the reference operations', () => {
    const reduced = reduceOperations('# a note\nquery A { actor { user { id } } } # trailing\n')
    expect(reduced.split('\n').slice(1).join('\n')).toBe(
      'query A {\n  actor {\n    user {\n      id\n    }\n  }\n}\n'
    )
  })

  it('keeps the committed copy in reduced form: no description texts anywhere', () => {
    const copy = readFileSync(SCHEMA_COPY, 'utf8')
    expect(copy).not.toMatch(/"/)
    expect(reduceSchema(copy)).toBe(copy)
  })
})

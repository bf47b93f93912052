import {
  buildSchema,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLObjectType,
  isSpecifiedScalarType,
  validate,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql'
import { describe, expect, it } from 'vitest'
import { SCHEMA_SDL } from '../../simulator/graphql/schema'

import { realSchema, referenceOperations } from '../helpers/real-schema'

const mine = buildSchema(SCHEMA_SDL)

function ownTypes(): GraphQLNamedType[] {
  return Object.values(mine.getTypeMap()).filter(
    (t) => !t.name.startsWith('__') && !isSpecifiedScalarType(t)
  )
}

type AnyField = GraphQLField<unknown, unknown> | GraphQLInputField
/** Differences between one of our fields/args and the real one, as readable strings. */
function compareValue(
  where: string,
  ours: AnyField | GraphQLArgument,
  theirs: AnyField | GraphQLArgument | undefined
) {
  if (!theirs) return [`${where} does not exist in NerdGraph`]
  const out: string[] = []
  if (String(ours.type) !== String(theirs.type)) out.push(`${where}: ${ours.type} ≠ ${theirs.type}`)
  if ('defaultValue' in ours && 'defaultValue' in theirs) {
    if (JSON.stringify(ours.defaultValue) !== JSON.stringify(theirs.defaultValue))
      out.push(
        `${where}: default ${JSON.stringify(ours.defaultValue)} ≠ ${JSON.stringify(theirs.defaultValue)}`
      )
  }
  return out
}

function compareType(type: GraphQLNamedType, schema: GraphQLSchema): string[] {
  const other = schema.getType(type.name)
  if (!other) return [`type ${type.name} does not exist in NerdGraph`]
  if (other.constructor !== type.constructor) return [`${type.name} is a different kind of type`]
  const problems: string[] = []
  if (type instanceof GraphQLObjectType || type instanceof GraphQLInterfaceType) {
    const theirs = (other as GraphQLObjectType).getFields()
    const implemented = new Set((other as GraphQLObjectType).getInterfaces().map((i) => i.name))
    for (const i of type.getInterfaces())
      if (!implemented.has(i.name)) problems.push(`${type.name} does not implement ${i.name}`)
    for (const field of Object.values(type.getFields())) {
      const where = `${type.name}.${field.name}`
      const real = theirs[field.name]
      problems.push(...compareValue(where, field, real))
      for (const arg of field.args)
        problems.push(
          ...compareValue(
            `${where}(${arg.name})`,
            arg,
            real?.args.find((a) => a.name === arg.name)
          )
        )
      for (const arg of real?.args ?? [])
        if (
          String(arg.type).endsWith('!') &&
          arg.defaultValue === undefined &&
          !field.args.some((a) => a.name === arg.name)
        )
          problems.push(`${where} lacks required argument ${arg.name}`)
    }
  } else if (type instanceof GraphQLInputObjectType) {
    const theirs = (other as GraphQLInputObjectType).getFields()
    for (const field of Object.values(type.getFields()))
      problems.push(...compareValue(`${type.name}.${field.name}`, field, theirs[field.name]))
  } else if (type instanceof GraphQLEnumType) {
    const values = new Set((other as GraphQLEnumType).getValues().map((v) => v.name))
    for (const v of type.getValues())
      if (!values.has(v.name)) problems.push(`${type.name}.${v.name} does not exist in NerdGraph`)
  }
  return problems
}

/** The operations of schema/nerdgraph-operations.graphql that the simulator serves. */
const SERVED = [
  'AccountDiscovery',
  'ListApmApplications',
  'GetApmApplication',
  'GetEntitiesBatch',
  'AppInstances',
  'AppInstancesWindow',
  'Nrql',
  'NrqlMulti',
]

describe('simulator schema', () => {
  it('has no description texts', () => {
    expect(SCHEMA_SDL).not.toMatch(/"""|^\s*"/m)
  })

  it('declares only types, fields, arguments and enum values NerdGraph has', () => {
    const real = realSchema()
    expect(mine.getQueryType()?.name).toBe(real.getQueryType()?.name)
    expect(mine.getMutationType()?.name).toBe(real.getMutationType()?.name)
    const problems = ownTypes().flatMap((type) => compareType(type, real))
    expect(problems).toEqual([])
  })

  it('validates the reference operations it serves', () => {
    const document = referenceOperations()
    const operations = document.definitions.filter(
      (d): d is OperationDefinitionNode =>
        d.kind === 'OperationDefinition' && SERVED.includes(d.name?.value ?? '')
    )
    expect(operations.map((o) => o.name?.value).sort()).toEqual([...SERVED].sort())
    for (const operation of operations) {
      const errors = validate(mine, { kind: document.kind, definitions: [operation] })
      expect(errors.map((e) => `${operation.name?.value}: ${e.message}`)).toEqual([])
    }
  })
})

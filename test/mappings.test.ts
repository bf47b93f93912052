import { describe, expect, it } from 'vitest'
import { defaultGranularity } from '../mappings/granularity'
import { metricFamilies, type FamilyName } from '../mappings/metric-families'
import { FamiliesSchema, GranularitySchema, ValueTypesSchema } from '../mappings/schemas'
import {
  formulas,
  nrqlInputs,
  valueTypes,
  type ValueDefinition,
  type ValueType,
} from '../mappings/value-types'
import { definitionOf, familyOf, listedValues } from '../src/resources/metrics/families'
import { parseNrql } from '../simulator'

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const expectType = <T extends true>(): T | undefined => undefined

describe('mappings tables', () => {
  it('derive their types from the rows', () => {
    expectType<
      Equal<
        FamilyName,
        | 'apdex'
        | 'errors'
        | 'cpuUserTime'
        | 'cpuUtilization'
        | 'gc'
        | 'memory'
        | 'endUser'
        | 'mobile'
        | 'timeslice'
      >
    >()
    expectType<Equal<Extract<ValueType, 'score' | 'call_count' | 'nope'>, 'score' | 'call_count'>>()
    expect(Object.keys(valueTypes).length).toBeGreaterThan(40)
  })

  it('pass their zod schemas (also checked when the Node entry loads mappings/schemas.ts)', () => {
    expect(ValueTypesSchema.safeParse(valueTypes).success).toBe(true)
    expect(FamiliesSchema.safeParse(metricFamilies).success).toBe(true)
    expect(GranularitySchema.safeParse(defaultGranularity).success).toBe(true)
  })

  it('reject bad rows', () => {
    expect(ValueTypesSchema.safeParse({ x: { nrql: '' } }).success).toBe(false)
    expect(
      ValueTypesSchema.safeParse({ x: { inputs: ['nope'], formula: 'apdexScore' } }).success
    ).toBe(false)
    expect(ValueTypesSchema.safeParse({ x: { inputs: ['count'], formula: 'nope' } }).success).toBe(
      false
    )
    // One row holds a metric's own inputs or other metrics' (the `others` query), never both.
    const mixed = { inputs: ['count', 'pageViews'], formula: 'errorPercentage' }
    expect(ValueTypesSchema.safeParse({ x: mixed }).success).toBe(false)
    const [first, ...rest] = metricFamilies
    expect(FamiliesSchema.safeParse([{ ...first, values: ['not_a_value'] }, ...rest]).success).toBe(
      false
    )
    expect(FamiliesSchema.safeParse([...rest, first]).success).toBe(false) // catch-all not last
    expect(FamiliesSchema.safeParse([{ ...first, values: ['s', 's'] }, ...rest]).success).toBe(
      false
    )
    const askedTwice = { ...first, values: ['s'], onlyAsked: ['s'] }
    expect(FamiliesSchema.safeParse([askedTwice, ...rest]).success).toBe(false)
    const rows = [...defaultGranularity]
    expect(
      GranularitySchema.safeParse([{ ...rows[0]!, fresh: 90 }, ...rows.slice(1)]).success
    ).toBe(false)
    expect(GranularitySchema.safeParse([rows[1]!, rows[0]!, ...rows.slice(2)]).success).toBe(false)
  })

  it('emit only NRQL inside the subset the simulator (and v2bridge) support', () => {
    const definitions: ValueDefinition[] = [
      ...Object.values(valueTypes),
      ...metricFamilies.flatMap((f) =>
        Object.values(('overrides' in f ? f.overrides : {}) as Record<string, ValueDefinition>)
      ),
    ]
    const expressions = [
      ...Object.values(nrqlInputs),
      ...definitions.flatMap((d) => ('nrql' in d ? [d.nrql] : [])),
    ]
    for (const expr of expressions) {
      expect(
        () => parseNrql(`SELECT ${expr} AS 'x' FROM Metric SINCE 1 UNTIL 60001`),
        expr
      ).not.toThrow()
    }
  })

  it('define every value each family lists', () => {
    for (const family of metricFamilies) {
      for (const value of family.values) expect(() => definitionOf(family, value)).not.toThrow()
    }
  })
})

describe('metric families', () => {
  const cases: [string, FamilyName][] = [
    ['Apdex', 'apdex'],
    ['Apdex/Controller/home', 'apdex'],
    ['EndUser/Apdex', 'apdex'],
    ['EndUser', 'endUser'],
    ['EndUser/RB', 'endUser'],
    ['Errors/all', 'errors'],
    ['Errors/WebTransaction/Controller/home', 'errors'],
    ['CPU/User Time', 'cpuUserTime'],
    ['CPU/User/Utilization', 'cpuUtilization'],
    ['GC/PS Scavenge', 'gc'],
    ['Memory/Physical', 'memory'],
    ['Memory/Heap/Free', 'memory'],
    ['Mobile/Crash/All', 'mobile'],
    ['HttpDispatcher', 'timeslice'],
    ['WebTransaction', 'timeslice'],
    ['OtherTransaction/all', 'timeslice'],
    ['WebFrontend/QueueTime', 'timeslice'],
    ['Datastore/statement/MySQL/users/select', 'timeslice'],
    ['External/api.example.com/all', 'timeslice'],
    ['ApdexLike', 'timeslice'],
  ]
  for (const [name, family] of cases) {
    it(`puts ${name} in ${family}`, () => expect(familyOf(name).family).toBe(family))
  }

  it('keeps v2 value orders (D-extract, D-names)', () => {
    const values = (f: FamilyName) => metricFamilies.find((x) => x.family === f)!.values
    expect(values('timeslice')).toEqual([
      'average_response_time',
      'calls_per_minute',
      'call_count',
      'min_response_time',
      'max_response_time',
      'average_exclusive_time',
      'average_value',
      'total_call_time_per_minute',
      'requests_per_minute',
      'standard_deviation',
      'average_call_time',
    ])
    expect(values('apdex')).toEqual([
      's',
      't',
      'f',
      'count',
      'score',
      'value',
      'threshold',
      'threshold_min',
    ])
    expect(values('errors')).toEqual(['error_count', 'errors_per_minute'])
    expect(values('cpuUserTime')).toEqual(['percent', 'average_time', 'total_time'])
    expect(values('memory')).toEqual(['used_bytes_by_host', 'used_mb_by_host', 'total_used_mb'])
  })

  it('lists names without the data-only average_call_time (D-names)', () => {
    expect(listedValues(familyOf('HttpDispatcher'))).not.toContain('average_call_time')
    expect(listedValues(familyOf('HttpDispatcher'))).toHaveLength(10)
  })

  it('reads Apdex count as s + t + f and CPU percent per second of the slice', () => {
    expect(definitionOf(familyOf('Apdex'), 'count')).toMatchObject({
      formula: 'apdexCount',
      count: true,
    })
    expect(definitionOf(familyOf('HttpDispatcher'), 'count')).toMatchObject({
      nrql: 'count(newrelic.timeslice.value)',
    })
    expect(definitionOf(familyOf('CPU/User Time'), 'percent')).toEqual({
      nrql: 'rate(sum(newrelic.timeslice.value), 1 second) * 100',
    })
    expect(definitionOf(familyOf('CPU/User/Utilization'), 'percent')).toEqual({
      nrql: 'average(newrelic.timeslice.value) * 100',
    })
  })
})

describe('formulas', () => {
  const none = { endUserErrors: 0, pageViews: 0 }
  it('computes the Apdex score and count from s, t, f', () => {
    const i = { count: 80, total: 10, totalExclusive: 10, sumOfSquares: 0, ...none }
    expect(formulas.apdexCount(i)).toBe(100)
    expect(formulas.apdexScore(i)).toBe(0.85)
    expect(formulas.apdexScore({ ...i, count: 0, total: 0, totalExclusive: 0 })).toBeNull()
  })

  it('computes the standard deviation of call durations in ms from sumOfSquares', () => {
    // Calls of 0.1 s, 0.2 s, 0.3 s: mean 0.2, population sd sqrt(2/3)/10 s.
    const i = { count: 3, total: 0.6, totalExclusive: 0, sumOfSquares: 0.01 + 0.04 + 0.09, ...none }
    expect(formulas.standardDeviationMs(i)).toBeCloseTo((Math.sqrt(2 / 3) / 10) * 1000, 9)
    expect(formulas.standardDeviationMs({ ...i, count: 0 })).toBeNull()
    // Rounding noise below zero variance gives 0, not NaN.
    expect(
      formulas.standardDeviationMs({
        count: 2,
        total: 0.2,
        totalExclusive: 0,
        sumOfSquares: 0.02 - 1e-18,
        ...none,
      })
    ).toBe(0)
  })

  it('computes the EndUser error percentage from JavaScript errors over page views', () => {
    // D-nrql EndUser table: EndUser/errors over Browser, a ratio as the table writes it.
    const i = { count: 0, total: 0, totalExclusive: 0, sumOfSquares: 0, endUserErrors: 3 }
    expect(formulas.errorPercentage({ ...i, pageViews: 120 })).toBe(0.025)
    expect(formulas.errorPercentage({ ...i, pageViews: 0 })).toBeNull()
  })
})

describe('XML number text of counts', () => {
  it('prints every count value type as an integer (mappings/xml.ts integerFields)', async () => {
    const { integerFields } = await import('../mappings/xml')
    const counts = Object.entries(valueTypes)
      .filter(([, d]) => 'count' in d && d.count)
      .map(([k]) => k)
    expect(counts.length).toBeGreaterThan(5)
    for (const name of counts) expect(integerFields.has(name), name).toBe(true)
  })
})

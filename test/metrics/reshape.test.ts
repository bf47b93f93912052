import { describe, expect, it } from 'vitest'
import { planMetricData } from '../../src/resources/metrics/plan'
import { toV2MetricData, valuesOf } from '../../src/resources/metrics/reshape'
import type { MetricDataData } from '../../src/resources/metrics/documents'
import { round3 } from '../../src/core/numbers'
import { resolveTimeRange } from '../../src/core/time-range'

const now = Date.parse('2026-03-10T12:00:00Z')
const from = Date.parse('2026-03-10T11:00:00Z')
const data = (results: Record<string, unknown>[]): MetricDataData => ({
  actor: { account: { q0: { results, metadata: { facets: ['metricTimesliceName'] } } } },
})

describe('rounding (D-extract, TONS samples)', () => {
  const cases: [number, number][] = [
    [99_770, 99_800],
    [364.44, 364],
    [85_012, 85_000],
    [36_312.5, 36_300],
    [1_904.2, 1_900],
    [6.987, 6.99],
    [3.4999, 3.5],
    [0.36412, 0.364],
    [0.029834, 0.0298],
    [65.94, 65.9],
    [21.04, 21],
    [0, 0],
    [-12.345, -12.3],
  ]
  for (const [value, rounded] of cases) {
    it(`rounds ${value} to ${rounded}`, () => expect(round3(value)).toBe(rounded))
  }

  const reads = [
    { value: 'calls_per_minute' as const, count: false, alias: 'cpm' },
    { value: 'call_count' as const, count: true, alias: 'n' },
    { value: 'average_value' as const, count: false, alias: 'avg' },
  ]
  const row = { cpm: 99_770.4, n: 99_770, avg: 0.364_123 }

  it('rounds values to about 3 significant digits and keeps counts exact', () => {
    expect(valuesOf(reads, row, false)).toEqual({
      calls_per_minute: 99_800,
      call_count: 99_770,
      average_value: 0.364,
    })
  })

  it('keeps every value unrounded with raw=true', () => {
    expect(valuesOf(reads, row, true)).toEqual({
      calls_per_minute: 99_770.4,
      call_count: 99_770,
      average_value: 0.364_123,
    })
  })

  it('answers 0 for values without data (null averages, a slice without a row)', () => {
    expect(valuesOf(reads, { cpm: 0, n: 0, avg: null }, false)).toEqual({
      calls_per_minute: 0,
      call_count: 0,
      average_value: 0,
    })
    expect(valuesOf(reads, undefined, false)).toEqual({
      calls_per_minute: 0,
      call_count: 0,
      average_value: 0,
    })
  })
})

describe('toV2MetricData', () => {
  const range = resolveTimeRange(
    { from: '2026-03-10T11:00:00Z', to: '2026-03-10T11:05:00Z', summarize: false },
    now
  )
  const plan = planMetricData(
    { now: 0, names: ['B', 'A', 'C'], values: ['call_count'], range, raw: false },
    { accountId: 1, guid: 'G' }
  )
  const callCount = plan.metrics[0]!.values[0] as { alias: string } // call_count's column
  const bucket = (name: string, minute: number, n: number) => ({
    facet: name,
    beginTimeSeconds: (from + minute * 60_000) / 1000,
    endTimeSeconds: (from + (minute + 1) * 60_000) / 1000,
    [callCount.alias]: n,
  })

  it('places rows by their bucket start, fills gaps with 0, and ignores rows outside the grid', () => {
    const body = toV2MetricData(
      plan,
      data([bucket('A', 3, 7), bucket('A', 0, 5), bucket('A', 9, 100), bucket('B', 1, 2)])
    )
    const md = body['metric_data'] as {
      metrics_found: string[]
      metrics_not_found: string[]
      metrics: { name: string; timeslices: { from: string; values: { call_count: number } }[] }[]
    }
    expect(md.metrics_found).toEqual(['B', 'A'])
    expect(md.metrics_not_found).toEqual(['C'])
    expect(md.metrics[1]!.timeslices.map((t) => t.values.call_count)).toEqual([5, 0, 0, 7, 0])
    expect(md.metrics[1]!.timeslices[3]!.from).toBe('2026-03-10T11:03:00+00:00')
    expect(md.metrics[0]!.timeslices.map((t) => t.values.call_count)).toEqual([0, 2, 0, 0, 0])
  })

  it('writes the v2 keys in order and echoes the requested range', () => {
    const body = toV2MetricData(plan, data([]))
    expect(body).toEqual({
      metric_data: {
        from: '2026-03-10T11:00:00+00:00',
        to: '2026-03-10T11:05:00+00:00',
        metrics_not_found: ['B', 'A', 'C'],
        metrics_found: [],
        metrics: [],
      },
    })
    expect(Object.keys(body['metric_data'] as object)).toEqual([
      'from',
      'to',
      'metrics_not_found',
      'metrics_found',
      'metrics',
    ])
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formulas, type Inputs } from '../../mappings/value-types'
import { metricFamilies } from '../../mappings/metric-families'
import type { MetricDataData } from '../../src/resources/metrics/documents'
import {
  planMetricData,
  type MetricDataPlan,
  type ValueRead,
} from '../../src/resources/metrics/plan'
import { toV2MetricData } from '../../src/resources/metrics/reshape'
import { round3 } from '../../src/core/numbers'
import { renderJsonBytes } from '../../src/http/render/json'
import { renderXml } from '../../src/http/render/xml'
import { formatTime, resolveTimeRange, slicesOf } from '../../src/core/time-range'

type Row = Record<string, unknown>

/** The object path as it was before issue 16 (one closure per value, a `reduce` per scaled value):
 * the written JSON must be `JSON.stringify` of exactly this. */
function reference(plan: MetricDataPlan, data: MetricDataData) {
  const rowsByName = new Map<string, (Row | undefined)[]>()
  const { start, sliceMs, summarize } = plan.range
  plan.nrql.forEach((_, q) => {
    for (const row of data.actor.account?.[`q${q}`]?.results ?? []) {
      // The name by its position in `metadata.facets` (first): never the attribute's key.
      const facet = row['facet']
      const name = Array.isArray(facet) ? facet[0] : facet
      if (typeof name !== 'string') continue
      const slots = rowsByName.get(name) ?? []
      rowsByName.set(name, slots)
      const begin = row['beginTimeSeconds']
      const index =
        summarize || typeof begin !== 'number' ? 0 : Math.round((begin * 1000 - start) / sliceMs)
      if (index >= 0) slots[index] = row
    }
  })
  const known = new Set<string>(plan.known ?? [])
  plan.knownNrql.forEach((_, k) => {
    const list = data.actor.account?.[`k${k}`]?.results?.[0]?.['names']
    if (Array.isArray(list)) for (const n of list) if (typeof n === 'string') known.add(n)
  })
  const slices = slicesOf(plan.range).map((s) => ({
    from: formatTime(s.from),
    to: formatTime(s.to),
  }))
  const isFound = (name: string) => rowsByName.has(name) || known.has(name)
  const found = plan.metrics.filter((m) => isFound(m.name))
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null)
  const others: (Row | undefined)[] = []
  for (const row of data.actor.account?.['others']?.results ?? []) {
    const begin = row['beginTimeSeconds']
    const index =
      summarize || typeof begin !== 'number' ? 0 : Math.round((begin * 1000 - start) / sliceMs)
    if (index >= 0) others[index] = row
  }
  const read = (r: ValueRead, row: Row): number | null => {
    if ('alias' in r)
      return (r.scale ?? []).reduce<number | null>((n, f) => n && n * f, num(row[r.alias]))
    const inputs: Inputs = {
      count: 0,
      total: 0,
      totalExclusive: 0,
      sumOfSquares: 0,
      endUserErrors: 0,
      pageViews: 0,
    }
    for (const [input, alias] of Object.entries(r.inputs))
      inputs[input as keyof Inputs] = num(row[alias]) ?? 0
    return formulas[r.formula](inputs)
  }
  const values = (reads: ValueRead[], own: Row | undefined, i: number) => {
    const out: Record<string, number> = {}
    for (const r of reads) {
      const exact = plan.raw || r.count
      const row = 'others' in r && r.others ? others[i] : own
      out[r.value] = row === undefined ? 0 : exact ? (read(r, row) ?? 0) : round3(read(r, row) ?? 0)
    }
    return out
  }
  return {
    metric_data: {
      from: formatTime(plan.range.from),
      to: formatTime(plan.range.to),
      metrics_not_found: plan.metrics.filter((m) => !isFound(m.name)).map((m) => m.name),
      metrics_found: found.map((m) => m.name),
      metrics: found.map((m) => ({
        name: m.name,
        timeslices: slices.map((s, i) => ({
          ...s,
          values: values(m.values, rowsByName.get(m.name)?.[i], i),
        })),
      })),
    },
  }
}

const now = Date.parse('2026-03-10T12:00:00Z')
const utf8 = new TextEncoder()
/** The JSON text an answer carries: its bytes, decoded. */
const renderJson = (body: Record<string, unknown>) =>
  new TextDecoder().decode(renderJsonBytes(body))
/** One name of every family (its names, else a prefix), and names JSON must escape. */
const namePool = [
  ...metricFamilies.map((f) => f.names[0] ?? `${f.prefixes[0]}Some/thing`),
  'WebTransaction/Uri/é "quoted" \\ back\nslash',
  'Custom/\u2028line',
]
const valuePool = [
  'call_count',
  'average_response_time',
  'calls_per_minute',
  'standard_deviation',
  'score',
  's',
  'threshold',
  'used_bytes_by_host',
  'percent',
  'error_count',
  'error_percentage',
  'requests_per_minute',
  'no_such_value',
]
/** Numbers a NerdGraph row may carry, and what else a column may hold. */
const cell = fc.oneof(
  fc.double(),
  fc.double({ min: -1e-5, max: 1e-5 }),
  fc.integer({ min: -1e6, max: 1e9 }),
  fc.constantFrom(0, -0, 1e21, 9.995e20, 1e-7, 999.5, 0.0009995, Number.MAX_VALUE, NaN, Infinity),
  // Around the written-as-digits integers (src/resources/metrics/json.ts `integer`).
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, 10, -10, 9, 100),
  fc.constantFrom(null, undefined, '12', true)
)

const call = fc.record({
  names: fc.uniqueArray(fc.constantFrom(...namePool), { minLength: 1, maxLength: 6 }),
  values: fc.option(fc.array(fc.constantFrom(...valuePool), { maxLength: 6 }), { nil: null }),
  raw: fc.boolean(),
  summarize: fc.boolean(),
  minutes: fc.integer({ min: 1, max: 8 }),
  known: fc.option(fc.array(fc.constantFrom(...namePool)), { nil: null }),
  seed: fc.array(
    fc.tuple(
      fc.nat(20),
      fc.integer({ min: -2, max: 10 }),
      fc.array(cell, { minLength: 12, maxLength: 12 })
    ),
    { maxLength: 40 }
  ),
})

type Call = typeof call extends fc.Arbitrary<infer T> ? T : never

function callOf(c: Call) {
  const to = Date.parse('2026-03-10T11:00:00Z')
  const range = resolveTimeRange(
    {
      from: new Date(to - c.minutes * 60_000).toISOString(),
      to: new Date(to).toISOString(),
      summarize: c.summarize,
    },
    now
  )
  const plan = planMetricData(
    { now, names: c.names, values: c.values, range, raw: c.raw },
    { accountId: 1, guid: 'G' },
    c.known === null ? null : new Set(c.known)
  )
  const aliases = [
    ...new Set(
      plan.metrics.flatMap((m) =>
        m.values.flatMap((v) => ('alias' in v ? [v.alias] : Object.values(v.inputs)))
      )
    ),
  ]
  const rows = c.seed.map(([n, minute, cells]) => {
    const row: Row = {
      facet: n === 20 ? ['Apdex', 'host'] : namePool[n % namePool.length],
      metricTimesliceName: n < 18 ? namePool[n % namePool.length] : undefined,
    }
    if (minute >= -1) row['beginTimeSeconds'] = (range.start + minute * range.sliceMs) / 1000
    aliases.forEach((a, i) => (row[a] = cells[i % cells.length]))
    return row
  })
  const account: NonNullable<MetricDataData['actor']['account']> = {}
  plan.nrql.forEach(
    (_, q) =>
      (account[`q${q}`] = {
        results: rows.filter((_, i) => i % plan.nrql.length === q),
        metadata: { facets: ['metricTimesliceName'] },
      })
  )
  if (plan.knownNrql.length)
    account['k0'] = { results: [{ names: c.names.filter((_, i) => i % 2) }] }
  // The `others` query has no facet: its rows carry only the slice and the input columns.
  if (plan.othersNrql !== null)
    account['others'] = {
      results: rows.map(({ facet, metricTimesliceName, ...row }) => row),
    }
  return { plan, data: { actor: { account } } }
}

describe('metric data JSON written in one pass (issue 16)', () => {
  it('is JSON.stringify of the v2 object for any answer, names, values, raw and slices', () => {
    fc.assert(
      fc.property(call, (c) => {
        const { plan, data } = callOf(c)
        const body = toV2MetricData(plan, data)
        const expected = JSON.stringify(reference(plan, data))
        expect(renderJson(body)).toBe(expected)
        expect(JSON.stringify(body)).toBe(expected)
        expect(renderJsonBytes(body)).toEqual(utf8.encode(expected))
      }),
      { numRuns: 1_500 }
    )
  })

  it('writes the UTF-8 bytes of that text, however far the first metric misjudges the rest (issue 27)', () => {
    // The first name has no rows (every value 0), the others full-precision values and names JSON
    // escapes or UTF-8 spells in two and three bytes: the buffer sized after the first metric
    // must grow, and characters must not be split where it runs out.
    const names = [
      'HttpDispatcher',
      ...Array.from({ length: 40 }, (_, i) => `Custom/é\u2028"${i}"/ü`),
    ]
    const to = Date.parse('2026-03-10T11:00:00Z')
    const range = resolveTimeRange(
      {
        from: new Date(to - 120 * 60_000).toISOString(),
        to: new Date(to).toISOString(),
        summarize: false,
      },
      now
    )
    const plan = planMetricData(
      { now, names, values: null, range, raw: true },
      { accountId: 1, guid: 'G' },
      new Set(names)
    )
    const aliases = [...plan.nrql[0]!.matchAll(/ AS '([^']+)'/g)].map((m) => m[1]!)
    const results = names.slice(1).flatMap((name, n) =>
      Array.from({ length: 120 }, (_, i) => ({
        facet: name,
        metricTimesliceName: name,
        beginTimeSeconds: (range.start + i * range.sliceMs) / 1000,
        ...Object.fromEntries(aliases.map((a, k) => [a, (n * 7919 + i * 31 + k) / 7])),
      }))
    )
    const metadata = { facets: ['metricTimesliceName'] }
    const data: MetricDataData = { actor: { account: { q0: { results, metadata } } } }
    const expected = JSON.stringify(reference(plan, data))
    const bytes = renderJsonBytes(toV2MetricData(plan, data))
    expect(bytes.byteLength).toBeGreaterThan(1_000_000)
    expect(bytes.byteLength).toBe(utf8.encode(expected).byteLength)
    expect(new TextDecoder().decode(bytes)).toBe(expected)
  })

  it('leaves the XML answer as the v2 object renders it', () => {
    fc.assert(
      fc.property(call, (c) => {
        const { plan, data } = callOf(c)
        expect(renderXml(toV2MetricData(plan, data))).toBe(renderXml(reference(plan, data)))
      }),
      { numRuns: 300 }
    )
  })

  it('writes a value asked twice once, at its first place', () => {
    const range = resolveTimeRange(
      { from: '2026-03-10T10:58:00Z', to: '2026-03-10T11:00:00Z', summarize: true },
      now
    )
    const plan = planMetricData(
      {
        now,
        names: ['HttpDispatcher'],
        values: ['call_count', 'calls_per_minute', 'call_count'],
        range,
        raw: false,
      },
      { accountId: 1, guid: 'G' },
      new Set(['HttpDispatcher'])
    )
    const text = renderJson(toV2MetricData(plan, { actor: { account: { q0: { results: [] } } } }))
    expect(text).toContain('"values":{"call_count":0,"calls_per_minute":0}')
  })
})

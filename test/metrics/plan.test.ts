import { describe, expect, it } from 'vitest'
import {
  explainMetricData,
  planMetricData,
  planMetricNames,
  scaled,
  type MetricScope,
} from '../../src/resources/metrics/plan'
import { resolveTimeRange } from '../../src/core/time-range'
import { nrqlTimeoutS } from '../../src/upstream/nrql-timeout'

const scope: MetricScope = { accountId: 1000001, guid: 'GUID1' }
const now = Date.parse('2026-03-10T12:00:00Z')
const range = (
  summarize: boolean,
  from = '2026-03-10T11:00:00Z',
  to = '2026-03-10T11:30:00Z',
  period?: string
) => resolveTimeRange({ from, to, summarize, ...(period ? { period } : {}) }, now)
const v = 'newrelic.timeslice.value'

describe('planMetricData (the explain of a metric-data call)', () => {
  it("writes the migration guide's NRQL for its example, the ms factor applied locally (D-nrql, D-migrate)", () => {
    const plan = explainMetricData(
      {
        now: 0,
        names: ['HttpDispatcher'],
        values: ['call_count', 'average_call_time'],
        range: range(true),
        raw: false,
      },
      scope
    )
    expect(plan.nrql).toEqual([
      `SELECT count(${v}) AS 'a', average(${v}) AS 'b' FROM Metric ` +
        `WHERE entity.guid = 'GUID1' AND scope IS NULL AND metricTimesliceName IN ('HttpDispatcher') ` +
        `FACET metricTimesliceName SINCE ${Date.parse('2026-03-10T11:00:00Z')} UNTIL ${Date.parse('2026-03-10T11:30:00Z')} LIMIT MAX`,
    ])
    expect(plan.variables).toEqual({
      accountId: 1000001,
      timeout: 10,
      q0: plan.nrql[0],
      k0: plan.knownNrql[0],
    })
    expect(plan.document).toMatch(
      /query MetricData\(\$accountId: Int!, \$timeout: Seconds, \$q0: Nrql!, \$k0: Nrql!\)/
    )
    const full = planMetricData(
      { now: 0, names: ['HttpDispatcher'], values: null, range: range(true), raw: false },
      scope
    )
    // average_response_time (ms) and average_value (s) are one column; so are min and max in ms.
    expect(full.metrics[0]!.values.slice(0, 7)).toEqual([
      { value: 'average_response_time', count: false, alias: 'a', scale: [1000] },
      { value: 'calls_per_minute', count: false, alias: 'b' },
      { value: 'call_count', count: true, alias: 'c' },
      { value: 'min_response_time', count: false, alias: 'd', scale: [1000] },
      { value: 'max_response_time', count: false, alias: 'e', scale: [1000] },
      { value: 'average_exclusive_time', count: false, alias: 'f', scale: [1000] },
      { value: 'average_value', count: false, alias: 'a' },
    ])
  })

  it('keeps constant factors in the NRQL only where a sum or difference would change their meaning', () => {
    expect(scaled(`average(${v}) * 1024 * 1024`)).toEqual({
      expr: `average(${v})`,
      scale: [1024, 1024],
    })
    expect(scaled(`sum(${v}) / count(${v}) * 1000`)).toEqual({
      expr: `sum(${v}) / count(${v})`,
      scale: [1000],
    })
    expect(scaled(`(sum(${v}) - count(${v})) * 1000`)).toEqual({
      expr: `(sum(${v}) - count(${v}))`,
      scale: [1000],
    })
    expect(scaled(`sum(${v}) - count(${v}) * 1000`).scale).toEqual([])
    expect(scaled(`1000 * sum(${v})`).scale).toEqual([])
  })

  it('asks in the same document which requested names the scope reported in the 8 days before now', () => {
    const now = Date.parse('2026-03-20T12:00:30Z')
    const until = Date.parse('2026-03-20T12:00:00Z')
    const plan = planMetricData(
      {
        now,
        names: ['HttpDispatcher', 'Errors/all'],
        values: null,
        range: range(true),
        raw: false,
      },
      scope
    )
    expect(plan.knownNrql).toEqual([
      `SELECT uniques(metricTimesliceName, 10000) AS 'names' FROM Metric WHERE entity.guid = 'GUID1' ` +
        `AND newrelic.timeslice.value IS NOT NULL AND metricTimesliceName IN ('HttpDispatcher', 'Errors/all') ` +
        `SINCE ${until - 8 * 24 * 3600_000} UNTIL ${until}`,
    ])
    expect(plan.document).toContain(
      'k0: nrql(query: $k0, timeout: $timeout) { results metadata { facets } }'
    )
  })

  it('sends no known-names query when the metric names are already known', () => {
    const plan = planMetricData(
      { now: 0, names: ['HttpDispatcher'], values: null, range: range(true), raw: false },
      scope,
      new Set(['HttpDispatcher'])
    )
    expect(plan.knownNrql).toEqual([])
    expect(Object.keys(plan.variables)).toEqual(['accountId', 'timeout', 'q0'])
    expect(plan.document).not.toContain('k0')
  })

  it('adds TIMESERIES per slice for a series', () => {
    expect(
      planMetricData(
        { now: 0, names: ['A'], values: ['call_count'], range: range(false), raw: false },
        scope
      ).nrql[0]
    ).toContain('TIMESERIES 1 minute LIMIT MAX')
    const coarse = range(false, '2026-03-10T06:00:00Z', '2026-03-10T11:30:00Z', '300')
    expect(
      planMetricData(
        { now: 0, names: ['A'], values: ['call_count'], range: coarse, raw: false },
        scope
      ).nrql[0]
    ).toContain('TIMESERIES 5 minutes LIMIT MAX')
  })

  it('scopes to a host, and to one agent instance on it, with quoted values', () => {
    const q = planMetricData(
      { now: 0, names: ["It's/a\\name"], values: null, range: range(true), raw: false },
      { ...scope, host: "h'1", instanceName: 'h1:8080' }
    ).nrql[0]!
    expect(q).toContain(
      `WHERE entity.guid = 'GUID1' AND host = 'h\\'1' AND instanceName = 'h1:8080' AND scope IS NULL`
    )
    expect(q).toContain(`metricTimesliceName IN ('It\\'s/a\\\\name')`)
  })

  it('fetches an expression shared by several values or metrics of a family once', () => {
    const plan = planMetricData(
      {
        now: 0,
        names: ['HttpDispatcher', 'Apdex', 'EndUser/Apdex'],
        values: ['calls_per_minute', 'call_count', 'requests_per_minute', 's', 'count', 'score'],
        range: range(true),
        raw: false,
      },
      scope
    )
    const select = (q: string) => q.slice(0, q.indexOf(' FROM'))
    // requests_per_minute reuses calls_per_minute's expression.
    expect(select(plan.nrql[0]!)).toBe(
      `SELECT rate(count(${v}), 1 minute) AS 'a', count(${v}) AS 'b'`
    )
    expect(plan.metrics[0]!.values).toEqual([
      { value: 'calls_per_minute', count: false, alias: 'a' },
      { value: 'call_count', count: true, alias: 'b' },
      { value: 'requests_per_minute', count: false, alias: 'a' },
    ])
    // Both Apdex names share one query; `count` and `score` reuse `s`'s count(v).
    expect(select(plan.nrql[1]!)).toBe(
      `SELECT count(${v}) AS 'a', sum(${v}) AS 'b', sum(${v}['totalExclusive']) AS 'c'`
    )
    expect(plan.nrql[1]).toContain("metricTimesliceName IN ('Apdex', 'EndUser/Apdex')")
    const apdex = plan.metrics[1]!.values
    expect(apdex).toEqual([
      { value: 's', count: true, alias: 'a' },
      {
        value: 'count',
        count: true,
        formula: 'apdexCount',
        inputs: { count: 'a', total: 'b', totalExclusive: 'c' },
      },
      {
        value: 'score',
        count: false,
        formula: 'apdexScore',
        inputs: { count: 'a', total: 'b', totalExclusive: 'c' },
      },
    ])
  })

  it('asks each metric family only for its own columns, in one query per family', () => {
    const plan = planMetricData(
      {
        now: 0,
        names: ['CPU/User Time', 'Errors/all', 'CPU/User/Utilization', 'Errors/x'],
        values: ['percent', 'error_count'],
        range: range(true),
        raw: false,
      },
      scope
    )
    expect(plan.nrql).toHaveLength(3)
    expect(plan.nrql[0]).toMatch(
      /^SELECT rate\(sum\(newrelic\.timeslice\.value\), 1 second\) AS 'a' FROM .* IN \('CPU\/User Time'\)/
    )
    expect(plan.nrql[1]).toMatch(
      /^SELECT count\(newrelic\.timeslice\.value\) AS 'a' FROM .* IN \('Errors\/all', 'Errors\/x'\)/
    )
    expect(plan.nrql[2]).toMatch(/^SELECT average\(newrelic\.timeslice\.value\) AS 'a' FROM/)
    expect(Object.keys(plan.variables)).toEqual(['accountId', 'timeout', 'q0', 'q1', 'q2', 'k0'])
    expect(plan.document).toContain('q2: nrql(query: $q2, timeout: $timeout)')
  })

  it('still selects something when no requested value applies', () => {
    const plan = planMetricData(
      { now: 0, names: ['Memory/Physical'], values: ['score'], range: range(true), raw: false },
      scope
    )
    expect(plan.nrql[0]).toMatch(/^SELECT count\(newrelic\.timeslice\.value\) AS 'a' FROM/)
    expect(plan.metrics[0]!.values).toEqual([])
  })

  it('splits more than 2000 names into aliases of one document', () => {
    const names = Array.from({ length: 4001 }, (_, i) => `M/${i}`)
    const plan = planMetricData(
      { now: 0, names, values: ['call_count'], range: range(true), raw: false },
      scope
    )
    expect(plan.nrql).toHaveLength(3)
    expect(Object.keys(plan.variables)).toEqual([
      'accountId',
      'timeout',
      'q0',
      'q1',
      'q2',
      'k0',
      'k1',
      'k2',
    ])
    expect(plan.document).toContain('q2: nrql(query: $q2, timeout: $timeout)')
    expect(plan.nrql[2]).toContain("IN ('M/4000')")
  })
})

describe('planMetricNames', () => {
  it('asks uniques() for up to 10,000 names over the last 8 days, filtered upstream with a quoted LIKE', () => {
    const plan = planMetricNames({ ...scope, host: 'h1' }, "50%_o'k", now + 30_000)
    expect(plan.nrql).toBe(
      `SELECT uniques(metricTimesliceName, 10000) AS 'names', uniqueCount(metricTimesliceName) AS 'count' FROM Metric WHERE entity.guid = 'GUID1' AND host = 'h1' ` +
        `AND newrelic.timeslice.value IS NOT NULL AND metricTimesliceName LIKE '%50%_o\\'k%' ` +
        `SINCE ${now - 8 * 86_400_000} UNTIL ${now}`
    )
    expect(plan.variables).toEqual({ accountId: 1000001, nrql: plan.nrql })
  })

  it('sends no LIKE without a filter', () => {
    expect(planMetricNames(scope, undefined, now).nrql).not.toContain('LIKE')
  })

  it('keeps the names of a half of a cut list in range with quoted bounds', () => {
    const plan = planMetricNames(scope, 'Web', now, { lo: "a'b", hi: 'm' })
    expect(plan.nrql).toContain(
      `AND metricTimesliceName LIKE '%Web%' AND metricTimesliceName >= 'a\\'b' AND metricTimesliceName < 'm' `
    )
  })
})

describe('the NRQL timeout of a metric-data call (src/upstream/nrql-timeout.ts)', () => {
  it('grows with names × minutes within NerdGraph’s 5–120 s clamp', () => {
    expect(nrqlTimeoutS(2, 30)).toBe(10) // the small call
    expect(nrqlTimeoutS(50, 4 * 1440)).toBe(24) // the largest call of bench:overhead
    expect(nrqlTimeoutS(2000, 90 * 1440)).toBe(120)
    expect(nrqlTimeoutS(0, 0)).toBe(10)
  })

  it('is sent as the document’s `$timeout`', () => {
    const day = 86_400_000
    const wide = { ...range(false), start: 0, end: 4 * day }
    const names = Array.from({ length: 50 }, (_, i) => `Custom/n${i}`)
    const plan = planMetricData({ now: 0, names, values: [], range: wide, raw: false }, scope)
    expect(plan.variables['timeout']).toBe(24)
  })
})

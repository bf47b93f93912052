import { describe, expect, it } from 'vitest'
import { runNrql } from '../../simulator/nrql'
import { NrqlError } from '../../simulator/types'
import { MIN, T0, WINDOW, context } from './fixtures/rows'

const V = 'newrelic.timeslice.value'
const HTTP = "WHERE metricTimesliceName = 'HttpDispatcher'"
const run = (text: string) => runNrql(text, context())
const s = (ms: number) => ms / 1000

describe('runNrql: time window and metadata', () => {
  it('reports the snapped window and clause texts', () => {
    const r = run(`SELECT count(*) FROM Metric ${WINDOW}`)
    expect(r).toEqual({
      results: [{ count: 8 }],
      metadata: {
        eventTypes: ['Metric'],
        facets: null,
        messages: [],
        timeWindow: {
          begin: T0,
          end: T0 + 10 * MIN,
          since: String(T0),
          until: String(T0 + 10 * MIN),
          compareWith: null,
        },
      },
      totalResult: null,
      otherResult: null,
    })
  })

  it('defaults to the last hour before now, snapped to minutes', () => {
    // now = T0 + 10m30s → [T0 − 50m, T0 + 10m): R0 joins the 8 rows; R6 sits on the end
    const r = run('SELECT count(*) FROM Metric')
    expect(r.results).toEqual([{ count: 9 }])
    expect(r.metadata.timeWindow).toMatchObject({
      begin: T0 - 50 * MIN,
      end: T0 + 10 * MIN,
      since: '60 MINUTES AGO',
      until: 'NOW',
    })
  })

  it('resolves SINCE … AGO and UNTIL … AGO / NOW against now', () => {
    // since T0 + 5m30s → T0 + 5m: R4 (5m), R9 (6m), R10 (7m)
    const a = run('SELECT count(*) FROM Metric SINCE 5 minutes ago UNTIL NOW')
    expect(a.results).toEqual([{ count: 3 }])
    expect(a.metadata.timeWindow).toMatchObject({
      begin: T0 + 5 * MIN,
      since: '5 MINUTES AGO',
      until: 'NOW',
    })
    // [T0 − 9m30s, T0 + 2m30s) → [T0 − 10m, T0 + 2m): R0, R1, R2
    const b = run('SELECT count(*) FROM Metric SINCE 20 minutes ago UNTIL 8 minutes ago')
    expect(b.results).toEqual([{ count: 3 }])
    expect(run('SELECT count(*) FROM Metric SINCE 1 hour ago').metadata.timeWindow.since).toBe(
      '1 HOUR AGO'
    )
  })

  it('rejects an empty window', () => {
    // both ends floor to T0
    expect(() => run(`SELECT count(*) FROM Metric SINCE ${T0} UNTIL ${T0 + 30_000}`)).toThrow(
      NrqlError
    )
    expect(() => run(`SELECT count(*) FROM Metric SINCE ${T0 + MIN} UNTIL ${T0}`)).toThrow(
      NrqlError
    )
    expect(() => run('SELECT count(*) FROM Metric SINCE NOW')).toThrow(NrqlError)
  })

  it('accepts LIMIT without FACET and ignores it', () => {
    expect(run(`SELECT count(*) FROM Metric LIMIT 5 ${WINDOW}`).results).toEqual([{ count: 8 }])
  })
})

describe('runNrql: TIMESERIES', () => {
  it('returns one row per bucket in epoch seconds', () => {
    // Http: bucket [T0, T0+5m) has R1 10 + R2 30; [T0+5m, T0+10m) has R4 10
    const r = run(`SELECT count(${V}) FROM Metric ${HTTP} TIMESERIES 5 minutes ${WINDOW}`)
    expect(r.results).toEqual([
      { beginTimeSeconds: s(T0), endTimeSeconds: s(T0 + 5 * MIN), [`count.${V}`]: 40 },
      { beginTimeSeconds: s(T0 + 5 * MIN), endTimeSeconds: s(T0 + 10 * MIN), [`count.${V}`]: 10 },
    ])
    expect(r.totalResult).toBeNull()
  })

  it('bases buckets on the end and drops the partial leading one (docs "Set a query\'s time range")', () => {
    // 7 minutes by 5: one whole bucket [T0+2m, T0+7m), 10 calls / 5 min = 2; the 40 calls of
    // [T0, T0+2m) fall before it. On main the buckets started at T0, the last one clipped.
    const r = run(
      `SELECT rate(count(${V}), 1 minute) AS 'rpm' FROM Metric ${HTTP} TIMESERIES 5 minutes SINCE ${T0} UNTIL ${T0 + 7 * MIN}`
    )
    expect(r.results).toEqual([
      { beginTimeSeconds: s(T0 + 2 * MIN), endTimeSeconds: s(T0 + 7 * MIN), rpm: 2 },
    ])
    expect(r.metadata.timeWindow).toMatchObject({ begin: T0 + 2 * MIN, end: T0 + 7 * MIN })
  })

  it('fills empty buckets with empty aggregates', () => {
    const r = run(`SELECT count(*), average(${V}) FROM Metric TIMESERIES 60 seconds ${WINDOW}`)
    expect(r.results).toHaveLength(10)
    // minute 4: R8 only (R7 is another account); minute 8: nothing
    expect(r.results[4]).toMatchObject({ count: 1, [`average.${V}`]: null }) // 0 / 0 calls
    expect(r.results[8]).toMatchObject({
      beginTimeSeconds: s(T0 + 8 * MIN),
      count: 0,
      [`average.${V}`]: null,
    })
  })

  it('accepts 366 buckets and rejects more', () => {
    const window = (minutes: number) => `SINCE ${T0} UNTIL ${T0 + minutes * MIN}`
    // 366 minutes is over 6 h: the 5-minute rollup, so 5-minute buckets (366 of them: 30.5 h)
    expect(
      run(`SELECT count(*) FROM Metric TIMESERIES 5 minutes ${window(366 * 5)}`).results
    ).toHaveLength(366)
    expect(() =>
      run(`SELECT count(*) FROM Metric TIMESERIES 5 minutes ${window(367 * 5)}`)
    ).toThrow(/366 buckets/)
    expect(() => run('SELECT count(*) FROM Metric SINCE 7 days ago TIMESERIES 1 minute')).toThrow(
      NrqlError
    )
  })

  it('rejects buckets that are not whole minutes', () => {
    expect(() => run(`SELECT count(*) FROM Metric TIMESERIES 30 seconds ${WINDOW}`)).toThrow(
      NrqlError
    )
    expect(() => run(`SELECT count(*) FROM Metric TIMESERIES 90 seconds ${WINDOW}`)).toThrow(
      NrqlError
    )
  })
})

describe('runNrql: FACET', () => {
  it('groups by one attribute, ranks by the first item and totals all rows', () => {
    // shop: R1 R2 R3 R5 R8 R9 = 6; billing: R4 R10 = 2
    const r = run(`SELECT count(*) FROM Metric FACET appName ${WINDOW}`)
    expect(r.results).toEqual([
      { facet: 'shop', appName: 'shop', count: 6 },
      { facet: 'billing', appName: 'billing', count: 2 },
    ])
    expect(r.totalResult).toEqual({ count: 8 })
    expect(r.metadata.facets).toEqual(['appName'])
    expect(r.otherResult).toBeNull()
  })

  it('breaks ties by facet value, applies LIMIT, and totals beyond the limit', () => {
    // one Http row per host
    const r = run(`SELECT count(*) FROM Metric ${HTTP} FACET host LIMIT 2 ${WINDOW}`)
    expect(r.results).toEqual([
      { facet: 'h1', host: 'h1', count: 1 },
      { facet: 'h2', host: 'h2', count: 1 },
    ])
    expect(r.totalResult).toEqual({ count: 3 })
    expect(run(`SELECT count(*) FROM Metric FACET host LIMIT MAX ${WINDOW}`).results).toHaveLength(
      3
    )
  })

  it('defaults to 10 groups', () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({
      ...context().store.rows[1]!,
      metricTimesliceName: `M${String(i).padStart(2, '0')}`,
    }))
    const r = runNrql(
      `SELECT count(*) FROM Metric FACET metricTimesliceName ${WINDOW}`,
      context(rows)
    )
    expect(r.results.map((x) => x.facet)).toEqual([
      'M00',
      'M01',
      'M02',
      'M03',
      'M04',
      'M05',
      'M06',
      'M07',
      'M08',
      'M09',
    ])
    expect(r.totalResult).toEqual({ count: 12 })
  })

  it('puts null ranks last', () => {
    // h1 rows, total/count: R1 Http 0.2, R5 Datastore 0.2, R3 Apdex 0.125, R8 Errors 0/0 → null
    const r = run(
      `SELECT average(${V}['total'] / ${V}['count']) AS 'r' FROM Metric WHERE host = 'h1' FACET metricTimesliceName ${WINDOW}`
    )
    expect(r.results.map((x) => [x.facet, x.r])).toEqual([
      ['Datastore/MySQL/select', 0.2],
      ['HttpDispatcher', 0.2],
      ['Apdex', 0.125],
      ['Errors/all', null],
    ])
  })

  it('ranks apdex by score and uniques as unranked (facet order)', () => {
    // scores: Apdex (8 + 0.5)/10 = 0.85; Http (10 + 1)/13.5 ≈ 0.815; Datastore (4 + 0.4)/5.6 ≈ 0.786; Errors null
    const a = run(
      `SELECT apdex(${V}) AS 'a' FROM Metric WHERE host = 'h1' FACET metricTimesliceName ${WINDOW}`
    )
    expect(a.results.map((x) => x.facet)).toEqual([
      'Apdex',
      'HttpDispatcher',
      'Datastore/MySQL/select',
      'Errors/all',
    ])
    const u = run(`SELECT uniques(host) FROM Metric FACET appName ${WINDOW}`)
    expect(u.results).toEqual([
      { facet: 'billing', appName: 'billing', 'uniques.host': ['h3'] },
      { facet: 'shop', appName: 'shop', 'uniques.host': ['h1', 'h2'] },
    ])
    expect(u.totalResult).toEqual({ 'uniques.host': ['h1', 'h2', 'h3'] })
  })

  it('groups by several attributes, each row carrying only `facet` in FACET order (live shape)', () => {
    // (shop, h1): R1 R3 R5 R8 = 4; (shop, h2): R2 R9 = 2; (billing, h3): R4 R10 = 2
    const r = run(`SELECT count(*) FROM Metric FACET appName, host ${WINDOW}`)
    expect(r.results).toEqual([
      { facet: ['shop', 'h1'], count: 4 },
      { facet: ['billing', 'h3'], count: 2 },
      { facet: ['shop', 'h2'], count: 2 },
    ])
    expect(r.metadata.facets).toEqual(['appName', 'host'])
  })

  it('keeps numeric and null facet values', () => {
    expect(run(`SELECT count(*) FROM Metric FACET appId ${WINDOW}`).results).toEqual([
      { facet: 2, appId: 2, count: 6 },
      { facet: 10, appId: 10, count: 2 },
    ])
    expect(run(`SELECT count(*) FROM Metric FACET scope ${WINDOW}`).results).toEqual([
      { facet: null, scope: null, count: 7 },
      {
        facet: 'WebTransaction/Controller/home',
        scope: 'WebTransaction/Controller/home',
        count: 1,
      },
    ])
  })

  it('rates each facet over the window', () => {
    // shop 40 calls, billing 10, over 10 minutes
    const r = run(
      `SELECT rate(count(${V}), 1 minute) AS 'rpm' FROM Metric ${HTTP} FACET \`appName\` ${WINDOW}`
    )
    expect(r.results).toEqual([
      { facet: 'shop', appName: 'shop', rpm: 4 },
      { facet: 'billing', appName: 'billing', rpm: 1 },
    ])
    expect(r.totalResult).toEqual({ rpm: 5 })
  })

  it('with TIMESERIES returns flat rows per facet per bucket and per-bucket totals', () => {
    // shop: R1 10 + R2 30 in bucket 0; billing: R4 10 in bucket 1
    const r = run(
      `SELECT count(${V}) AS 'c' FROM Metric ${HTTP} FACET appName TIMESERIES 5 minutes ${WINDOW}`
    )
    const b0 = { beginTimeSeconds: s(T0), endTimeSeconds: s(T0 + 5 * MIN) }
    const b1 = { beginTimeSeconds: s(T0 + 5 * MIN), endTimeSeconds: s(T0 + 10 * MIN) }
    expect(r.results).toEqual([
      { facet: 'shop', appName: 'shop', ...b0, c: 40 },
      { facet: 'shop', appName: 'shop', ...b1, c: 0 },
      { facet: 'billing', appName: 'billing', ...b0, c: 0 },
      { facet: 'billing', appName: 'billing', ...b1, c: 10 },
    ])
    expect(r.totalResult).toEqual([
      { ...b0, c: 40 },
      { ...b1, c: 10 },
    ])
  })

  it('returns no groups but a zero total when nothing matches', () => {
    const r = run(`SELECT count(*) FROM Metric WHERE host = 'none' FACET host ${WINDOW}`)
    expect(r.results).toEqual([])
    expect(r.totalResult).toEqual({ count: 0 })
  })
})

describe('runNrql: NRDB caps (NrqlLimits `limitMax`, `uniquesCap`)', () => {
  const capped = (text: string, limits: { limitMax?: number; uniquesCap?: number }) =>
    runNrql(text, { ...context(), limits })

  it('answers LIMIT MAX with 5,000 facets live, fewer under a test cap, the rest in otherResult', () => {
    // shop: 6 rows, billing: 2 (R1…R10 of the fixture)
    expect(
      run(`SELECT count(*) FROM Metric FACET appName LIMIT 5000 ${WINDOW}`).results
    ).toHaveLength(2)
    const r = capped(`SELECT count(*) FROM Metric FACET appName LIMIT MAX ${WINDOW}`, {
      limitMax: 1,
    })
    expect(r.results).toEqual([{ facet: 'shop', appName: 'shop', count: 6 }])
    expect(r.otherResult).toEqual({ count: 2 })
    expect(
      capped(`SELECT count(*) FROM Metric FACET appName LIMIT 2 ${WINDOW}`, { limitMax: 1 }).results
    ).toHaveLength(1)
    expect(
      run(`SELECT count(*) FROM Metric FACET appName LIMIT MAX ${WINDOW}`).otherResult
    ).toBeNull()
  })

  it('stops uniques() at its cap: the asked limit, at most `uniquesCap`', () => {
    const all = run(`SELECT uniques(host) AS 'h' FROM Metric ${WINDOW}`).results[0]!['h']
    expect(all).toEqual(['h1', 'h2', 'h3'])
    const two = capped(`SELECT uniques(host, 1000) AS 'h' FROM Metric ${WINDOW}`, { uniquesCap: 2 })
    expect(two.results[0]!['h']).toEqual(['h1', 'h2'])
    expect(run(`SELECT uniques(host, 1) AS 'h' FROM Metric ${WINDOW}`).results[0]!['h']).toEqual([
      'h1',
    ])
  })

  it('counts every distinct value with uniqueCount(), whatever the uniques() cap', () => {
    const r = capped(
      `SELECT uniques(host, 1000) AS 'h', uniqueCount(host) AS 'n' FROM Metric ${WINDOW}`,
      { uniquesCap: 2 }
    )
    expect(r.results).toEqual([{ h: ['h1', 'h2'], n: 3 }])
  })
})

describe('runNrql: ordering comparisons (`<`, `<=`, `>`, `>=`)', () => {
  it('compares strings by code unit, and `<` and `>=` split the values between them', () => {
    const hosts = (where: string) =>
      run(`SELECT uniques(host) AS 'h' FROM Metric WHERE ${where} ${WINDOW}`).results[0]!['h']
    expect(hosts(`host < 'h2'`)).toEqual(['h1'])
    expect(hosts(`host >= 'h2'`)).toEqual(['h2', 'h3'])
    expect(hosts(`host <= 'h2'`)).toEqual(['h1', 'h2'])
    expect(hosts(`host > 'h2'`)).toEqual(['h3'])
  })
})

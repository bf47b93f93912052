import { describe, expect, it } from 'vitest'
import { runNrql } from '../../simulator/nrql'
import { NrqlError } from '../../simulator/types'
import { MIN, T0, WINDOW, context } from './fixtures/rows'

const V = 'newrelic.timeslice.value'
const HTTP = "WHERE metricTimesliceName = 'HttpDispatcher'"
/** Runs a query over the fixture and returns its single plain result row. */
const one = (select: string, rest = '') =>
  runNrql(`SELECT ${select} FROM Metric ${rest} ${WINDOW}`, context()).results[0]

describe('runNrql: timeslice aggregates', () => {
  // HttpDispatcher rows in the window: R1 (count 10, total 2, sq 0.6, min 0.1, max 0.5),
  // R2 (30, 3, 0.5, 0.05, 0.3), R4 (10, 5, 3, 0.2, 0.9).
  it('count / sum / average / min / max / stddev combine components like NRDB', () => {
    const row = one(
      `count(${V}), sum(${V}), average(${V}), min(${V}), max(${V}), stddev(${V})`,
      HTTP
    )
    expect(row?.[`count.${V}`]).toBe(50) // 10 + 30 + 10
    expect(row?.[`sum.${V}`]).toBe(10) // 2 + 3 + 5
    expect(row?.[`average.${V}`]).toBeCloseTo(0.2, 12) // 10 / 50
    expect(row?.[`min.${V}`]).toBe(0.05) // min(0.1, 0.05, 0.2)
    expect(row?.[`max.${V}`]).toBe(0.9) // max(0.5, 0.3, 0.9)
    // sqrt((0.6 + 0.5 + 3) / 50 - 0.2²) = sqrt(0.082 - 0.04) = sqrt(0.042)
    expect(row?.[`stddev.${V}`]).toBeCloseTo(Math.sqrt(0.042), 12)
  })

  it('count(*) counts rows', () => {
    expect(one('count(*)', HTTP)).toEqual({ count: 3 }) // R1, R2, R4
    expect(one('count(*)')).toEqual({ count: 8 }) // R1 R2 R3 R4 R5 R8 R9 R10
  })

  it('apdex unpacks s / t / f from count / total / totalExclusive', () => {
    // R3: s = 8, t = 1, f = 1 → count 10, score (8 + 1/2) / 10 = 0.85
    expect(one(`apdex(${V})`, "WHERE metricTimesliceName = 'Apdex'")).toEqual({
      [`apdex.${V}`]: { score: 0.85, s: 8, t: 1, f: 1, count: 10 },
    })
  })

  it('returns NRDB empty values when no row matches', () => {
    const row = one(
      `count(${V}), sum(${V}), average(${V}), min(${V}), max(${V}), stddev(${V}), apdex(${V}), uniques(host), count(*)`,
      "WHERE host = 'nowhere'"
    )
    expect(row).toEqual({
      [`count.${V}`]: 0,
      [`sum.${V}`]: 0,
      [`average.${V}`]: null,
      [`min.${V}`]: null,
      [`max.${V}`]: null,
      [`stddev.${V}`]: null,
      [`apdex.${V}`]: { score: null, s: 0, t: 0, f: 0, count: 0 },
      'uniques.host': [],
      count: 0,
    })
  })
})

describe('runNrql: component expressions', () => {
  const te = `${V}['totalExclusive']`
  it('sum / average / min / max / count / stddev of one component', () => {
    const row = one(
      `sum(${te}) AS 's', average(${V}['total']) AS 'a', min(${V}['max']) AS 'lo', ` +
        `max(${V}['min']) AS 'hi', count(${V}['sumOfSquares']) AS 'n', stddev(${V}['count']) AS 'sd'`,
      HTTP
    )
    expect(row?.s).toBe(7.5) // 1.5 + 2 + 4
    expect(row?.a).toBeCloseTo(10 / 3, 12) // (2 + 3 + 5) / 3
    expect(row?.lo).toBe(0.3) // min(0.5, 0.3, 0.9)
    expect(row?.hi).toBe(0.2) // max(0.1, 0.05, 0.2)
    expect(row?.n).toBe(3) // three rows carry the component
    // counts 10, 30, 10: mean 50/3, population variance (100 + 900 + 100)/3 - (50/3)² = 800/9
    expect(row?.sd).toBeCloseTo(Math.sqrt(800 / 9), 12)
  })

  it('averages per-row ratios', () => {
    // R1 1.5/10 = 0.15, R2 2/30 = 1/15, R4 4/10 = 0.4 → (9 + 4 + 24) / 60 / 3 = 37/180
    const row = one(`average(${te} / ${V}['count'])`, HTTP)
    expect(row?.[`average(${te} / ${V}['count'])`]).toBeCloseTo(37 / 180, 12)
  })

  it('skips rows whose per-row value is not finite', () => {
    // R8 has count 0: 0/0 is skipped, so no row contributes.
    const row = one(
      `average(${V}['total'] / ${V}['count']) AS 'a', count(${V}['total'] / ${V}['count']) AS 'n'`,
      "WHERE metricTimesliceName = 'Errors/all'"
    )
    expect(row).toEqual({ a: null, n: 0 })
  })

  it('supports per-row arithmetic with constants and negation', () => {
    // Σ (total * 1000 - -1) over R1, R2, R4 = 2001 + 3001 + 5001
    expect(one(`sum(${V}['total'] * 1000 - -1) AS 'x'`, HTTP)).toEqual({ x: 10003 })
    // -(min of -max) = max: -min(-0.5, -0.3, -0.9) = 0.9
    expect(one(`-min(-${V}['max']) AS 'x'`, HTTP)).toEqual({ x: 0.9 })
  })
})

describe('runNrql: arithmetic over aggregates', () => {
  it('combines aggregates and constants with precedence', () => {
    // (10 / 50) * 1000 + 3 = 203
    const row = one(`sum(${V}) / count(${V}) * 1000 + count(*) AS 'x'`, HTTP)
    expect(row?.x).toBeCloseTo(203, 9)
    // unaliased: the trimmed source text is the key
    expect(one(`(count(*) + 1) * 2`, HTTP)).toEqual({ '(count(*) + 1) * 2': 8 }) // (3 + 1) * 2
  })

  it('yields null for a null operand or a division by zero', () => {
    const row = one(
      `average(${V}) + 1 AS 'a', count(*) / 0 AS 'b', count(*) / count(${V}) AS 'c'`,
      "WHERE host = 'none'"
    )
    expect(row).toEqual({ a: null, b: null, c: null }) // null + 1; 0 / 0; 0 / 0
  })
})

describe('runNrql: uniques, filter, rate', () => {
  it('uniques returns distinct values sorted as strings, appId as numbers', () => {
    // appIds 2 and 10 sort as strings: '10' < '2'
    expect(one('uniques(appId)')).toEqual({ 'uniques.appId': [10, 2] })
    // hosts in the window: h1 (R1 R3 R5 R8), h2 (R2 R9), h3 (R4 R10)
    expect(one('uniques(host)')).toEqual({ 'uniques.host': ['h1', 'h2', 'h3'] })
    expect(one('uniques(host, 2)')).toEqual({ 'uniques.host': ['h1', 'h2'] })
    expect(one('uniques(scope)')).toEqual({ 'uniques.scope': ['WebTransaction/Controller/home'] })
  })

  it('filter applies the aggregate to matching rows only', () => {
    // Http rows on h1: R1 count 10; on h2 or h3: R2 30 + R4 10
    const row = one(
      `filter(count(${V}), WHERE host = 'h1') AS 'h1', filter(count(${V}), WHERE host IN ('h2', 'h3')) AS 'rest', ` +
        `filter(uniques(host), WHERE appId = 10) AS 'u', filter(apdex(${V}), WHERE metricTimesliceName = 'Apdex') AS 'ap'`,
      HTTP
    )
    expect(row).toEqual({
      h1: 10,
      rest: 40,
      u: ['h3'],
      ap: { score: null, s: 0, t: 0, f: 0, count: 0 },
    })
  })

  it('rate scales by the per-unit over the window', () => {
    // 50 calls in a 10-minute window: 50 × 1/10 per minute, 50 × 1/600 per second
    const row = one(
      `rate(count(${V}), 1 minute) AS 'rpm', rate(count(${V}), 1 second) AS 'rps'`,
      HTTP
    )
    expect(row?.rpm).toBe(5)
    expect(row?.rps).toBeCloseTo(50 / 600, 12)
  })

  it('rate and filter nest both ways', () => {
    // h1 Http calls = 10 over 10 minutes → 1 per minute
    const row = one(
      `rate(filter(count(${V}), WHERE host = 'h1'), 1 minute) AS 'a', filter(rate(count(${V}), 1 minute), WHERE host = 'h1') AS 'b'`,
      HTTP
    )
    expect(row).toEqual({ a: 1, b: 1 })
  })
})

describe('runNrql: WHERE', () => {
  const count = (cond: string) => one('count(*)', `WHERE ${cond}`)?.count
  it('= and != on strings and numbers, with appId string coercion', () => {
    expect(count('appId = 10')).toBe(2) // R4, R10
    expect(count("appId = '10'")).toBe(2) // NRQL coerces the string
    expect(count("appId = 'ten'")).toBe(0)
    expect(count('appId != 10')).toBe(6) // 8 − 2
    expect(count("appName = 'billing'")).toBe(2)
    expect(count("appName != 'billing'")).toBe(6)
    expect(count("`entity.guid` = 'GUID-BILL'")).toBe(2)
    expect(count("instanceName = 'h2:8080'")).toBe(2) // R2, R9
  })

  it('IN and NOT IN', () => {
    expect(count("host IN ('h2', 'h3')")).toBe(4) // R2 R9 R4 R10
    expect(count("host NOT IN ('h2', 'h3')")).toBe(4) // R1 R3 R5 R8
    expect(count("appId IN (2, '10')")).toBe(8)
  })

  it('LIKE and NOT LIKE with % and _, case-insensitive as the docs say', () => {
    expect(count("metricTimesliceName LIKE 'Http%'")).toBe(3)
    expect(count("metricTimesliceName LIKE 'http%'")).toBe(3)
    expect(count("metricTimesliceName NOT LIKE 'HTTP%'")).toBe(5)
    expect(count("metricTimesliceName LIKE '_ttpDispatche_'")).toBe(3)
    expect(count("metricTimesliceName LIKE 'Datastore/%/select'")).toBe(1)
    expect(count("metricTimesliceName LIKE 'Custom/%'")).toBe(2) // R9, R10
    expect(count("metricTimesliceName NOT LIKE '%/%'")).toBe(4) // R1 R2 R4 Http + R3 Apdex
    expect(count("metricTimesliceName LIKE '(.*)'")).toBe(0) // regex characters are literal
  })

  it('matches escaped quotes and backslashes and unicode', () => {
    expect(count("metricTimesliceName = 'Custom/it\\'s\\\\path'")).toBe(1) // R9
    expect(count("metricTimesliceName = 'Custom/日本語/ü'")).toBe(1) // R10
    expect(count("metricTimesliceName LIKE 'Custom/日本語/_'")).toBe(1)
  })

  it('IS NULL / IS NOT NULL, with null-excluding comparisons', () => {
    expect(count('scope IS NULL')).toBe(7)
    expect(count('scope IS NOT NULL')).toBe(1) // R5
    // comparisons with a null scope are unknown: only R5 can match, even negated
    expect(count("scope != 'x'")).toBe(1)
    expect(count("NOT scope = 'x'")).toBe(1)
    expect(count("scope NOT LIKE 'x%'")).toBe(1)
    expect(count("scope = 'x' OR host = 'h2'")).toBe(2) // unknown OR true: R2, R9
    expect(count(`${V} IS NOT NULL`)).toBe(8)
    expect(count(`${V} IS NULL`)).toBe(0)
  })

  it('AND, OR, NOT and parentheses', () => {
    expect(count("appId = 2 AND host = 'h1'")).toBe(4) // R1 R3 R5 R8
    expect(count("host = 'h3' OR host = 'h2' AND appId = 10")).toBe(2) // h3: R4 R10; h2 ∧ 10: none
    expect(count("(host = 'h3' OR host = 'h2') AND appId = 2")).toBe(2) // R2 R9
    expect(count("NOT (host = 'h1' OR host = 'h2')")).toBe(2) // R4 R10
  })
})

describe('runNrql: scan hints', () => {
  it('passes the snapped window and conjunctive equalities to the store', () => {
    const ctx = context()
    runNrql(
      `SELECT count(*) FROM Metric WHERE appId IN (2, '10') AND appId = '2' AND \`entity.guid\` = 'GUID-SHOP' ` +
        `AND metricTimesliceName IN ('HttpDispatcher', 'Apdex') AND host = 'h1' AND scope IS NULL ` +
        `SINCE ${T0 + 59_999} UNTIL ${T0 + 10 * MIN + 59_999}`,
      ctx
    )
    expect(ctx.store.hints).toEqual([
      {
        accountId: 1,
        since: T0, // T0 + 59 999 ms floored to the minute
        until: T0 + 10 * MIN,
        appIds: [2], // {2, 10} ∩ {2}
        entityGuids: ['GUID-SHOP'],
        names: ['HttpDispatcher', 'Apdex'],
        hosts: ['h1'],
        rollupMs: MIN,
        seriesOnce: false,
      },
    ])
  })

  it('lets the store yield one row per series when the query only asks which series exist', () => {
    const ctx = context()
    runNrql(`SELECT uniques(host) FROM Metric ${WINDOW}`, ctx)
    runNrql(`SELECT uniques(host) FROM Metric ${WINDOW} TIMESERIES 1 minute`, ctx)
    runNrql(`SELECT uniques(host), count(*) FROM Metric ${WINDOW}`, ctx)
    expect(ctx.store.hints.map((h) => h.seriesOnce)).toEqual([true, false, false])
  })

  it('gives no attribute hints for OR, NOT, != or NOT IN', () => {
    const ctx = context()
    runNrql(
      `SELECT count(*) FROM Metric WHERE (appId = 2 OR host = 'h1') AND NOT host = 'h2' AND appName != 'x' AND host NOT IN ('z') ${WINDOW}`,
      ctx
    )
    expect(ctx.store.hints).toEqual([
      { accountId: 1, since: T0, until: T0 + 10 * MIN, rollupMs: MIN, seriesOnce: false },
    ])
  })

  it('re-applies WHERE to rows the store returns anyway', () => {
    // the array store ignores hints; only R1 and R3 of h1 in app 2 are Http/Apdex
    expect(
      one(
        'count(*)',
        "WHERE appId = 2 AND metricTimesliceName IN ('HttpDispatcher', 'Apdex') AND host = 'h1'"
      )
    ).toEqual({ count: 2 })
  })
})

describe('runNrql: errors', () => {
  it('throws NrqlError for invalid text', () => {
    expect(() => runNrql('SELECT nonsense', context())).toThrow(NrqlError)
  })
})

describe('runNrql: min/max(timestamp)', () => {
  it('returns the first and last minute the matching rows reported', () => {
    // HttpDispatcher rows in the window: R1 at T0, R2 at T0 + 1 min, R4 at T0 + 5 min
    expect(one(`min(timestamp) AS 'first', max(timestamp) AS 'last'`, HTTP)).toEqual({
      first: T0,
      last: T0 + 5 * MIN,
    })
    expect(one(`max(timestamp)`, "WHERE host = 'nowhere'")).toEqual({ 'max.timestamp': null })
  })

  it('rejects timestamp in other aggregates', () => {
    expect(() => one('sum(timestamp)')).toThrow(NrqlError)
  })
})

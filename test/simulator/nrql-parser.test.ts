import { describe, expect, it } from 'vitest'
import { parseNrql } from '../../simulator/nrql'
import type { NrqlQuery } from '../../simulator/nrql'
import { NrqlError } from '../../simulator/types'

const V = 'newrelic.timeslice.value'
const base: NrqlQuery = {
  select: [{ expr: { type: 'aggregate', fn: 'count', arg: { type: 'star' } }, alias: null }],
  from: 'Metric',
  where: null,
  facet: null,
  since: null,
  until: null,
  timeseries: null,
  limit: null,
}

describe('parseNrql: query shape', () => {
  it('parses the minimal query', () => {
    expect(parseNrql('SELECT count(*) FROM Metric')).toEqual(base)
  })

  it('treats keywords and function names case-insensitively', () => {
    expect(parseNrql('select COUNT(*) from Metric')).toEqual(base)
  })

  it('parses every clause, in any order, into plain JSON data', () => {
    const q = parseNrql(
      `SELECT average(${V}) AS 'avg' FROM Metric LIMIT MAX TIMESERIES 5 minutes ` +
        `UNTIL 1704067800000 FACET appName, host SINCE 1704067200000 WHERE appId = 2`
    )
    expect(q).toEqual({
      ...base,
      select: [
        { expr: { type: 'aggregate', fn: 'average', arg: { type: 'timeslice' } }, alias: 'avg' },
      ],
      where: { type: 'compare', attribute: 'appId', op: '=', value: 2 },
      facet: ['appName', 'host'],
      since: { type: 'epoch', ms: 1704067200000 },
      until: { type: 'epoch', ms: 1704067800000 },
      timeseries: { amount: 5, unit: 'minute' },
      limit: 'MAX',
    })
    expect(JSON.parse(JSON.stringify(q))).toEqual(q)
  })

  it('parses relative SINCE … AGO and UNTIL NOW with singular and plural units', () => {
    const q = parseNrql('SELECT count(*) FROM Metric SINCE 1 day ago UNTIL now TIMESERIES 1 HOUR')
    expect(q.since).toEqual({ type: 'ago', amount: 1, unit: 'day' })
    expect(q.until).toEqual({ type: 'now' })
    expect(q.timeseries).toEqual({ amount: 1, unit: 'hour' })
    expect(parseNrql('SELECT count(*) FROM Metric SINCE 90 seconds AGO').since).toEqual({
      type: 'ago',
      amount: 90,
      unit: 'second',
    })
    expect(parseNrql('SELECT count(*) FROM Metric SINCE 2 hours AGO').since?.type).toBe('ago')
  })

  it('parses LIMIT n and a backtick alias', () => {
    const q = parseNrql('SELECT count(*) AS `calls` FROM Metric FACET host LIMIT 25')
    expect(q.limit).toBe(25)
    expect(q.select[0]?.alias).toBe('calls')
  })
})

describe('parseNrql: select expressions', () => {
  it('parses all simple aggregates over the timeslice attribute', () => {
    for (const fn of ['count', 'sum', 'average', 'min', 'max', 'stddev', 'apdex'] as const) {
      const q = parseNrql(`SELECT ${fn}(${V}) FROM Metric`)
      expect(q.select[0]?.expr).toEqual({ type: 'aggregate', fn, arg: { type: 'timeslice' } })
    }
  })

  it('parses component access and per-row arithmetic', () => {
    const q = parseNrql(`SELECT average(${V}['totalExclusive'] / ${V}['count'] * 1000) FROM Metric`)
    expect(q.select[0]?.expr).toEqual({
      type: 'aggregate',
      fn: 'average',
      arg: {
        type: 'binary',
        op: '*',
        left: {
          type: 'binary',
          op: '/',
          left: { type: 'component', component: 'totalExclusive' },
          right: { type: 'component', component: 'count' },
        },
        right: { type: 'number', value: 1000 },
      },
    })
  })

  it('accepts a backtick-quoted timeslice attribute', () => {
    const q = parseNrql('SELECT sum(`newrelic.timeslice.value`) FROM Metric')
    expect(q.select[0]?.expr).toEqual({ type: 'aggregate', fn: 'sum', arg: { type: 'timeslice' } })
  })

  it('parses arithmetic with precedence, parentheses and negation', () => {
    const q = parseNrql(`SELECT (sum(${V}) - 1) * 2 + -count(*) / 4 FROM Metric`)
    const sum = { type: 'aggregate', fn: 'sum', arg: { type: 'timeslice' } }
    const count = { type: 'aggregate', fn: 'count', arg: { type: 'star' } }
    expect(q.select[0]?.expr).toEqual({
      type: 'binary',
      op: '+',
      left: {
        type: 'binary',
        op: '*',
        left: { type: 'binary', op: '-', left: sum, right: { type: 'number', value: 1 } },
        right: { type: 'number', value: 2 },
      },
      right: {
        type: 'binary',
        op: '/',
        left: { type: 'negate', operand: count },
        right: { type: 'number', value: 4 },
      },
    })
  })

  it('parses uniques with and without a limit', () => {
    const q = parseNrql(
      'SELECT uniques(metricTimesliceName), uniques(`entity.guid`, 50) FROM Metric'
    )
    expect(q.select.map((s) => s.expr)).toEqual([
      { type: 'uniques', attribute: 'metricTimesliceName', limit: null },
      { type: 'uniques', attribute: 'entity.guid', limit: 50 },
    ])
  })

  it('parses rate() and filter(), including nesting', () => {
    const q = parseNrql(
      `SELECT rate(count(${V}), 1 minute), filter(rate(sum(${V}), 1 second), WHERE host = 'h1') FROM Metric`
    )
    expect(q.select.map((s) => s.expr)).toEqual([
      {
        type: 'rate',
        aggregate: { type: 'aggregate', fn: 'count', arg: { type: 'timeslice' } },
        per: { amount: 1, unit: 'minute' },
      },
      {
        type: 'filter',
        aggregate: {
          type: 'rate',
          aggregate: { type: 'aggregate', fn: 'sum', arg: { type: 'timeslice' } },
          per: { amount: 1, unit: 'second' },
        },
        where: { type: 'compare', attribute: 'host', op: '=', value: 'h1' },
      },
    ])
  })
})

describe('parseNrql: conditions', () => {
  const where = (cond: string) => parseNrql(`SELECT count(*) FROM Metric WHERE ${cond}`).where

  it('parses every predicate form', () => {
    expect(where("appName != 'a'")).toEqual({
      type: 'compare',
      attribute: 'appName',
      op: '!=',
      value: 'a',
    })
    expect(where("host IN ('a', 'b')")).toEqual({
      type: 'in',
      attribute: 'host',
      values: ['a', 'b'],
      negated: false,
    })
    expect(where('appId NOT IN (1, -2)')).toEqual({
      type: 'in',
      attribute: 'appId',
      values: [1, -2],
      negated: true,
    })
    expect(where("metricTimesliceName LIKE 'Web%'")).toEqual({
      type: 'like',
      attribute: 'metricTimesliceName',
      pattern: 'Web%',
      negated: false,
    })
    expect(where("instanceName NOT LIKE '%:80_'")).toMatchObject({ type: 'like', negated: true })
    expect(where('scope IS NULL')).toEqual({ type: 'isNull', attribute: 'scope', negated: false })
    expect(where(`${V} IS NOT NULL`)).toEqual({ type: 'isNull', attribute: V, negated: true })
    expect(where("`entity.guid` = 'G'")).toEqual({
      type: 'compare',
      attribute: 'entity.guid',
      op: '=',
      value: 'G',
    })
    expect(where("appId = '12'")).toEqual({
      type: 'compare',
      attribute: 'appId',
      op: '=',
      value: '12',
    })
  })

  it('gives AND precedence over OR, flattens chains, and parses NOT and parentheses', () => {
    const a = { type: 'compare', attribute: 'host', op: '=', value: 'a' }
    const b = { type: 'compare', attribute: 'host', op: '=', value: 'b' }
    const c = { type: 'compare', attribute: 'host', op: '=', value: 'c' }
    expect(where("host = 'a' OR host = 'b' AND host = 'c'")).toEqual({
      type: 'or',
      conditions: [a, { type: 'and', conditions: [b, c] }],
    })
    expect(where("(host = 'a' AND host = 'b') AND host = 'c'")).toEqual({
      type: 'and',
      conditions: [a, b, c],
    })
    expect(where("NOT (host = 'a' OR host = 'b')")).toEqual({
      type: 'not',
      condition: { type: 'or', conditions: [a, b] },
    })
  })

  it('unescapes string literals and keeps unicode', () => {
    expect(where("appName = 'it\\'s \\\\ \\x 日本 😀'")).toMatchObject({
      value: "it's \\ x 日本 😀",
    })
  })
})

describe('parseNrql: errors', () => {
  const bad: [string, string][] = [
    ['empty input', ''],
    ['missing FROM', 'SELECT count(*)'],
    ['other event type', 'SELECT count(*) FROM Transaction'],
    ['several event types', 'SELECT count(*) FROM Metric, Transaction'],
    ['unterminated string', "SELECT count(*) FROM Metric WHERE host = 'h1"],
    ['unterminated backtick', 'SELECT count(*) FROM Metric WHERE `host = 1'],
    ['stray character', 'SELECT count(*) FROM Metric WHERE host = "h1"'],
    ['stray semicolon', 'SELECT count(*) FROM Metric;'],
    ['trailing garbage', 'SELECT count(*) FROM Metric WHERE appId = 1 banana'],
    ['unknown attribute in WHERE', "SELECT count(*) FROM Metric WHERE foo = 'x'"],
    ['unknown FACET attribute', 'SELECT count(*) FROM Metric FACET foo'],
    ['FACET on the timeslice', `SELECT count(*) FROM Metric FACET ${V}`],
    ['number for a string attribute', 'SELECT count(*) FROM Metric WHERE host = 1'],
    ['LIKE on appId', "SELECT count(*) FROM Metric WHERE appId LIKE '1%'"],
    ['LIKE without a string', 'SELECT count(*) FROM Metric WHERE host LIKE 1'],
    ['comparison on the timeslice', `SELECT count(*) FROM Metric WHERE ${V} = 1`],
    ['unsupported operator', 'SELECT count(*) FROM Metric WHERE appId <> 1'],
    ['empty IN list', 'SELECT count(*) FROM Metric WHERE appId IN ()'],
    ['dangling AND', "SELECT count(*) FROM Metric WHERE host = 'a' AND"],
    ['unbalanced parenthesis', "SELECT count(*) FROM Metric WHERE (host = 'a'"],
    ['unknown function', `SELECT percentile(${V}, 95) FROM Metric`],
    ['non-aggregate select', 'SELECT appName FROM Metric'],
    ['constant-only select', 'SELECT 1 FROM Metric'],
    ['sum(*)', 'SELECT sum(*) FROM Metric'],
    ['aggregating another attribute', 'SELECT count(appId) FROM Metric'],
    ['aggregating a constant', 'SELECT sum(2) FROM Metric'],
    ['unknown component', `SELECT sum(${V}['p99']) FROM Metric`],
    ['bare timeslice in arithmetic', `SELECT sum(${V} * 2) FROM Metric`],
    ['apdex over a component', `SELECT apdex(${V}['count']) FROM Metric`],
    ['apdex in arithmetic', `SELECT apdex(${V}) * 100 FROM Metric`],
    ['uniques in arithmetic', 'SELECT uniques(host) + 1 FROM Metric'],
    ['rate of apdex', `SELECT rate(apdex(${V}), 1 minute) FROM Metric`],
    ['rate in rate', 'SELECT rate(rate(count(*), 1 minute), 1 minute) FROM Metric'],
    ['rate without a unit', 'SELECT rate(count(*), 1) FROM Metric'],
    ['filter without WHERE', "SELECT filter(count(*), host = 'a') FROM Metric"],
    ['uniques limit above 10000', 'SELECT uniques(host, 10001) FROM Metric'],
    ['uniques limit 0', 'SELECT uniques(host, 0) FROM Metric'],
    ['uniques of the timeslice', `SELECT uniques(${V}) FROM Metric`],
    ['empty alias', "SELECT count(*) AS '' FROM Metric"],
    ['alias without quotes', 'SELECT count(*) AS calls FROM Metric'],
    ['TIMESERIES without N', 'SELECT count(*) FROM Metric TIMESERIES'],
    ['TIMESERIES AUTO', 'SELECT count(*) FROM Metric TIMESERIES AUTO'],
    ['TIMESERIES unknown unit', 'SELECT count(*) FROM Metric TIMESERIES 1 fortnight'],
    ['TIMESERIES zero', 'SELECT count(*) FROM Metric TIMESERIES 0 minutes'],
    ['fractional SINCE', 'SELECT count(*) FROM Metric SINCE 1704067200000.5'],
    ['SINCE date string', "SELECT count(*) FROM Metric SINCE '2024-01-01'"],
    ['AGO missing', 'SELECT count(*) FROM Metric SINCE 1 hour'],
    ['LIMIT above 5000', 'SELECT count(*) FROM Metric FACET host LIMIT 5001'],
    ['LIMIT 0', 'SELECT count(*) FROM Metric FACET host LIMIT 0'],
    ['duplicate clause', "SELECT count(*) FROM Metric WHERE host = 'a' WHERE host = 'b'"],
    ['COMPARE WITH', 'SELECT count(*) FROM Metric COMPARE WITH 1 day ago'],
    ['FACET function', 'SELECT count(*) FROM Metric FACET buckets(appId, 10)'],
    ['malformed number', 'SELECT count(*) FROM Metric WHERE appId = 12abc'],
    ['empty backtick name', 'SELECT count(*) FROM Metric WHERE `` = 1'],
    ['string ending in a backslash', "SELECT count(*) FROM Metric WHERE host = 'h1\\"],
    ['negated string literal', "SELECT count(*) FROM Metric WHERE appName = -'x'"],
    ['NOT without IN or LIKE', "SELECT count(*) FROM Metric WHERE host NOT = 'x'"],
    ['IS without NULL', "SELECT count(*) FROM Metric WHERE host IS 'x'"],
    ['numeric component index', 'SELECT sum(newrelic.timeslice.value[1]) FROM Metric'],
    ['unknown uniques attribute', 'SELECT uniques(foo) FROM Metric'],
    ['unknown attribute in filter', "SELECT filter(count(*), WHERE foo = 'x') FROM Metric"],
    ['FACET expression', 'SELECT count(*) FROM Metric FACET (appName)'],
    ['SELECT list ending in a comma', 'SELECT count(*), FROM Metric'],
    ['missing SELECT', 'FROM Metric SELECT count(*)'],
  ]
  it.each(bad)('rejects %s', (_name, text) => {
    expect(() => parseNrql(text)).toThrow(NrqlError)
  })

  it('classifies grammar errors as NRQL_SYNTAX_ERROR and unsupported input as INVALID_INPUT', () => {
    const errorOf = (text: string) => {
      try {
        parseNrql(text)
      } catch (e) {
        return (e as NrqlError).errorClass
      }
      return undefined
    }
    expect(errorOf('SELECT count(*) FROM Metric WHERE')).toBe('NRQL_SYNTAX_ERROR')
    expect(errorOf('SELECT count(*) FROM Transaction')).toBe('INVALID_INPUT')
  })
})

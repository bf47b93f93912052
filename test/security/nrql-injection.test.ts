/**
 * No caller value — metric name, host name, filter value, ID; quotes, backslashes, newlines, unicode,
 * `%`, `_` — changes the structure of the NRQL v2bridge sends: the emitted NRQL, parsed by the
 * simulator's NRQL parser, equals the intended structure with the caller's values as literals.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { applicationSearchQuery } from '../../src/resources/applications/plan'
import { browserNrql } from '../../src/resources/applications/browser'
import { planMetricData, planMetricNames } from '../../src/resources/metrics/plan'
import { quote, quoteList } from '../../src/core/nrql'
import {
  compileSearch,
  parseNrql,
  type Condition,
  type NrqlQuery,
  type SimEntity,
} from '../../simulator'
import { membersNrql } from '../../src/entities/topology'
import { harness } from '../helpers/harness'

/** Pieces that break naive quoting or NRQL structure. */
const pieces = fc.constantFrom(
  "'",
  "''",
  '\\',
  "\\'",
  '"',
  '`',
  '\n',
  '\r\n',
  '\t',
  '%',
  '_',
  ' ',
  '(',
  ')',
  ',',
  ';',
  '--',
  '/*',
  '*/',
  ' AND ',
  ' OR ',
  ') OR (',
  ' FACET host',
  ' LIMIT 1',
  ' SINCE 1 day ago',
  'é',
  '名',
  '🚀',
  '\u0000',
  '\u2028',
  '\uFEFF',
  'x'
)
const hostile = fc.oneof(
  fc.string({ unit: pieces, maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 })
)
const wellFormed = fc.oneof(
  fc.string({ unit: pieces, maxLength: 10 }),
  fc.string({ unit: 'grapheme', maxLength: 16 })
)
const runs = { numRuns: 400 }

const compare = (attribute: string, value: string): Condition =>
  ({ type: 'compare', attribute, op: '=', value }) as Condition
const conditionsOf = (q: NrqlQuery) => (q.where?.type === 'and' ? q.where.conditions : [q.where])

describe('quote and quoteList', () => {
  it('turn any value into exactly one NRQL string literal', () => {
    fc.assert(
      fc.property(hostile, (v) => {
        const q = parseNrql(`SELECT count(*) FROM Metric WHERE host = ${quote(v)} LIMIT 5`)
        expect(q.where).toEqual(compare('host', v))
        expect(q.limit).toBe(5)
        expect(q.facet).toBeNull()
      }),
      runs
    )
  })

  it('turn any list into one IN list of the same literals', () => {
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 1, maxLength: 6 }), (list) => {
        const q = parseNrql(
          `SELECT count(*) FROM Metric WHERE metricTimesliceName IN ${quoteList(list)}`
        )
        expect(q.where).toEqual({
          type: 'in',
          attribute: 'metricTimesliceName',
          values: list,
          negated: false,
        })
      }),
      runs
    )
  })
})

describe('NRQL builders of the routes', () => {
  const range = {
    from: 1_700_000_000,
    to: 1_700_001_800,
    start: 1_700_000_000_000 - 20_000,
    end: 1_700_001_800_000 - 20_000,
    sliceMs: 60_000,
    summarize: false,
  }

  it('metric data: names, values, GUID, host and instance stay literals', () => {
    const scope = fc.record(
      { guid: hostile, host: hostile, instanceName: hostile },
      { requiredKeys: ['guid'] }
    )
    const names = fc.uniqueArray(hostile, { minLength: 1, maxLength: 5 })
    const values = fc.option(fc.array(hostile, { maxLength: 3 }), { nil: null })
    fc.assert(
      fc.property(scope, names, values, (s, n, v) => {
        const plan = planMetricData(
          { now: 0, names: n, values: v, range, raw: false },
          { accountId: 1, ...s }
        )
        expect(plan.nrql).toHaveLength(1)
        const q = parseNrql(plan.nrql[0]!)
        expect(conditionsOf(q)).toEqual([
          compare('entity.guid', s.guid),
          ...(s.host !== undefined ? [compare('host', s.host)] : []),
          ...(s.instanceName !== undefined ? [compare('instanceName', s.instanceName)] : []),
          { type: 'isNull', attribute: 'scope', negated: false },
          { type: 'in', attribute: 'metricTimesliceName', values: n, negated: false },
        ])
        expect(q).toMatchObject({
          facet: ['metricTimesliceName'],
          since: { type: 'epoch', ms: range.start },
          until: { type: 'epoch', ms: range.end },
          timeseries: { amount: 1, unit: 'minute' },
          limit: 'MAX',
        })
        for (const item of q.select) expect(item.alias).toMatch(/^[a-zA-Z_]+$/)
      }),
      runs
    )
  })

  it('metric names: the name filter stays one LIKE pattern, `%` and `_` included', () => {
    fc.assert(
      fc.property(
        hostile,
        fc.option(hostile, { nil: undefined }),
        hostile,
        (guid, host, filter) => {
          const scope = { accountId: 1, guid, ...(host !== undefined ? { host } : {}) }
          const q = parseNrql(planMetricNames(scope, filter, 1_700_000_000_000).nrql)
          expect(conditionsOf(q)).toEqual([
            compare('entity.guid', guid),
            ...(host !== undefined ? [compare('host', host)] : []),
            { type: 'isNull', attribute: 'newrelic.timeslice.value', negated: true },
            ...(filter
              ? [
                  {
                    type: 'like',
                    attribute: 'metricTimesliceName',
                    pattern: `%${filter}%`,
                    negated: false,
                  },
                ]
              : []),
          ])
          expect(q.select).toHaveLength(2) // uniques() and uniqueCount()
          expect(q.facet).toBeNull()
        }
      ),
      runs
    )
  })

  it('metric names of a half of a cut list: each bound stays one literal', () => {
    fc.assert(
      fc.property(hostile, hostile, (lo, hi) => {
        const scope = { accountId: 1, guid: 'G' }
        const q = parseNrql(planMetricNames(scope, undefined, 1_700_000_000_000, { lo, hi }).nrql)
        expect(conditionsOf(q).slice(-2)).toEqual([
          { type: 'order', attribute: 'metricTimesliceName', op: '>=', value: lo },
          { type: 'order', attribute: 'metricTimesliceName', op: '<', value: hi },
        ])
      }),
      runs
    )
  })

  it('hosts, instances and browser summaries: the GUID stays one literal', () => {
    fc.assert(
      fc.property(hostile, (guid) => {
        for (const nrql of [
          membersNrql({ guid }, [0, 60_000]),
          browserNrql({ guid }, [0, 60_000]),
        ]) {
          const q = parseNrql(nrql)
          expect(conditionsOf(q)[0]).toEqual(compare('entity.guid', guid))
          expect(q.until).toEqual({ type: 'epoch', ms: 60_000 })
          expect(q.limit).toBe('MAX')
        }
      }),
      runs
    )
  })

  it('entity search: a name or language filter never escapes its clause', () => {
    const app = (accountId: number, name: string, language: string) =>
      ({
        domainId: '7',
        domain: 'APM',
        type: 'APPLICATION',
        accountId,
        name,
        guid: 'G',
        language,
        reporting: true,
        alertSeverity: 'NOT_ALERTING',
        tags: () => [],
        value: () => ({}),
      }) satisfies SimEntity
    const ascii = fc.string({
      unit: fc.constantFrom("'", '\\', '%', '_', ' ', 'a', 'B', ')', ','),
      maxLength: 12,
    })
    fc.assert(
      fc.property(hostile, fc.array(hostile, { maxLength: 3 }), ascii, (name, languages, plain) => {
        const query = applicationSearchQuery({ name, languages }, 1000002)
        const matches = compileSearch(query) // throws on a broken structure
        // The account clause survives whatever the name says.
        expect(matches(app(1000001, name, languages[0] ?? 'java'))).toBe(false)
        const exact = compileSearch(applicationSearchQuery({ name: plain }, 1000002))
        if (plain.trim()) expect(exact(app(1000002, plain, 'java'))).toBe(true)
      }),
      runs
    )
  })
})

describe('the NRQL a route sends', () => {
  const { get, sim, dataset } = harness()
  const app = dataset.applications(1000001)[0]!
  const lastNrql = () => parseNrql(sim.stats().queries.at(-1)!)

  it('carries the caller’s metric names as literals, through app and simulator', async () => {
    const names = fc.uniqueArray(wellFormed, { minLength: 1, maxLength: 4 })
    // The names already asked in this run: the same names again may be answered from v2bridge's
    // caches (fast-check asks a failing case again while it shrinks it).
    const asked = new Set<string>()
    await fc.assert(
      fc.asyncProperty(names, async (list) => {
        const query = new URLSearchParams(list.map((n) => ['names[]', n]))
        query.append('values[]', 'call_count')
        const before = sim.stats().nrqlQueries
        const res = await get(`/v2/applications/${app.id}/metrics/data.json?${query}`)
        const sent = [...new Set(list.flatMap((n) => n.split(/\r?\n/)).filter((n) => n !== ''))]
        if (sent.length === 0) return void expect(res.status).toBe(400) // missing parameter: names
        expect(res.status).toBe(200)
        const again = asked.has(JSON.stringify(sent))
        asked.add(JSON.stringify(sent))
        // The data query, and its known-names twin unless the app's names are cached, each carry
        // the names as one IN list.
        const sentNow = sim.stats().nrqlQueries - before
        expect(again ? [0, 1, 2] : [1, 2]).toContain(sentNow)
        if (sentNow === 0) return
        const queries = sim.stats().queries.slice(-sentNow).map(parseNrql)
        for (const q of queries) {
          expect(conditionsOf(q).at(-1)).toEqual({
            type: 'in',
            attribute: 'metricTimesliceName',
            values: sent,
            negated: false,
          })
        }
        expect(queries.map((q) => q.facet ?? [])).toContainEqual(['metricTimesliceName'])
      }),
      { numRuns: 60 }
    )
  })

  it('carries the caller’s metric-name filter as one LIKE pattern', async () => {
    // One call: the simulator scans 8 days of names for it.
    const filter = "a'%_\\) OR (名\n🚀"
    const res = await get(
      `/v2/applications/${app.id}/metrics.json?${new URLSearchParams({ name: filter })}`
    )
    expect(res.status).toBe(200)
    expect(conditionsOf(lastNrql()).find((c) => c?.type === 'like')).toEqual({
      type: 'like',
      attribute: 'metricTimesliceName',
      pattern: `%${filter}%`,
      negated: false,
    })
  })
})

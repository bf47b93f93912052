/**
 * A full NRQL page is split until complete, never read as the whole answer (src/upstream/nrql-pages.ts).
 * NRDB's caps are shrunk on one simulator (`nrql: { uniquesCap, limitMax }`, simulator/README.md "How it
 * differs from the live NerdGraph") so a small data set reaches them: v2bridge's answers under the
 * shrunk caps equal its answers under the live caps, and the shrunk simulator did cut (the halves'
 * range clauses were sent).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { harness } from '../helpers/harness'
import {
  completePages,
  facetsCut,
  maxPageQueries,
  rangeClauses,
  splitRange,
  titleTooLarge,
  uniquesCut,
  type PagedNrql,
} from '../../src/upstream/nrql-pages'

const now = Date.parse('2026-11-20T12:00:30.000Z')
beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now }))
afterAll(() => void vi.useRealTimers())

const apps = [9045893, 9045866, 9045822] // 4, 4 and 3 hosts; up to 3 instances a host

/** Every read of one application whose NRQL may reach a cap. */
function paths(app: number) {
  const base = `/v2/applications/${app}`
  return [
    `${base}.json`,
    `${base}/hosts.json`,
    `${base}/instances.json`,
    `${base}/metrics.json`,
    `${base}/metrics.json?name=Http`,
  ]
}

async function answers(h: ReturnType<typeof harness>, list: readonly string[]) {
  const out: Record<string, unknown> = {}
  for (const path of list) {
    const res = await h.get(path)
    out[path] = { status: res.status, body: await res.json() }
  }
  return out
}

const halvesSent = (h: ReturnType<typeof harness>) =>
  h.sim.stats().queries.filter((q) => / (>=|<) /.test(q))

describe('full NRQL pages on a simulator with shrunk caps', () => {
  it(
    'answers hosts, instances, host summaries and metric names as under the live caps',
    { timeout: 120_000 },
    async () => {
      const live = harness()
      // Lenient for the test's size: caps shrunk (`nrql.uniquesCap`, `nrql.limitMax`), not loosened.
      const capped = harness({}, { nrql: { uniquesCap: 2, limitMax: 3 } })
      const list = apps.flatMap(paths)
      const expected = await answers(live, list)
      for (const path of list) expect((expected[path] as { status: number }).status).toBe(200)
      expect(await answers(capped, list)).toEqual(expected)
      expect(halvesSent(live)).toEqual([])
      const halves = halvesSent(capped)
      expect(halves.some((q) => /host >= '/.test(q))).toBe(true)
      expect(halves.some((q) => /instanceName < '/.test(q))).toBe(true)
      expect(halves.some((q) => /metricTimesliceName >= '/.test(q))).toBe(true)
      // a host and an instance shown on their own, IDs from the capped lists
      const hosts = (await (await capped.get(`/v2/applications/${apps[0]}/hosts.json`)).json()) as {
        application_hosts: { id: number; links: { application_instances: number[] } }[]
      }
      const host = hosts.application_hosts[0]!
      const one = `/v2/applications/${apps[0]}/hosts/${host.id}.json`
      const instance = `/v2/applications/${apps[0]}/instances/${host.links.application_instances[0]}.json`
      expect(await answers(capped, [one, instance])).toEqual(await answers(live, [one, instance]))
    }
  )

  it(
    'answers a list page, its host links and `filter[host]` as under the live caps',
    { timeout: 180_000 },
    async () => {
      const live = harness()
      // 200 applications with about 4 hosts each: 100 facets a query cuts the account-wide members
      // and browser figures into a few dozen halves, within the bound.
      const capped = harness({}, { nrql: { limitMax: 100 } })
      const list = [
        '/v2/applications.json',
        '/v2/applications.json?filter[host]=web-01.prod.example.com',
      ]
      const expected = await answers(live, list)
      const filtered = expected[list[1]!] as { body: { applications: unknown[] } }
      expect(filtered.body.applications.length).toBeGreaterThan(0)
      expect(await answers(capped, list)).toEqual(expected)
      const halves = halvesSent(capped)
      expect(halves.some((q) => /FACET appId, host /.test(q))).toBe(true)
      expect(halves.some((q) => /appId >= \d+/.test(q))).toBe(true)
    }
  )

  it('answers 502 in v2 shape, never a partial list, when the cut cannot be split', async () => {
    // uniques() of one value a query: no pivot leaves both halves smaller.
    const capped = harness({}, { nrql: { uniquesCap: 1 } })
    const res = await capped.get(`/v2/applications/${apps[0]}/metrics.json`)
    expect(res.status).toBe(502)
    expect(await res.json()).toEqual({ error: { title: titleTooLarge } })
  })
})

describe('src/upstream/nrql-pages (pure parts)', () => {
  const facet = (values: string[], otherResult: unknown = null): PagedNrql => ({
    results: values.map((v) => ({ facet: v, host: v })),
    metadata: { facets: ['host'] },
    otherResult,
  })

  it('tells a cut FACET answer by otherResult carrying events or by 5,000 facets', () => {
    expect(facetsCut(facet(['a', 'b']))).toBe(false)
    expect(facetsCut(facet(['a'], { count: 0, names: [] }))).toBe(false)
    expect(facetsCut(facet(['a'], { count: 3 }))).toBe(true)
    expect(facetsCut(facet(['a'], [{ count: 0 }, { count: 1 }]))).toBe(true) // TIMESERIES
    const many = Array.from({ length: 5000 }, (_, i) => `h${i}`)
    expect(facetsCut(facet(many))).toBe(true)
    expect(facetsCut(facet(many.slice(1)))).toBe(false)
  })

  it('tells a cut uniques() by its asked limit or the uniqueCount() beside it', () => {
    expect(uniquesCut(['a', 'b'], 2, 10_000)).toBe(false)
    expect(uniquesCut(['a', 'b'], 3, 10_000)).toBe(true)
    expect(uniquesCut(['a', 'b'], undefined, 2)).toBe(true)
    expect(uniquesCut(null, 0, 10)).toBe(false)
  })

  it('splits a range around the median value seen, quoted in its clauses', () => {
    expect(splitRange({ lo: 'a' }, ['c', 'b', 'd', 'b'])).toEqual([
      { lo: 'a', hi: 'c' },
      { lo: 'c' },
    ])
    expect(splitRange({}, ['x'])).toBeNull()
    expect(splitRange({}, [30, 4, 100])).toEqual([{ hi: 30 }, { lo: 30 }])
    expect(rangeClauses('host', { lo: "o'k", hi: 'z' })).toEqual(["host >= 'o\\'k'", "host < 'z'"])
    expect(rangeClauses('appId', { lo: 7 })).toEqual(['appId >= 7'])
  })

  it('sends the halves of a round in one request, and stops at the bound with a 502', async () => {
    const rounds: number[] = []
    const parts = await completePages({
      first: facet(['a', 'b', 'c', 'd'], { count: 1 }),
      cut: (f) => f.otherResult !== null,
      seen: (f) => (f.results ?? []).map((r) => r['host'] as string),
      run: async (ranges) => {
        rounds.push(ranges.length)
        return ranges.map((r) => facet([String(r.lo ?? '-'), String(r.hi ?? '+')]))
      },
    })
    expect(rounds).toEqual([2])
    expect(parts.flatMap((p) => p.results!.map((r) => r['host']))).toEqual(['-', 'c', 'c', '+'])

    let sent = 0
    const endless = completePages({
      first: facet(['a', 'b'], { count: 1 }),
      cut: () => true,
      seen: () => ['a', 'b'],
      run: async (ranges) => {
        sent += ranges.length
        return ranges.map(() => facet(['a', 'b'], { count: 1 }))
      },
    })
    await expect(endless).rejects.toMatchObject({ status: 502, message: titleTooLarge })
    expect(sent).toBeLessThanOrEqual(maxPageQueries)
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import { harness } from './helpers/harness'

const minute = 60_000
/** The account-wide queries of a list page (src/entities/topology.ts membersNrql, applications/browser.ts). */
const accountWide = (queries: string[]) =>
  queries.filter((q) => /FACET appId/.test(q) && !/entity\.guid =/.test(q)).length

describe('cache lifetimes that fit a scraping client and v2 list freshness', () => {
  afterEach(() => vi.useRealTimers())

  // issue 37 item 1: v2's list and show carry the same summary, so the account-wide figures a list
  // page reuses are those of the minute it answers in; a later minute carries them in the page's own
  // request (still one request), never answering from older minutes.
  it('repeats a scrape within its minute without an account-wide query; a later minute refetches in the same request', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 23, 12, 0, 5) })
    const { get, sim } = harness({ ACCOUNT_ID: '1000001' })
    const scrape = async () => {
      const before = sim.stats()
      const list = await get('/v2/applications.json')
      expect(list.status).toBe(200)
      const after = sim.stats()
      return {
        requests: after.graphqlRequests - before.graphqlRequests,
        accountWide: accountWide(after.queries) - accountWide(before.queries),
      }
    }

    const first = await scrape()
    expect(first.accountWide).toBeGreaterThan(0)
    vi.setSystemTime(Date.now() + 50_000) // 12:00:55, the same minute
    expect(await scrape()).toEqual({ requests: 1, accountWide: 0 })
    vi.setSystemTime(Date.now() + 10_000) // 12:01:05
    expect(await scrape()).toEqual({ requests: 1, accountWide: first.accountWide })
    await new Promise((r) => setTimeout(r, 20))
    expect(sim.stats().graphqlRequests).toBe(3) // no background refresh
  })

  it('answers a list item as fresh as the show of the same item, minutes after a first list', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 23, 15, 30, 10) })
    const { get } = harness({ ACCOUNT_ID: '1000001' })
    const path = '/v2/applications.json?filter[ids]=9045822'
    expect((await get(path)).status).toBe(200)
    vi.setSystemTime(Date.now() + 3 * minute)
    const listed = ((await (await get(path)).json()) as { applications: object[] }).applications
    const shown = (
      (await (await get('/v2/applications/9045822.json')).json()) as {
        application: Record<string, unknown>
      }
    ).application
    // the last minute of data, 15:32, at the agent's harvest second (simulator/data/apm/harvest.ts)
    expect(shown['last_reported_at']).toMatch(/^2026-11-23T15:32:\d\d\+00:00$/)
    expect(listed).toEqual([shown])
  })
})

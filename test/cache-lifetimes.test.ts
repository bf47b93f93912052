import { afterEach, describe, expect, it, vi } from 'vitest'
import { harness } from './helpers/harness'

const minute = 60_000
/** The account-wide queries of a list page (src/entities/topology.ts membersNrql, applications/browser.ts). */
const accountWide = (queries: string[]) =>
  queries.filter((q) => /FACET appId/.test(q) && !/entity\.guid =/.test(q)).length

describe('cache lifetimes that fit a scraping client', () => {
  afterEach(() => vi.useRealTimers())

  it('repeats a scrape within 5 minutes without an account-wide query, then refreshes in the background', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 23, 12) })
    const { get, sim } = harness({ ACCOUNT_ID: '1000001' })
    const scrape = async () => {
      const before = sim.stats()
      const list = await get('/v2/applications.json')
      expect(list.status).toBe(200)
      const names = await get('/v2/applications/9045822/metrics.json?name=HttpDispatcher')
      expect(names.status).toBe(200)
      const after = sim.stats()
      return {
        requests: after.graphqlRequests - before.graphqlRequests,
        accountWide: accountWide(after.queries) - accountWide(before.queries),
        // Hosts and instances come from the account-wide queries (the summaries from entity search).
        links: ((await list.json()) as { applications: { links: unknown }[] }).applications.map(
          (a) => a.links
        ),
      }
    }

    const first = await scrape()
    expect(first.accountWide).toBeGreaterThan(0)
    vi.setSystemTime(Date.now() + 4 * minute + 59_000)
    const again = await scrape()
    expect(again).toMatchObject({ requests: 1, accountWide: 0 }) // only the list page itself
    expect(again.links).toEqual(first.links)

    // Past 5 minutes: the stale insights still answer at once; one background request refreshes them.
    vi.setSystemTime(Date.now() + 2 * minute)
    const stale = await scrape()
    expect(stale.links).toEqual(first.links)
    await vi.waitFor(() => expect(accountWide(sim.stats().queries)).toBe(2 * first.accountWide))
    const refreshed = sim.stats()
    vi.setSystemTime(Date.now() + 30_000)
    const later = await scrape()
    expect(later).toMatchObject({ requests: 1, accountWide: 0 })
    expect(sim.stats().graphqlRequests).toBe(refreshed.graphqlRequests + 1)
  })
})

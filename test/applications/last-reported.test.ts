/** Issue 37 item 7: `last_reported_at` to the second, from the newest Transaction event. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { lastEventNrql, lastEventsFrom, lastReportedAt } from '../../src/entities/last-report'
import { createSharedReads } from '../../src/upstream/reuse'
import { harvestOffsetMs } from '../../simulator'
import { harness } from '../helpers/harness'

const minute = 60_000
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + '+00:00'
afterEach(() => void vi.useRealTimers())

describe('lastReportedAt', () => {
  const m = Date.UTC(2026, 0, 1, 9, 9)
  it('takes the newest event, to the second, when it is in or after the newest timeslice minute', () => {
    expect(lastReportedAt(m, m + 10_450)).toBe(m + 10_000)
    expect(lastReportedAt(m, m + 75_999)).toBe(m + 75_000)
    expect(lastReportedAt(undefined, m + 10_450)).toBe(m + 10_000)
  })
  it("falls back to the minute's start without an event in that minute", () => {
    expect(lastReportedAt(m, undefined)).toBe(m)
    expect(lastReportedAt(m, m - 5_000)).toBe(m)
    expect(lastReportedAt(undefined, undefined)).toBeUndefined()
  })
})

describe('lastEventNrql', () => {
  it('asks the newest Transaction event per application over the 10 minutes before until', () => {
    const until = Date.UTC(2026, 0, 1, 9, 10)
    expect(lastEventNrql([9045822, 7], until)).toBe(
      `SELECT max(timestamp) AS 'lastEvent' FROM Transaction WHERE appId IN ('9045822', '7') ` +
        `FACET appId SINCE ${until - 10 * minute} UNTIL ${until} LIMIT MAX`
    )
    expect(lastEventNrql('account', until, ['appId >= 5'])).toBe(
      `SELECT max(timestamp) AS 'lastEvent' FROM Transaction WHERE appId >= 5 ` +
        `FACET appId SINCE ${until - 10 * minute} UNTIL ${until} LIMIT MAX`
    )
  })

  it('reads rows by the position of appId in metadata.facets', () => {
    const field = {
      results: [
        { facet: 7, lastEvent: 1_000 },
        { facet: 8, lastEvent: null },
      ],
      metadata: { facets: ['appId'] },
    }
    expect([...lastEventsFrom(field)]).toEqual([[7, 1_000]])
  })

  it('is never shared across callers: only Metric queries are (src/upstream/reuse.ts)', () => {
    const shared = createSharedReads()
    const until = Date.UTC(2026, 0, 1, 9, 10)
    shared.set('id', { data: {} }, { accountId: 1, q0: lastEventNrql('account', until) }, until)
    expect(shared.has('id', until)).toBe(false)
  })
})

describe('GET /v2/applications last_reported_at (simulator)', () => {
  it('is the newest event, equal in the list and the show, JSON and XML, in one request each', async () => {
    const now = Date.UTC(2026, 10, 20, 12, 0, 30)
    vi.useFakeTimers({ toFake: ['Date'], now })
    const h = harness({ ACCOUNT_ID: '1000001' }, { now: () => now })
    const app = h.dataset.application(9045866)!
    const expected = iso(app.lastReportedAt + harvestOffsetMs(app))
    expect(expected).toMatch(/^2026-11-20T11:59:(?!00)\d\d\+00:00$/)
    const before = h.sim.stats().graphqlRequests
    const list = await h.get('/v2/applications.json?filter[ids]=9045866')
    const listed = (await list.json()) as { applications: Record<string, unknown>[] }
    expect(h.sim.stats().graphqlRequests - before).toBe(1)
    expect(listed.applications[0]!['last_reported_at']).toBe(expected)
    const shown = await h.get('/v2/applications/9045866.json')
    expect(
      ((await shown.json()) as { application: Record<string, unknown> }).application
    ).toMatchObject({ last_reported_at: expected })
    for (const path of ['/v2/applications.xml?filter[ids]=9045866', '/v2/applications/9045866.xml'])
      expect(await (await h.get(path)).text()).toContain(
        `<last_reported_at>${expected}</last_reported_at>`
      )
  })

  it('is the start of the last timeslice minute when that minute had no transaction', async () => {
    // an application with idle minutes (simulator/data/apm/timeslices.ts): a minute with none after
    // one with calls, in the hour before the dataset's clock
    const h0 = harness()
    const calls = (appId: number, m: number) =>
      ['HttpDispatcher', 'OtherTransaction/all'].some((name) =>
        h0.dataset
          .timeslices({ appId, name, from: m, to: m + minute })
          .some((r) => r.value.count > 0)
      )
    const end = Math.floor(h0.dataset.now() / minute) * minute
    const found = h0.dataset
      .applications(1000001)
      .filter((a) => a.reporting)
      .flatMap((a) =>
        Array.from({ length: 30 }, (_, i) => end - (i + 2) * minute)
          .filter((m) => !calls(a.id, m) && calls(a.id, m - minute))
          .map((m) => ({ app: a, last: m }))
      )[0]
    expect(found).toBeDefined()
    const { app, last } = found!
    const now = last + minute + 20_000
    vi.useFakeTimers({ toFake: ['Date'], now })
    const h = harness({ ACCOUNT_ID: '1000001' }, { now: () => now })
    const shown = await h.get(`/v2/applications/${app.id}.json`)
    const record = ((await shown.json()) as { application: Record<string, unknown> }).application
    expect(record['last_reported_at']).toBe(iso(last))
  })
})

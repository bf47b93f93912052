/**
 * `GET /v2/alerts_events` pages (issue 24 sweep): 200 events a page (contract "v2 REST API" §1.6:
 * alerts lists 200 a page, the proposal taken), newest first, the filters applied before paging,
 * page by page the answer of the simulator's v2 stand-in, which lists every event of the account
 * from its raw alerts state (simulator/v2/alerts.ts). Link: `next`, `first`, `prev`, no `last`
 * (docs/differences.md: NerdGraph's aiIssues give no count).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { addIssues, alertsHarness, DEMO_KEYS } from './helpers'

const now = Date.parse('2026-11-20T12:00:30.000Z')
beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now }))
afterAll(() => void vi.useRealTimers())

type H = ReturnType<typeof alertsHarness>
type Event = Record<string, unknown> & { id: number; timestamp: number }

const rels = (link: string | null) => [...(link ?? '').matchAll(/rel="(\w+)"/g)].map((m) => m[1])

/** Both sides' pages of one list, following each side's `rel="next"`. */
async function pages(h: H, path: string) {
  const standIn = async (url: string) =>
    h.sim.fetch(new Request(`http://sim.test${url}`, { headers: { 'X-Api-Key': DEMO_KEYS.all } }))
  const out: { bridge: Event[]; standIn: Event[]; link: string | null; requests: number }[] = []
  for (let page = 1; page <= 10; page += 1) {
    const url = `${path}${path.includes('?') ? '&' : '?'}page=${page}`
    const before = h.sent.length
    const res = await h.call(url)
    expect(res.status).toBe(200)
    const requests = h.sent.length - before
    const bridge = ((await res.json()) as { recent_events: Event[] }).recent_events
    const v2 = ((await (await standIn(url)).json()) as { recent_events: Event[] }).recent_events
    out.push({ bridge, standIn: v2, link: res.headers.get('link'), requests })
    if (!rels(res.headers.get('link')).includes('next')) break
  }
  return out
}

describe('GET /v2/alerts_events pages', () => {
  it('holds 200 events a page, newest first, each page the v2 stand-in’s', async () => {
    const h = alertsHarness()
    addIssues(h.alerts, 300) // 300 closed issues of one violation: 900 more events
    await h.call('/v2/alerts_events.json?filter[event_type]=NONE') // learns the key's own account
    const read = await pages(h, '/v2/alerts_events.json')
    expect(read.length).toBeGreaterThan(4)
    for (const [i, page] of read.entries()) {
      expect(page.bridge, `page ${i + 1}`).toEqual(page.standIn)
      const last = i === read.length - 1
      if (!last) expect(page.bridge).toHaveLength(200)
      expect(rels(page.link)).toEqual(
        last ? ['first', 'prev'] : i === 0 ? ['next'] : ['next', 'first', 'prev']
      )
      // the incident pages a page spans, the open ones, their issues, one NRQL query
      expect(page.requests, `page ${i + 1}`).toBeLessThanOrEqual(25)
    }
    const all = read.flatMap((p) => p.bridge)
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length)
    const order = all.map((e) => [e.timestamp, e.id])
    expect(order).toEqual([...order].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]!))
  })

  it('filters before paging: a filtered page holds 200 events of the filter', async () => {
    const h = alertsHarness()
    addIssues(h.alerts, 300)
    for (const filter of ['filter[event_type]=VIOLATION_CLOSE', 'filter[entity_id]=9045822']) {
      const read = await pages(h, `/v2/alerts_events.json?${filter}`)
      expect(read.length, filter).toBeGreaterThan(1)
      expect(read[0]!.bridge, filter).toHaveLength(200)
      for (const page of read) expect(page.bridge, filter).toEqual(page.standIn)
    }
  })

  it('reads at most 20 incident pages for a page: a filter few events match links on, losing none', async () => {
    const h = alertsHarness()
    addIssues(h.alerts, 700) // 700 incidents of 9045822, newer than every event of 9045893
    await h.call('/v2/alerts_events.json?filter[event_type]=NONE') // learns the key's own account
    const path = '/v2/alerts_events.json?filter[entity_id]=9045893'
    const read = await pages(h, path)
    expect(read.length).toBeGreaterThan(1)
    for (const page of read) {
      expect(page.bridge.length).toBeLessThanOrEqual(200)
      // 20 incident pages, the open ones, the issues of the incidents the page shows, one NRQL
      expect(page.requests).toBeLessThanOrEqual(20 + 4)
    }
    const all = read.flatMap((p) => p.bridge)
    const v2 = read[0]!.standIn // one page on the stand-in: fewer than 200
    expect(v2.length).toBeGreaterThan(0)
    expect(all).toEqual(v2)
  })

  it('lists the key’s own account unpinned, as every single-account alerts read', async () => {
    // A v2 REST key belonged to one account (New Relic docs "Migrate from REST API v2 to
    // NerdGraph", "Before you begin"): the demo key was created in 1000001 and also sees 1000002.
    const h = alertsHarness()
    const res = await h.call('/v2/alerts_events.json')
    const accounts = new Set(
      h.sent
        .filter((s) => /query AlertIncidents/.test(s.query))
        .map((s) => s.variables['accountId'])
    )
    expect(res.status).toBe(200)
    expect([...accounts]).toEqual([1000001])
  })
})

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { setSimFaults } from '../helpers/sim-faults'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { createSimulator, DEMO_KEYS } from '../../simulator'
import type { FaultConfig } from '../../simulator'
import type { LimitSettings } from '../../src/upstream/limits'

const path = '/v2/applications.json?filter[name]=checkout'
/** One simulator for the file (building its dataset takes a second); faults cleared before each test. */
const sim = createSimulator()
beforeEach(() => sim.reset())

function setup(
  settings: Record<string, string> = {},
  limits: Partial<LimitSettings> = {},
  simulator = sim
) {
  let upstream429 = 0
  let inFlight = 0
  let peak = 0
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    peak = Math.max(peak, ++inFlight)
    try {
      const res = await simulator.fetch(new Request(input, init))
      if (res.status === 429) upstream429++
      return res
    } finally {
      inFlight--
    }
  }) as typeof globalThis.fetch
  const app = createApp({
    config: parseConfig({
      NERDGRAPH_URL: 'http://simulator.test/graphql',
      ALLOW_HTTP: 'true',
      ...settings,
    }),
    fetch,
    log: () => {},
    limits,
  })
  const get = (p = path) => app.request(p, { headers: { 'X-Api-Key': DEMO_KEYS.all } })
  const faults = (config: FaultConfig) => setSimFaults(simulator, config)
  return { app, get, faults, upstream429: () => upstream429, peak: () => peak }
}

function expect429Headers(res: Response) {
  const h = res.headers
  expect(h.get('x-ratelimit-limit')).toBe('1000')
  // Truthful: what is left of the key's 1000 calls this minute (far from 0 here), until the minute's end.
  expect(Number(h.get('x-ratelimit-remaining'))).toBeGreaterThan(500)
  expect(Number(h.get('x-ratelimit-remaining'))).toBeLessThan(1000)
  expect(h.get('x-ratelimit-reset')).toMatch(/^\d{10}$/)
  expect(Number(h.get('x-ratelimit-reset')) % 60).toBe(0)
  expect(h.get('newrelic-overloadprotection-reset')).toBe(h.get('x-ratelimit-reset'))
  expect(h.get('x-ratelimit-docs')).toMatch(/^https:\/\/docs\.newrelic\.com\//)
  expect(h.get('newrelic-overloadprotection-docs')).toBe(h.get('x-ratelimit-docs'))
  expect(Number(h.get('retry-after'))).toBeGreaterThanOrEqual(1)
  const reset = Number(h.get('x-ratelimit-reset'))
  expect(Math.abs(reset - Date.now() / 1000)).toBeLessThan(3600)
}

describe('upstream faults injected through /_sim/faults', () => {
  const cases: [string, FaultConfig, number][] = [
    ['an NRDB timeout class', { errorClass: 'TIMEOUT' }, 504],
    ['an internal server error class', { errorClass: 'INTERNAL_SERVER_ERROR' }, 502],
    ['HTTP 500', { status: 500 }, 502],
    ['HTTP 503 with an HTML page', { status: 503 }, 502],
    ['an HTML body on 200', { body: 'html' }, 502],
    ['a truncated JSON body', { body: 'truncated' }, 502],
    ['HTTP 429', { status: 429 }, 429],
    ['TOO_MANY_REQUESTS on 200', { errorClass: 'TOO_MANY_REQUESTS' }, 429],
  ]
  for (const [name, fault, status] of cases) {
    it(`answers ${status} in v2 shape for ${name}, and 200 once it clears`, async () => {
      const { get, faults, app } = setup()
      await faults(fault)
      const res = await get()
      expect(res.status).toBe(status)
      const xml = await app.request(path.replace('.json', '.xml'), {
        headers: { 'X-Api-Key': DEMO_KEYS.all },
      })
      expect(xml.status).toBe(status)
      if (status === 429) {
        // v2's documented 429 body is `{}` as JSON (D-429), on .xml paths too.
        expect429Headers(res)
        for (const r of [res, xml]) {
          expect(await r.text()).toBe('{}')
          expect(r.headers.get('content-type')).toBe('application/json')
        }
      } else {
        const body = (await res.json()) as { error: { title: string } }
        expect(Object.keys(body)).toEqual(['error'])
        expect(Object.keys(body.error)).toEqual(['title'])
        expect(body.error.title).not.toMatch(/html|Internal Server Error|NRDB query duration/i)
        expect(res.headers.get('retry-after')).toBeNull()
        expect(await xml.text()).toMatch(/<error_response>\n {2}<error>\n {4}<title>[^<]+<\/title>/)
      }
      await faults({})
      expect((await get()).status).toBe(200)
    })
  }

  it('answers 504 when NerdGraph is slower than UPSTREAM_TIMEOUT_MS, within the budget', async () => {
    const { get, faults } = setup({ UPSTREAM_TIMEOUT_MS: '300' })
    await faults({ latencyMs: 3000 })
    const started = Date.now()
    const res = await get()
    expect(res.status).toBe(504)
    expect(await res.json()).toEqual({ error: { title: 'NerdGraph did not answer in time' } })
    expect(Date.now() - started).toBeLessThan(2500)
  })

  it('retries a read past a one-off fault and answers 200', async () => {
    const { get, faults } = setup()
    await faults({ status: 503, count: 1 })
    const before = sim.stats().graphqlRequests
    const res = await get()
    expect(res.status).toBe(200)
    expect(sim.stats().graphqlRequests - before).toBeGreaterThanOrEqual(2)
  })
})

describe('a caller flooding v2bridge', () => {
  it('gets 429 in v2 shape past the queue, NerdGraph never sees more than 25, and the app recovers', async () => {
    // A short queue keeps the simulator's work small; the default bounds are tested in nerdgraph-client.
    // Its own simulator: a slow request left over from another test would hold one of the 25 slots.
    const { app, faults, get, upstream429, peak } = setup({}, { maxQueued: 10 }, createSimulator())
    await get() // warms the per-key account list, so the flood is one search per request
    await faults({ latencyMs: 50 })
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        app.request(`/v2/applications.json?filter[name]=flood${i}`, {
          headers: { 'X-Api-Key': DEMO_KEYS.all },
        })
      )
    )
    const statuses = results.map((r) => r.status)
    expect(new Set(statuses)).toEqual(new Set([200, 429]))
    for (const res of results.filter((r) => r.status === 429)) {
      expect429Headers(res)
      expect(await res.text()).toBe('{}')
    }
    expect(upstream429()).toBe(0)
    expect(peak()).toBeLessThanOrEqual(25)
    await faults({})
    expect((await get()).status).toBe(200)
  })
})

describe('an exporter scrape (many requests of one key at once)', () => {
  // One fixed now: this test is about the queue. A minute turning between the warm-up and the scrape
  // makes every one of the 200 requests carry the account-wide insight queries in its own request
  // (src/resources/applications/list.ts), 20 of them 11.6 s against 0.8 s in process, and the test
  // ran past its 30 s once in CI (left open: the scrape at a minute's turn, in the session's note).
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: Math.floor(Date.now() / 60_000) * 60_000 + 30_000 })
  })
  afterAll(() => {
    vi.useRealTimers()
  })
  it('queues instead of refusing: 200 concurrent requests all answer 200, NerdGraph never sees more than 25', async () => {
    const { app, faults, get, upstream429, peak } = setup({}, {}, createSimulator())
    await get()
    await faults({ latencyMs: 20 })
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        app.request(`/v2/applications.json?filter[name]=scrape${i}`, {
          headers: { 'X-Api-Key': DEMO_KEYS.all },
        })
      )
    )
    expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([])
    expect(upstream429()).toBe(0)
    expect(peak()).toBeLessThanOrEqual(25)
  })
})

describe('the live NerdGraph limits, answered in v2 terms', () => {
  const data =
    '/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&values[]=call_count'

  it("answers NerdGraph's NRQL rate-limit 429 as v2's 429 with Retry-After, never retried into more 429s", async () => {
    // Shrunk: one NRQL query per account a minute (live: 3,000; docs "Rate limits with NRQL").
    const { get, upstream429 } = setup(
      {},
      {},
      createSimulator({ limits: { perAccountPerMinute: 1 } })
    )
    const res = await get(data)
    expect(res.status).toBe(429)
    expect429Headers(res)
    // NerdGraph's 429 says neither which limit nor when: a minute, when every counted query has left.
    expect(res.headers.get('retry-after')).toBe('60')
    expect(await res.text()).toBe('{}')
    expect(upstream429()).toBe(1)
  })

  it('waits out a Retry-After NerdGraph gives when it fits the budget, then answers 200', async () => {
    const { get, faults, upstream429 } = setup()
    await faults({ status: 429, count: 1 })
    const res = await get(data)
    // the simulator's 429 carries no Retry-After: answered at once, not retried
    expect(res.status).toBe(429)
    expect(upstream429()).toBe(1)
    expect((await get(data)).status).toBe(200)
  })

  it("answers an NRQL query past its timeout (NerdGraph's TIMEOUT) as 504 in v2 shape", async () => {
    // Shrunk: 1 s a row, waited 100,000 times faster, so every query models minutes.
    const cost = { baseMs: 0, msPerThousandRows: 1_000_000, clockScale: 0.00001 }
    const { get } = setup({}, {}, createSimulator({ limits: { cost } }))
    const res = await get(data)
    expect(res.status).toBe(504)
    expect(await res.json()).toEqual({ error: { title: 'NerdGraph query timed out' } })
    expect(res.headers.get('retry-after')).toBeNull()
  })
})

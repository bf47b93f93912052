/**
 * `UPSTREAM_TIMEOUT_MS` is the budget of a whole v2 request (issue 12, item 12): every NerdGraph
 * call, retry and wait in it, and a hung attempt leaves time for a retry.
 */
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { createSimulator, DEMO_KEYS } from '../../simulator'
import { attemptMs, retryPolicies } from '../../src/upstream/retry'

/** `hang`: the number of the upstream call that never answers (0: none). */
function bridge(timeoutMs: number, hang: number, latencyMs = 0) {
  const sim = createSimulator()
  let calls = 0
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls += 1
    if (calls === hang) return new Promise<Response>(() => {})
    if (latencyMs) await new Promise((r) => setTimeout(r, latencyMs))
    return sim.fetch(new Request(input, init))
  }) as typeof globalThis.fetch
  const app = createApp({
    config: parseConfig({
      NERDGRAPH_URL: 'http://simulator.test/graphql',
      ALLOW_HTTP: 'true',
      ACCOUNT_ID: '1000001',
      UPSTREAM_TIMEOUT_MS: String(timeoutMs),
    }),
    fetch,
    log: () => {},
  })
  const get = async (path: string) => {
    const started = performance.now()
    const res = await app.request(path, { headers: { 'X-Api-Key': DEMO_KEYS.all } })
    return { res, ms: performance.now() - started, calls: () => calls }
  }
  return { get }
}

describe('one time budget per v2 request', () => {
  it('answers 504 when the NerdGraph calls of one request together outlast the budget', async () => {
    // Page 3 cold: the cursors of pages 2 and 3, then the page: three calls of 150 ms against 400 ms,
    // each well within what one call may take (half the budget, src/upstream/retry.ts attemptMs).
    const { get } = bridge(400, 0, 150)
    const { res, ms } = await get('/v2/applications.json?page=3')
    expect(res.status).toBe(504)
    expect(await res.json()).toEqual({ error: { title: 'NerdGraph did not answer in time' } })
    expect(ms).toBeLessThan(650)
  })

  it('answers the same page when its calls fit the budget', async () => {
    const { get } = bridge(1000, 0, 150)
    const { res } = await get('/v2/applications.json?page=3')
    expect(res.status).toBe(200)
  })

  it('retries a hung read within the same budget instead of spending it all on one attempt', async () => {
    const { get } = bridge(900, 2)
    expect((await get('/v2/applications.json?filter[name]=Cart')).res.status).toBe(200) // warm
    const { res, ms, calls } = await get('/v2/applications.json?filter[name]=Storefront')
    expect(res.status).toBe(200)
    expect(calls()).toBe(3)
    expect(ms).toBeLessThan(900)
  })

  it('gives a read attempt at most what leaves a retry its room, and the last attempt all that is left', () => {
    const budget = { deadline: 3000, minAttemptMs: 750 }
    expect(attemptMs(1, retryPolicies.read, budget, 0)).toBe(1500) // keeps max(2 × 750, 3000 / 3)
    expect(attemptMs(1, retryPolicies.read, { deadline: 30_000, minAttemptMs: 1000 }, 0)).toBe(
      20_000
    )
    expect(attemptMs(3, retryPolicies.read, budget, 0)).toBe(3000)
    expect(attemptMs(1, retryPolicies.write, budget, 0)).toBe(3000) // a write is never retried on timeout
    expect(attemptMs(2, retryPolicies.read, budget, 2500)).toBe(500) // never less than what is left
  })
})

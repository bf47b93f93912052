/**
 * The account a user key was created in (src/entities/accounts.ts `ownAccount`): found among the
 * thousands of obfuscated keys an admin's key search lists (New Relic docs "NerdGraph tutorial:
 * Manage API keys", "Query keys") with a search narrowed to the caller's user, and never cached
 * when the lookup fails (issue 35: one NerdGraph 5xx used to be cached an hour as "no own account").
 */
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import type { RetryClock } from '../../src/upstream/retry'
import { setSimFaults } from '../helpers/sim-faults'
import {
  createSimulator,
  DEMO_KEY_ACCOUNTS,
  DEMO_KEYS,
  OTHERS_KEYS,
  type FaultConfig,
} from '../../simulator'

const home = DEMO_KEY_ACCOUNTS[DEMO_KEYS.all] // 1000001; the key also sees 1000002
/** Retries without waiting: a failed lookup costs its three attempts at once. */
const instant: RetryClock = { now: () => Date.now(), random: () => 0, sleep: async () => {} }

function setup(respond?: (req: Request, body: string) => Response | undefined) {
  const sim = createSimulator() // the live default: an admin's search lists OTHERS_KEYS more keys
  const sent: { operation: string; variables: Record<string, unknown> }[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    const body = await req.clone().text()
    const { query, variables } = JSON.parse(body) as { query: string; variables?: object }
    sent.push({
      operation: /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? '',
      variables: { ...variables },
    })
    return respond?.(req, body) ?? sim.fetch(req)
  }) as typeof globalThis.fetch
  const app = createApp({
    config: parseConfig({ NERDGRAPH_URL: 'http://simulator.test/graphql', ALLOW_HTTP: 'true' }),
    fetch,
    clock: instant,
    log: () => {},
  })
  const createBrowser = (name: string) =>
    app.request('/v2/browser_applications.json', {
      method: 'POST',
      headers: { 'X-Api-Key': DEMO_KEYS.all, 'Content-Type': 'application/json' },
      body: JSON.stringify({ browser_application: { name } }),
    })
  const faults = (config: FaultConfig) => setSimFaults(sim, config)
  return { sim, app, sent, createBrowser, faults }
}

describe('the account a user key was created in', () => {
  it('finds an admin’s key among thousands of other users’ keys in a few requests', async () => {
    const { sim, sent, createBrowser } = setup()
    expect(OTHERS_KEYS).toBeGreaterThanOrEqual(1000)
    const res = await createBrowser('own account')
    expect(res.status).toBe(201)
    expect(sim.dataset.resources.state.createdBrowser.map((b) => b.accountId)).toEqual([home])
    const lookups = sent.filter((s) => s.operation === 'KeyCheck' || s.operation === 'KeyAccount')
    // The user, then that user's own 3 keys (2 a page): not the 2,500 pages of the whole search.
    expect(lookups.map((s) => s.operation)).toEqual(['KeyCheck', 'KeyAccount', 'KeyAccount'])
    expect(lookups[1]!.variables).toEqual({ userId: 4100001, cursor: null })
  })

  it('answers 5xx while a NerdGraph 5xx fails the lookup, and looks again once it is over', async () => {
    // The repro of issue 35: a fresh demo, {"status":500,"count":3} to /_sim/faults, a browser
    // application create with the two-account key: 422, still after the fault was cleared.
    const { sim, createBrowser, faults } = setup()
    await faults({ status: 500, count: 3 })
    const failed = await createBrowser('during the fault')
    expect(failed.status).toBe(502)
    expect(await failed.json()).toEqual({ error: { title: 'NerdGraph failed to answer' } })
    await faults({})
    const res = await createBrowser('after the fault')
    expect(res.status).toBe(201)
    expect(sim.dataset.resources.state.createdBrowser.map((b) => [b.name, b.accountId])).toEqual([
      ['after the fault', home],
    ])
  })

  it('caches neither a 429, a timeout nor a transient field error of the key search', async () => {
    for (const fault of [
      { errorClass: 'TOO_MANY_REQUESTS' },
      { errorClass: 'TIMEOUT' },
      { status: 503 },
    ] as const) {
      const { createBrowser, faults } = setup()
      await faults({ ...fault, count: 3 })
      expect((await createBrowser('during')).status, JSON.stringify(fault)).toBeGreaterThanOrEqual(
        429
      )
      await faults({})
      expect((await createBrowser('after')).status, JSON.stringify(fault)).toBe(201)
    }
    let failing = 1 // a tolerated field error is not retried within the call
    const { createBrowser } = setup((_req, body) => {
      if (!body.includes('query KeyAccount') || failing-- <= 0) return undefined
      return Response.json({
        data: { actor: { apiAccess: { keySearch: null } } },
        errors: [
          {
            message: 'Internal Server Error',
            path: ['actor', 'apiAccess', 'keySearch'],
            extensions: { errorClass: 'INTERNAL_SERVER_ERROR' },
          },
        ],
      })
    })
    expect((await createBrowser('during')).status).toBe(502)
    expect((await createBrowser('after')).status).toBe(201)
  })

  it('caches a search NerdGraph refuses as "does not say", in either no-access shape', async () => {
    for (const refused of [
      { message: 'Access denied.' },
      { message: 'No', extensions: { errorClass: 'FORBIDDEN' } },
    ]) {
      const { sent, createBrowser } = setup((_req, body) =>
        body.includes('query KeyAccount')
          ? Response.json({
              data: { actor: { apiAccess: { keySearch: null } } },
              errors: [{ ...refused, path: ['actor', 'apiAccess', 'keySearch'] }],
            })
          : undefined
      )
      // The key sees two accounts and NerdGraph does not tell its own: v2bridge asks to choose.
      for (let i = 0; i < 2; i++) expect((await createBrowser('x')).status).toBe(422)
      expect(sent.filter((s) => s.operation === 'KeyAccount')).toHaveLength(1)
    }
  })
})

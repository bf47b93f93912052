/**
 * One account rule (issue 23): every route that needs one account takes X-Account-Id, else the
 * key's KEY_MAP account, else ACCOUNT_ID, else the account the user key was created in (NerdGraph's
 * key search), else 422 naming the three settings. A key that sees two accounts, unpinned, acts for
 * its own account on every such route, as the v2 REST key it replaces did; lists read the same
 * account, and every account the key sees only when NerdGraph cannot tell.
 */
import { describe, expect, it } from 'vitest'
import { alertsOf, createSimulator, DEMO_KEY_ACCOUNTS, DEMO_KEYS } from '../../simulator'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { keyFingerprint } from '../../src/core/identity'
import { accountTitles } from '../../src/entities/accounts'

const home = DEMO_KEY_ACCOUNTS[DEMO_KEYS.all] // 1000001; the key also sees 1000002
const other = 1000002

function setup(settings: Record<string, string> = {}, { keySearchSaysNothing = false } = {}) {
  const sim = createSimulator()
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    if (keySearchSaysNothing && (await req.clone().text()).includes('query KeyAccount'))
      return Response.json({
        data: { actor: { apiAccess: { keySearch: { keys: [], nextCursor: null } } } },
      })
    return sim.fetch(req)
  }) as typeof globalThis.fetch
  const app = createApp({
    config: parseConfig({
      NERDGRAPH_URL: 'http://simulator.test/graphql',
      ALLOW_HTTP: 'true',
      ...settings,
    }),
    fetch,
    log: () => {},
  })
  const call = (path: string, init: RequestInit = {}, key: string = DEMO_KEYS.all) =>
    app.request(path, { ...init, headers: { 'X-Api-Key': key, ...(init.headers ?? {}) } })
  const json = (method: string, body: unknown): RequestInit => ({
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { sim, call, json, alerts: alertsOf(sim.dataset) }
}

describe('one account rule, a two-account key unpinned', () => {
  it('creates browser and mobile applications in the key’s own account', async () => {
    const { sim, call, json } = setup()
    expect(
      (
        await call(
          '/v2/browser_applications.json',
          json('POST', { browser_application: { name: 'B' } })
        )
      ).status
    ).toBe(201)
    expect(
      (
        await call(
          '/v2/mobile_applications.json',
          json('POST', { mobile_application: { name: 'M' } })
        )
      ).status
    ).toBe(201)
    const state = sim.dataset.resources.state
    expect(state.createdBrowser.map((b) => b.accountId)).toEqual([home])
    expect(state.createdMobile.map((m) => m.accountId)).toEqual([home])
  })

  it('creates a channel in the key’s own account and lists that account’s channels', async () => {
    const { call, json, alerts } = setup()
    const res = await call(
      '/v2/alerts_channels.json',
      json('POST', {
        channel: { name: 'own', type: 'email', configuration: { recipients: 'a@b.c' } },
      })
    )
    expect(res.status).toBe(201)
    expect(alerts.channelsOf(home).some((c) => c.name === 'own')).toBe(true)
    expect(alerts.channelsOf(other).some((c) => c.name === 'own')).toBe(false)
    const list = (await (await call('/v2/alerts_channels.json')).json()) as {
      channels: { id: number }[]
    }
    expect(list.channels.map((c) => c.id).sort()).toEqual(
      alerts
        .channelsOf(home)
        .map((c) => Number(c.id))
        .sort()
    )
  })

  it('lists and acknowledges the incidents of the key’s own account', async () => {
    const { call } = setup()
    const list = (await (await call('/v2/alerts_incidents.json')).json()) as {
      incidents: { id: number }[]
    }
    expect(list.incidents.length).toBeGreaterThan(0)
    const ack = await call(`/v2/alerts_incidents/${list.incidents[0]!.id}/acknowledge.json`, {
      method: 'PUT',
    })
    expect(ack.status).toBe(200)
  })

  it('labels applications of the key’s own account only', async () => {
    const { call, json, sim } = setup()
    const own = sim.dataset.applications(home)[0]!.id
    const elsewhere = sim.dataset.applications(other)[0]!.id
    const label = (id: number) =>
      json('PUT', { label: { category: 'Owner', name: 'me', links: { applications: [id] } } })
    expect((await call('/v2/labels.json', label(own))).status).toBe(201)
    expect((await call('/v2/labels.json', label(elsewhere))).status).toBe(404)
  })

  it('lets X-Account-Id, then the KEY_MAP account, then ACCOUNT_ID choose before the key’s own', async () => {
    const legacy = '0123456789abcdef0123456789abcdef0123456789abcde'
    const { sim, call, json } = setup({
      ACCOUNT_ID: String(other),
      KEY_MAP: JSON.stringify({
        [await keyFingerprint(legacy)]: { key: DEMO_KEYS.all, account: home },
      }),
    })
    const create = (name: string, key?: string, headers: Record<string, string> = {}) => {
      const init = json('POST', { browser_application: { name } })
      return call(
        '/v2/browser_applications.json',
        { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } },
        key
      )
    }
    expect((await create('by setting')).status).toBe(201) // ACCOUNT_ID
    expect((await create('by map', legacy)).status).toBe(201) // the KEY_MAP account beats ACCOUNT_ID
    expect((await create('by header', undefined, { 'X-Account-Id': String(home) })).status).toBe(
      201
    )
    // A KEY_MAP account confines its legacy key: a header naming another account is refused.
    expect((await create('elsewhere', legacy, { 'X-Account-Id': String(other) })).status).toBe(403)
    expect(sim.dataset.resources.state.createdBrowser.map((b) => [b.name, b.accountId])).toEqual([
      ['by setting', other],
      ['by map', home],
      ['by header', home],
    ])
  })

  it('answers 422 naming the three settings when NerdGraph cannot tell the key’s account', async () => {
    const { call, json } = setup({}, { keySearchSaysNothing: true })
    const res = await call(
      '/v2/browser_applications.json',
      json('POST', { browser_application: { name: 'x' } })
    )
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ error: { title: accountTitles.choose } })
    expect(accountTitles.choose).toMatch(/X-Account-Id.*KEY_MAP.*ACCOUNT_ID/)
  })
})

/** The v2 lists of one account (applications, browser and mobile applications, key transactions). */
const lists = [
  ['/v2/applications.json', 'applications'],
  ['/v2/browser_applications.json', 'browser_applications'],
  ['/v2/mobile_applications.json', 'applications'],
  ['/v2/key_transactions.json', 'key_transactions'],
] as const

/** The IDs each list should hold, from the simulator's data, for `accounts`. */
function truth(sim: ReturnType<typeof createSimulator>, path: string, accounts: number[]) {
  const d = sim.dataset
  const mine = <T extends { accountId: number; id: number }>(items: readonly T[]) =>
    items.filter((i) => accounts.includes(i.accountId)).map((i) => i.id)
  const ids: Record<string, number[]> = {
    '/v2/applications.json': accounts.flatMap((a) => d.applications(a).map((app) => app.id)),
    '/v2/browser_applications.json': mine(d.resources.browser()),
    '/v2/mobile_applications.json': mine(d.resources.mobile()),
    '/v2/key_transactions.json': mine(d.resources.keyTransactions),
  }
  return ids[path]!.sort((a, b) => a - b)
}

/** Every ID of a list, following rel="next". */
async function listed(
  call: (path: string, init?: RequestInit) => Promise<Response> | Response,
  path: string,
  key: string,
  init: RequestInit = {}
) {
  const ids: number[] = []
  let url: string | undefined = path
  while (url) {
    const res = await call(url, init)
    expect(res.status, url).toBe(200)
    ids.push(...((await res.json()) as Record<string, { id: number }[]>)[key]!.map((r) => r.id))
    url = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
  }
  return ids.sort((a, b) => a - b)
}

describe('one account rule for lists, a two-account key', () => {
  // A v2 REST key belonged to one account and listed that account; a user key acts for the account
  // it was created in (New Relic docs "Migrate from REST API v2 to NerdGraph", "Before you begin";
  // "New Relic API keys"), which NerdGraph's key search tells (apiAccess.keySearch).
  it('lists the key’s own account unpinned, on every list', async () => {
    const { sim, call } = setup()
    for (const [path, key] of lists) {
      const ids = await listed(call, path, key)
      expect(ids.length, path).toBeGreaterThan(0)
      expect(ids, path).toEqual(truth(sim, path, [home]))
    }
  })

  it('lists the pinned account when one is pinned', async () => {
    const { sim, call } = setup()
    const pinned = { headers: { 'X-Account-Id': String(other) } }
    for (const [path, key] of lists)
      expect(await listed(call, path, key, pinned), path).toEqual(truth(sim, path, [other]))
  })

  it('lists every account the key sees only when NerdGraph cannot tell the key’s own', async () => {
    const { sim, call } = setup({}, { keySearchSaysNothing: true })
    for (const [path, key] of lists)
      expect(await listed(call, path, key), path).toEqual(truth(sim, path, [home, other]))
  })
})

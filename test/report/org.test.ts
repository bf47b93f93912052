/**
 * The organisation view of the migration report (issue 25, item 11): every key's report summed
 * up for `REPORT_ADMIN_TOKEN`, keys shown only as the report's fingerprints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  DEMO_KEYS,
  createSimulator,
  startSimulatorServer,
  type SimulatorServer,
} from '../../simulator'
import { createApp } from '../../src/app'
import { ConfigError, parseConfig } from '../../src/core/config'
import { parseNodeConfig } from '../../src/node/config'
import { startServer } from '../../src/node'
import { keyFingerprint } from '../../src/core/identity'
import { orgBody, orgReport, orgTitles, sameSecret } from '../../src/report/org'
import type { ReportEntry } from '../../src/report/entries'
import type { ReportStore } from '../../src/report'

const token = 'org-admin-token-0123456789'
const org = '/v2bridge/report/org.json'
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` })

/** v2bridge before the simulator, with the organisation view for `token` as the Node entry
 * mounts it (src/node.ts); without a token, as the Worker or an unset setting leaves it. */
function bridge(options: { token?: string; report?: ReportStore } = {}) {
  const sim = createSimulator()
  const app = createApp({
    config: parseConfig({ NERDGRAPH_URL: 'http://simulator.test/graphql' }),
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      sim.fetch(new Request(input, init))) as typeof fetch,
    ...(options.token ? { reportOrg: orgReport(options.token) } : {}),
    ...(options.report ? { report: options.report } : {}),
  })
  const base = 'https://v2bridge.test'
  return {
    request: (path: string, headers: Record<string, string> = {}) =>
      app.request(base + path, { headers }),
    get: (path: string, key: string = DEMO_KEYS.all, headers: Record<string, string> = {}) =>
      app.request(base + path, { headers: { 'X-Api-Key': key, ...headers } }),
  }
}

const entry = (over: Partial<ReportEntry>): ReportEntry => ({
  method: 'GET',
  path: '/v2/applications',
  client: 'curl',
  count: 1,
  errors: 0,
  firstSeen: Date.UTC(2026, 10, 20, 10),
  lastSeen: Date.UTC(2026, 10, 20, 10),
  parameters: [],
  metricNames: [],
  valueTypes: [],
  documents: [],
  ...over,
})

describe('orgBody', () => {
  it('sums every key: totals, operations over keys, and each key by fingerprint', () => {
    const a = 'a'.repeat(64)
    const b = 'b'.repeat(64)
    const body = orgBody(
      [
        [
          a,
          [
            entry({ count: 3, errors: 1 }),
            entry({ client: 'Python', count: 2, lastSeen: Date.UTC(2026, 10, 21) }),
            entry({ path: '/v2/plugins', count: 1, errors: 1 }),
          ],
        ],
        [b, [entry({ count: 4, firstSeen: Date.UTC(2026, 10, 19) })]],
        ['c'.repeat(64), []],
      ],
      new Map([
        [b, [{ method: 'GET', path: '/v2/applications', compared: 5, equal: 4, differing: 1 }]],
      ])
    )
    expect(body).toEqual({
      organisation: {
        keys: 2,
        calls: 10,
        errors: 2,
        clients: ['Python', 'curl'],
        first_seen: '2026-11-19T00:00:00.000Z',
        last_seen: '2026-11-21T00:00:00.000Z',
        operations: [
          {
            method: 'GET',
            path: '/v2/applications',
            summary: 'List applications',
            answer: 'served',
            keys: 2,
            calls: 9,
            errors: 1,
            clients: ['Python', 'curl'],
            first_seen: '2026-11-19T00:00:00.000Z',
            last_seen: '2026-11-21T00:00:00.000Z',
            verification: { compared: 5, equal: 4, differing: 1 },
          },
          {
            method: 'GET',
            path: '/v2/plugins',
            summary: 'List plugins',
            answer: 'retired',
            keys: 1,
            calls: 1,
            errors: 1,
            clients: ['curl'],
            first_seen: '2026-11-20T10:00:00.000Z',
            last_seen: '2026-11-20T10:00:00.000Z',
          },
        ],
        by_key: [
          {
            key: 'sha256:aaaaaaaaaaaa…',
            operations: 2,
            answers: { served: 1, retired: 1 },
            calls: 6,
            errors: 2,
            clients: ['Python', 'curl'],
            first_seen: '2026-11-20T10:00:00.000Z',
            last_seen: '2026-11-21T00:00:00.000Z',
          },
          {
            key: 'sha256:bbbbbbbbbbbb…',
            operations: 1,
            answers: { served: 1 },
            calls: 4,
            errors: 0,
            clients: ['curl'],
            first_seen: '2026-11-19T00:00:00.000Z',
            last_seen: '2026-11-20T10:00:00.000Z',
          },
        ],
      },
    })
  })
})

describe('sameSecret', () => {
  it('accepts only the same token, whatever the lengths', async () => {
    expect(await sameSecret(token, token)).toBe(true)
    expect(await sameSecret(`${token}x`, token)).toBe(false)
    expect(await sameSecret(token.slice(0, -1), token)).toBe(false)
    expect(await sameSecret('', token)).toBe(false)
  })
})

describe('GET /v2bridge/report/org.json', () => {
  it('does not exist without a token (REPORT_ADMIN_TOKEN unset, or the Worker): 404', async () => {
    const res = await bridge().request(org, bearer(token))
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: { title: 'Not found' } })
  })

  it('answers 401 to a missing or wrong token', async () => {
    const h = bridge({ token })
    const missing = await h.request(org)
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="v2bridge report"')
    expect(await missing.json()).toEqual({ error: { title: orgTitles.noToken } })
    for (const wrong of [`${token}0`, token.slice(1), 'x'.repeat(token.length)]) {
      const res = await h.request(org, bearer(wrong))
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ error: { title: orgTitles.badToken } })
    }
    // A key is no admin token.
    const byKey = await h.get(org)
    expect(byKey.status).toBe(401)
  })

  it('sums every key for the right token, naming keys by fingerprint only', async () => {
    const h = bridge({ token })
    const ua = { 'User-Agent': 'python-requests/2.31.0' }
    expect((await h.get('/v2/applications.json', DEMO_KEYS.all, ua)).status).toBe(200)
    expect((await h.get('/v2/applications.json')).status).toBe(200)
    expect((await h.get('/v2/plugins.json')).status).toBe(410)
    expect((await h.get('/v2/applications.json', DEMO_KEYS.one)).status).toBe(200)
    const res = await h.request(org, bearer(token))
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const text = await res.text()
    expect(text).not.toContain(DEMO_KEYS.all)
    expect(text).not.toContain(DEMO_KEYS.one)
    const { organisation } = JSON.parse(text) as {
      organisation: {
        keys: number
        calls: number
        errors: number
        operations: { path: string; keys: number; calls: number }[]
        by_key: { key: string; calls: number; answers: Record<string, number> }[]
      }
    }
    expect(organisation).toMatchObject({ keys: 2, calls: 4, errors: 1 })
    expect(organisation.operations.map((o) => [o.path, o.keys, o.calls])).toEqual([
      ['/v2/applications', 2, 3],
      ['/v2/plugins', 1, 1],
    ])
    const label = async (key: string) => `sha256:${(await keyFingerprint(key)).slice(0, 12)}…`
    expect(organisation.by_key).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          key: await label(DEMO_KEYS.all),
          calls: 3,
          answers: { served: 1, retired: 1 },
        }),
        expect.objectContaining({ key: await label(DEMO_KEYS.one), calls: 1 }),
      ])
    )
    // The same fingerprint the key's own report shows.
    const own = (await (await h.get('/v2bridge/report.json')).json()) as { report: { key: string } }
    expect(organisation.by_key.map((k) => k.key)).toContain(own.report.key)
  })

  it('answers 501 where a store given to the Node entry keeps no list of keys', async () => {
    const report: ReportStore = { record: () => {}, read: async () => [] }
    const res = await bridge({ token, report }).request(org, bearer(token))
    expect(res.status).toBe(501)
    expect(await res.json()).toEqual({ error: { title: orgTitles.noList } })
  })
})

describe('REPORT_ADMIN_TOKEN on the Node entry', () => {
  let sim: SimulatorServer
  beforeAll(async () => {
    sim = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
  })
  afterAll(() => sim?.close())

  const serve = (more: Record<string, string> = {}) =>
    startServer(
      parseNodeConfig({
        PORT: '0',
        NERDGRAPH_URL: `${sim.url}/graphql`,
        ALLOW_HTTP: 'true',
        ...more,
      }),
      undefined,
      { log: () => {} }
    )

  it('is off by default (404) and, set, opens the view to its bearer only', async () => {
    const off = await serve()
    try {
      const res = await fetch(off.url + org, { headers: bearer(token) })
      expect(res.status).toBe(404)
    } finally {
      await off.close()
    }
    const on = await serve({ REPORT_ADMIN_TOKEN: token })
    try {
      const call = await fetch(`${on.url}/v2/applications.json`, {
        headers: { 'X-Api-Key': DEMO_KEYS.all },
      })
      expect(call.status).toBe(200)
      expect((await fetch(on.url + org, { headers: bearer(`${token}x`) })).status).toBe(401)
      const res = await fetch(on.url + org, { headers: bearer(token) })
      expect(res.status).toBe(200)
      const body = (await res.json()) as { organisation: { keys: number; calls: number } }
      expect(body.organisation).toMatchObject({ keys: 1, calls: 1 })
    } finally {
      await on.close()
    }
  })

  it('must be 16 to 256 visible characters, and a bad one is never echoed', () => {
    expect(parseNodeConfig({}).reportAdminToken).toBeUndefined()
    expect(parseNodeConfig({ REPORT_ADMIN_TOKEN: token }).reportAdminToken).toBe(token)
    for (const bad of ['short-token', `${'x'.repeat(20)} y`]) {
      let error: unknown
      try {
        parseNodeConfig({ REPORT_ADMIN_TOKEN: bad })
      } catch (err) {
        error = err
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toBe(
        'invalid v2bridge configuration:\n  REPORT_ADMIN_TOKEN: expected 16 to 256 visible ASCII characters'
      )
    }
  })
})

/**
 * Cached answers for one key are never served to another key or to a bad key, on every GET route.
 * The check is generic: a route's answer to key B after key A warmed every cache must equal its
 * answer to key B from a cold process (fresh modules, so module-level caches start empty too).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEMO_KEYS } from '../../simulator'

type Modules = {
  app: typeof import('../../src/app')
  config: typeof import('../../src/core/config')
  simulator: typeof import('../../simulator')
}

/** Extra query parameters a route needs to return data rather than 422. */
const extraQuery: Record<string, string> = {
  '/v2/mobile_applications/:id/metrics/data': 'names[]=Session/Start&values[]=call_count',
  '/v2/applications/:id/metrics/data': 'names[]=HttpDispatcher&values[]=call_count',
  '/v2/applications/:id/hosts/:hostId/metrics/data': 'names[]=HttpDispatcher&values[]=call_count',
  '/v2/applications/:id/instances/:instanceId/metrics/data':
    'names[]=HttpDispatcher&values[]=call_count',
}

const badKey = 'NRAK-DEMO9999999999999999999999'

async function freshProcess(): Promise<Modules> {
  vi.resetModules()
  return {
    app: await import('../../src/app'),
    config: await import('../../src/core/config'),
    simulator: await import('../../simulator'),
  }
}

function bridge(m: Modules) {
  const sim = m.simulator.createSimulator()
  const app = m.app.createApp({
    config: m.config.parseConfig({
      NERDGRAPH_URL: 'http://simulator.test/graphql',
      ALLOW_HTTP: 'true',
    }),
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      sim.fetch(new Request(input, init))) as typeof fetch,
  })
  const get = async (path: string, key: string) => {
    const res = await app.request(path, { headers: { 'X-Api-Key': key } })
    return { status: res.status, body: await res.text() }
  }
  return { sim, app, get }
}

describe('isolation of cached answers between keys', () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-03-02T10:15:30Z'))
  })
  afterAll(() => vi.useRealTimers())

  it('never serves key A’s cached answers to key B or to a bad key, on every GET route', async () => {
    const warm = bridge(await freshProcess())
    const prodApp = warm.sim.dataset
      .applications(1000001)
      .find((a) => warm.sim.dataset.hosts(a.id).length > 0)!
    const routes = warm.app.routes.filter((r) => r.method === 'GET' && r.path.startsWith('/v2/'))
    expect(routes.length).toBeGreaterThan(0)

    /** A concrete path for a route: an application's `:id` is a production app; other IDs come
     * from key A's lists (the first item, which for these lists is a production one). */
    const concrete = async (pattern: string): Promise<string> => {
      let path = ''
      for (const segment of pattern.split('/').slice(1)) {
        if (!segment.startsWith(':')) {
          path += `/${segment}`
          continue
        }
        if (path === '/v2/servers') {
          path += '/1' // no server exists: every ID answers 404 to every key
          continue
        }
        if (segment === ':id' && path === '/v2/applications') {
          path += `/${prodApp.id}`
          continue
        }
        const list = await warm.get(`${path}.json`, DEMO_KEYS.all)
        const body = JSON.parse(list.body) as Record<string, { id: number }[]>
        const first = Object.values(body).find(Array.isArray)?.[0]
        expect(first, `no item to fill ${segment} in ${pattern}`).toBeDefined()
        path += `/${first!.id}`
      }
      const extra = extraQuery[pattern.replace(/\{[^}]*\}/g, '')]
      return `${path}.json${extra ? `?${extra}` : ''}`
    }

    const paths: string[] = []
    for (const route of routes) paths.push(await concrete(route.path))
    const listPaths = new Set(
      routes.filter((r) => !r.path.includes(':id')).map((r) => `${r.path}.json`)
    )

    const warmA = new Map<string, { status: number; body: string }>()
    for (const path of paths) warmA.set(path, await warm.get(path, DEMO_KEYS.all))
    for (const path of paths) warmA.set(path, await warm.get(path, DEMO_KEYS.all)) // served from cache
    const warmB = new Map<string, { status: number; body: string }>()
    for (const path of paths) warmB.set(path, await warm.get(path, DEMO_KEYS.one))
    for (const path of paths) {
      const bad = await warm.get(path, badKey)
      expect(bad, path).toEqual({ status: 401, body: '{"error":{"title":"Invalid API Key"}}' })
    }

    const cold = bridge(await freshProcess())
    for (const path of paths) {
      const noServers = path.startsWith('/v2/servers/')
      expect(warmA.get(path)!.status, `key A should see ${path}`).toBe(noServers ? 404 : 200)
      const coldB = await cold.get(path, DEMO_KEYS.one)
      expect(warmB.get(path), path).toEqual(coldB)
      if (listPaths.has(path)) {
        const items = Object.values(JSON.parse(coldB.body) as object).find(Array.isArray) as {
          id: number
        }[]
        if (path !== '/v2/servers.json') expect(items.length).toBeGreaterThan(0)
        for (const item of items) {
          if (path === '/v2/users.json') continue // users belong to the organization, not an account
          if (path === '/v2/labels.json') {
            const ids = (item as unknown as { links: { applications: number[] } }).links
              .applications
            for (const id of ids) expect(cold.sim.dataset.application(id)?.accountId).toBe(1000002)
            continue
          }
          if (path.startsWith('/v2/alerts_')) continue // alerts of the key's account: checked below
          const entity = cold.sim.dataset.entities().find((e) => Number(e.domainId) === item.id)
          expect(entity?.accountId, path).toBe(1000002)
        }
        // alerts lists hold alerts of the key's account, not entities: B's differ from A's
        if (path.startsWith('/v2/alerts_')) expect(coldB.body).not.toEqual(warmA.get(path)!.body)
      } else if (!path.startsWith('/v2/users/')) {
        // (users belong to the organization, which both demo keys share)
        expect(coldB.status, `key B must not see production app ${path}`).toBe(404)
      }
    }
  })
})

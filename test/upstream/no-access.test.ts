/**
 * Every shape in which NerdGraph says "this key may not use that account" (mappings/upstream-errors.ts
 * `noAccess`) answers as v2 answered a key for another account: 404 for a read of one of its
 * resources, an empty list, 403 for a create; never 502. Live, the shape is the message "Access
 * denied." with no class (terraform-provider-newrelic issues #755 and #833), the simulator's default.
 */
import { describe, expect, it } from 'vitest'
import { errorClassStatus } from '../../mappings/upstream-errors'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { errorClassOf, graphqlFault } from '../../src/upstream/fault'
import { createSimulator, DEMO_KEYS } from '../../simulator'

const shapes = {
  live: { message: 'Access denied.' }, // no extensions at all
  liveNullClass: { message: 'Access Denied.', extensions: { errorClass: null } },
  forbidden: { message: 'Not authorized', extensions: { errorClass: 'FORBIDDEN' } },
  accessDenied: { message: 'Denied', extensions: { errorClass: 'ACCESS_DENIED' } },
}

describe('no-access shapes', () => {
  it('reads each as FORBIDDEN: 403 with its title, never 502', () => {
    for (const [name, shape] of Object.entries(shapes)) {
      const e = { ...shape, path: ['actor', 'account'] } as Parameters<typeof errorClassOf>[0]
      expect(errorClassOf(e), name).toBe('FORBIDDEN')
      const { error } = graphqlFault([e])
      expect(error, name).toMatchObject({ status: 403, title: errorClassStatus.FORBIDDEN.title })
    }
  })

  it('leaves other messages without a class as they were', () => {
    expect(errorClassOf({ message: 'Access denied. Contact your admin to fix this' })).toBe('')
    expect(graphqlFault([{ message: 'Something broke' }]).error).toMatchObject({ status: 502 })
  })
})

describe('another account through the live simulator ("Access denied.", no class)', () => {
  const sim = createSimulator()
  const app = createApp({
    config: parseConfig({ NERDGRAPH_URL: 'http://simulator.test/graphql', ALLOW_HTTP: 'true' }),
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) =>
      sim.fetch(new Request(input, init))) as typeof globalThis.fetch,
    log: () => {},
  })
  // DEMO_KEYS.one sees 1000002 only; 1000001 is another account's.
  const headers = { 'X-Api-Key': DEMO_KEYS.one, 'X-Account-Id': '1000001' }
  const call = (path: string, init: RequestInit = {}) =>
    app.request(path, { ...init, headers: { ...headers, ...(init.headers ?? {}) } })

  it('answers an application read 404 and the application list empty', async () => {
    const read = await call('/v2/applications/9045822.json')
    expect(read.status).toBe(404)
    expect(await read.json()).toEqual({
      error: { title: 'No Application found with the given ID' },
    })
    const list = await call('/v2/applications.json')
    expect(list.status).toBe(200)
    expect(((await list.json()) as { applications: unknown[] }).applications).toEqual([])
  })

  it('answers a create in that account 403, and a deployment 404, never 502', async () => {
    const create = await call('/v2/browser_applications.json', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ browser_application: { name: 'elsewhere' } }),
    })
    expect(create.status).toBe(403)
    expect(await create.json()).toEqual({ error: { title: errorClassStatus.FORBIDDEN.title } })
    const deployment = await call('/v2/applications/9045822/deployments.json', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ deployment: { revision: 'r1' } }),
    })
    expect(deployment.status).toBe(404)
    expect(sim.dataset.resources.state.createdBrowser).toEqual([])
  })
})

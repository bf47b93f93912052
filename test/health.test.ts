import { describe, expect, it } from 'vitest'
import { createApp } from '../src/app'
import { parseConfig } from '../src/core/config'
import { harness } from './helpers/harness'

describe('/healthz and /readyz', () => {
  it('answer 200 JSON without a key, over plain HTTP, without calling NerdGraph', async () => {
    const { app, sim } = harness({ ALLOW_HTTP: 'false' })
    const headers = { 'X-Forwarded-Proto': 'http' }
    const health = await app.request('http://v2bridge.test/healthz', { headers })
    expect(health.status).toBe(200)
    expect(health.headers.get('content-type')).toMatch(/^application\/json/)
    expect(health.headers.get('cache-control')).toBe('no-store')
    expect(await health.json()).toEqual({ status: 'ok' })
    const ready = await app.request('http://v2bridge.test/readyz', { headers })
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready' })
    expect(sim.stats().graphqlRequests).toBe(0)
    const v2 = await app.request('http://v2bridge.test/v2/applications.json', { headers })
    expect(v2.status).toBe(301)
  })

  it('ignore a key, even an invalid one', async () => {
    const { app } = harness()
    const res = await app.request('/healthz', { headers: { 'X-Api-Key': 'NRAK-NOPE' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok' })
  })

  it('readyz answers 503 naming each invalid Worker setting, never its value', async () => {
    const app = createApp()
    const res = await app.request('/readyz', {}, { REGION: 'mars', UPSTREAM_TIMEOUT_MS: 'soon' })
    expect(res.status).toBe(503)
    const body = (await res.json()) as { status: string; problems: string[] }
    expect(body.status).toBe('not ready')
    expect(body.problems).toEqual([
      'REGION: expected us or eu',
      'UPSTREAM_TIMEOUT_MS: expected an integer from 100 to 120000',
    ])
    expect(JSON.stringify(body)).not.toMatch(/mars|soon/)
    const fine = await app.request('/readyz', {}, { REGION: 'eu' })
    expect(fine.status).toBe(200)
  })

  it('are not under /v2 and take no other method', async () => {
    const { app, get } = harness()
    expect((await get('/v2/healthz')).status).toBe(404)
    expect((await app.request('/healthz', { method: 'POST' })).status).toBe(404)
    const config = parseConfig({ ALLOW_HTTP: 'true' })
    expect((await createApp({ config }).request('/readyz')).status).toBe(200)
  })
})

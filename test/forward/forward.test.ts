/** Forwarding of the kept alerts endpoints, over real HTTP: client → v2bridge (Node) → upstream. */
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { parseConfig, type ConfigInput } from '../../src/core/config'
import { startServer, type NodeServer } from '../../src/node'
import { DEMO_KEYS, startSimulatorServer, type SimulatorServer } from '../../simulator'

const key = DEMO_KEYS.all
let sim: SimulatorServer
const servers: { close(): Promise<void> }[] = []

beforeAll(async () => {
  sim = await startSimulatorServer({ port: 0 })
  servers.push(sim)
})
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
})

async function bridge(settings: ConfigInput = {}, log: Record<string, unknown>[] = []) {
  const config = parseConfig({
    PORT: '0',
    NERDGRAPH_URL: `${sim.url}/graphql`,
    V2_URL: `${sim.url}/v2`,
    ALLOW_HTTP: 'true',
    ...settings,
  })
  const server: NodeServer = await startServer(config, undefined, { log: (l) => log.push(l) })
  servers.push(server)
  return server.url
}

/** A request by node:http, which (unlike fetch) sends any header and a GET body. */
function raw(url: string, method: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(url, {
        method,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      })
      req.on('error', reject)
      req.on('response', (res) => {
        let text = ''
        res.on('data', (d: Buffer) => (text += d))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }))
      })
      req.end(body)
    }
  )
}

/** An upstream that answers with what it received, or as `reply` says. */
async function recorder(reply?: (seen: number) => Response | Promise<Response>) {
  const seen: { method: string; url: string; headers: Record<string, string>; body: string }[] = []
  const app = new Hono()
  app.all('*', async (c) => {
    seen.push({
      method: c.req.method,
      url: c.req.url,
      headers: Object.fromEntries(c.req.raw.headers),
      body: await c.req.text(),
    })
    if (reply) return reply(seen.length)
    return new Response('{"policies":[]}', {
      status: 200,
      headers: {
        'Content-Type': 'application/json',
        Connection: 'X-Hop',
        'X-Hop': '1',
        'X-End': '2',
        'Set-Cookie': 'session=v2',
        'X-RateLimit-Remaining': '999',
      },
    })
  })
  const url = await new Promise<string>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      servers.push({ close: () => new Promise((done) => server.close(() => done())) })
      resolve(`http://127.0.0.1:${info.port}`)
    })
  })
  return { url, seen }
}

describe('forwarded alerts endpoints', () => {
  it('create, list and delete a policy on the v2 stand-in through v2bridge', async () => {
    const base = await bridge()
    const headers = { 'X-Api-Key': key, 'Content-Type': 'application/json' }
    const created = await fetch(`${base}/v2/alerts_policies.json`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        policy: { name: 'Forwarded policy', incident_preference: 'PER_CONDITION' },
      }),
    })
    expect(created.status).toBe(201)
    const { policy } = (await created.json()) as { policy: Record<string, unknown> }
    expect(Object.keys(policy)).toEqual([
      'id',
      'incident_preference',
      'name',
      'created_at',
      'updated_at',
    ])
    expect(policy).toMatchObject({ name: 'Forwarded policy', incident_preference: 'PER_CONDITION' })

    const listed = await fetch(`${base}/v2/alerts_policies.json?filter[name]=forwarded+policy`, {
      headers,
    })
    expect(listed.status).toBe(200)
    expect(await listed.json()).toEqual({ policies: [policy] })
    expect(
      sim.simulator.dataset &&
        (await fetch(`${sim.url}/v2/alerts_policies.json`, { headers })).status
    ).toBe(200)

    const deleted = await fetch(`${base}/v2/alerts_policies/${policy['id']}.json`, {
      method: 'DELETE',
      headers,
    })
    expect(deleted.status).toBe(200)
    expect(await deleted.json()).toEqual({ policy })
    const after = await fetch(`${base}/v2/alerts_policies.json?filter[name]=Forwarded+policy`, {
      headers,
    })
    expect(await after.json()).toEqual({ policies: [] })
  })

  it('passes v2 errors and XML through byte for byte', async () => {
    const base = await bridge()
    const missing = await fetch(`${base}/v2/alerts_conditions.json`, {
      headers: { 'X-Api-Key': key },
    })
    expect(missing.status).toBe(400)
    expect(missing.headers.get('cache-control')).toBe('no-cache')
    expect(await missing.text()).toBe('{"error":{"title":"missing parameter: policy_id"}}')
    const direct = await fetch(`${sim.url}/v2/alerts_nrql_conditions.xml?policy_id=5101101`, {
      headers: { 'X-Api-Key': key },
    })
    const via = await fetch(`${base}/v2/alerts_nrql_conditions.xml?policy_id=5101101`, {
      headers: { 'X-Api-Key': key },
    })
    expect(via.status).toBe(200)
    expect(via.headers.get('content-type')).toBe('application/xml')
    const xml = await via.text()
    expect(xml).toBe(await direct.text())
    expect(xml).toContain(
      '<nrql_conditions_response>\n  <nrql_conditions>\n    <nrql_condition>\n      <type>static</type>\n      <id>7101101</id>'
    )
  })

  it('sends method, path, query, body and key unchanged, and only allowlisted headers either way (issue 22, item 9)', async () => {
    const up = await recorder()
    const base = await bridge({ V2_URL: `${up.url}/v2` })
    const res = await raw(
      `${base}/v2/alerts_nrql_conditions/42.json?x=1&y[]=a%20b`,
      'PUT',
      {
        'Api-Key': key,
        'Content-Type': 'application/json',
        Connection: 'keep-alive, X-Hop',
        'X-Hop': 'drop me',
        'User-Agent': 'legacy-client/1.0',
        Authorization: 'Bearer secret',
        Cookie: 'sid=1',
        'X-Forwarded-For': '10.0.0.1',
        'X-Real-IP': '10.0.0.1',
        Forwarded: 'for=10.0.0.1',
        Via: '1.1 proxy',
        Origin: 'https://evil.example',
        'X-License-Key': '0123456789abcdef0123456789abcdef01234567',
        'X-Request-Id': 'req-1',
      },
      '{"nrql_condition":{"name":"n"}}'
    )
    expect(res.status).toBe(200)
    // Back: content headers and the rate-limit family only.
    expect(res.headers['x-end']).toBeUndefined()
    expect(res.headers['set-cookie']).toBeUndefined()
    expect(res.headers['x-ratelimit-remaining']).toBe('999')
    expect(res.headers['x-hop']).toBeUndefined()
    expect(res.body).toBe('{"policies":[]}')
    const [got] = up.seen
    expect(got!.method).toBe('PUT')
    expect(got!.url).toBe(`${up.url}/v2/alerts_nrql_conditions/42.json?x=1&y[]=a%20b`)
    expect(got!.body).toBe('{"nrql_condition":{"name":"n"}}')
    expect(got!.headers['api-key']).toBe(key)
    expect(got!.headers['user-agent']).toBe('legacy-client/1.0')
    expect(got!.headers['content-type']).toBe('application/json')
    expect(got!.headers['x-hop']).toBeUndefined()
    expect(got!.headers['x-request-id']).toBe('req-1')
    for (const name of [
      'authorization',
      'cookie',
      'x-forwarded-for',
      'x-real-ip',
      'forwarded',
      'via',
      'origin',
      'x-license-key',
    ])
      expect(got!.headers[name], name).toBeUndefined()
  })

  it('keeps a client that follows Link or a redirect on v2bridge, leaving other URLs alone', async () => {
    let v2 = ''
    const up = await recorder(
      () =>
        new Response('{"policies":[]}', {
          status: 200,
          headers: {
            'Content-Type': 'application/json',
            Link:
              `<${v2}/alerts_policies.json?page=2>; rel="next", ` +
              `<${v2}/alerts_policies.json?page=3>; rel="last", <https://docs.example/x>; rel="help"`,
          },
        })
    )
    v2 = `${up.url}/v2`
    const base = await bridge({ V2_URL: v2 })
    const res = await fetch(`${base}/v2/alerts_policies.json`, { headers: { 'X-Api-Key': key } })
    expect(res.status).toBe(200)
    expect(res.headers.get('link')).toBe(
      `<${base}/v2/alerts_policies.json?page=2>; rel="next", ` +
        `<${base}/v2/alerts_policies.json?page=3>; rel="last", <https://docs.example/x>; rel="help"`
    )

    const moved = await recorder(
      () => new Response(null, { status: 301, headers: { Location: `${v2}/alerts_policies.json` } })
    )
    v2 = `${moved.url}/v2`
    const other = await bridge({ V2_URL: v2 })
    const redirect = await fetch(`${other}/v2/alerts_policies.json`, {
      headers: { 'X-Api-Key': key },
      redirect: 'manual',
    })
    expect(redirect.status).toBe(301)
    expect(redirect.headers.get('location')).toBe(`${other}/v2/alerts_policies.json`)
  })

  it('moves a GET form body into the query string, as v2 read it', async () => {
    const up = await recorder()
    const base = await bridge({ V2_URL: `${up.url}/v2` })
    const res = await raw(
      `${base}/v2/alerts_policies.json`,
      'GET',
      {
        'X-Api-Key': key,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      'filter[name]=Production+apps'
    )
    expect(res.status).toBe(200)
    expect(new URL(up.seen[0]!.url).searchParams.get('filter[name]')).toBe('Production apps')
    expect(up.seen[0]!.headers['content-type']).toBeUndefined()
  })

  it('retries a read after a 503, never a write, and answers 502 in v2 shape', async () => {
    const up = await recorder(() => new Response('oops', { status: 503 }))
    const base = await bridge({ V2_URL: `${up.url}/v2` })
    const read = await fetch(`${base}/v2/alerts_policies.json`, { headers: { 'X-Api-Key': key } })
    expect(read.status).toBe(502)
    expect(await read.json()).toEqual({
      error: { title: "New Relic's REST API v2 failed to answer" },
    })
    expect(up.seen).toHaveLength(3)
    const write = await fetch(`${base}/v2/alerts_policies.json`, {
      method: 'POST',
      headers: { 'X-Api-Key': key },
      body: '{}',
    })
    expect(write.status).toBe(502)
    expect(up.seen).toHaveLength(4)
  })

  it('answers 504 when v2 does not answer within UPSTREAM_TIMEOUT_MS', async () => {
    const up = await recorder(
      () => new Promise((r) => setTimeout(() => r(new Response('{}')), 2000))
    )
    const base = await bridge({ V2_URL: `${up.url}/v2`, UPSTREAM_TIMEOUT_MS: '300' })
    const started = Date.now()
    const res = await fetch(`${base}/v2/alerts_policies.xml`, { headers: { 'X-Api-Key': key } })
    expect(res.status).toBe(504)
    expect(await res.text()).toContain(
      '<title>New Relic&apos;s REST API v2 did not answer in time</title>'
    )
    expect(Date.now() - started).toBeLessThan(1500)
  })

  it('turns 429 into the v2 rate-limit answer after retrying', async () => {
    const up = await recorder(
      (n) => new Response('{}', { status: n < 3 ? 429 : 200, headers: { 'Retry-After': '0' } })
    )
    const base = await bridge({ V2_URL: `${up.url}/v2` })
    const ok = await fetch(`${base}/v2/alerts_policies.json`, { headers: { 'X-Api-Key': key } })
    expect(ok.status).toBe(200)
    expect(up.seen).toHaveLength(3)
  })

  it('answers 502 when v2 cannot be reached, and never logs the key or the query', async () => {
    const log: Record<string, unknown>[] = []
    const base = await bridge({ V2_URL: 'http://127.0.0.1:9/v2' }, log)
    const res = await fetch(`${base}/v2/alerts_policies.json?filter[name]=secret`, {
      headers: { 'X-Api-Key': key },
    })
    expect(res.status).toBe(502)
    expect(await res.json()).toEqual({
      error: { title: "New Relic's REST API v2 could not be reached" },
    })
    await vi.waitFor(() => expect(log).toHaveLength(1))
    expect(log[0]).toMatchObject({ method: 'GET', path: '/v2/alerts_policies.json', status: 502 })
    expect(JSON.stringify(log)).not.toContain(key)
    expect(JSON.stringify(log)).not.toContain('secret')
  })

  it('answers 501 on every forwarded path when V2_FORWARDING is off', async () => {
    const up = await recorder()
    const base = await bridge({ V2_URL: `${up.url}/v2`, V2_FORWARDING: 'false' })
    const res = await fetch(`${base}/v2/alerts_policies.json`, { headers: { 'X-Api-Key': key } })
    expect(res.status).toBe(501)
    expect(await res.json()).toEqual({
      error: {
        title:
          "GET /v2/alerts_policies is answered by New Relic's REST API v2, and forwarding is off in this v2bridge",
      },
    })
    expect(up.seen).toEqual([])
  })
})

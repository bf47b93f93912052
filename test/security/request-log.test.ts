import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseConfig } from '../../src/core/config'
import { startServer, type NodeServer } from '../../src/node'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { keyFingerprint } from '../../src/core/identity'

const fields = [
  'time',
  'level',
  'requestId',
  'method',
  'route',
  'path',
  'status',
  'upstreamRequests',
  'upstreamMs',
  'totalMs',
]

describe('request log', () => {
  it('writes one structured line per request, whatever its outcome', async () => {
    const { get, log, sim } = harness()
    const secretFilter = 'customer-4711-private'
    await get(`/v2/applications.json?filter[name]=${secretFilter}`)
    const upstreamForOk = sim.stats().graphqlRequests
    await get('/v2/applications.xml', { key: null })
    await get('/v2/nothing.json')
    await get('/v2/applications.json', { method: 'DELETE' })
    await get('/v2/applications.json', { key: 'NRAK-WRONG-KEY-1234567890' })

    expect(log).toHaveLength(5)
    // The basic fields first, in order; then only the optional context of src/core/request-log.ts.
    const optional = ['key', 'operation', 'answer', 'account', 'reason', 'audit', 'error']
    for (const line of log) {
      expect(Object.keys(line).slice(0, fields.length)).toEqual(fields)
      for (const extra of Object.keys(line).slice(fields.length)) expect(optional).toContain(extra)
      expect(line['upstreamMs']).toBeGreaterThanOrEqual(0)
      expect(line['totalMs']).toBeGreaterThanOrEqual(0)
    }
    expect(log.map((l) => [l['method'], l['path'], l['status']])).toEqual([
      ['GET', '/v2/applications.json', 200],
      ['GET', '/v2/applications.xml', 401],
      ['GET', '/v2/nothing.json', 404],
      ['DELETE', '/v2/applications.json', 405],
      ['GET', '/v2/applications.json', 401],
    ])
    expect(log[0]!['upstreamRequests']).toBe(upstreamForOk)
    expect(log.slice(1, 4).map((l) => l['upstreamRequests'])).toEqual([0, 0, 0])
    expect(log[4]!['upstreamRequests']).toBe(1)

    const text = JSON.stringify(log)
    for (const secret of [DEMO_KEYS.all, 'NRAK-WRONG-KEY-1234567890', secretFilter, 'filter']) {
      expect(text).not.toContain(secret)
    }
  })

  it('counts every attempt NerdGraph saw, retries included', async () => {
    const { get, log, sim } = harness()
    await get('/v2/applications.json?filter[name]=checkout') // warms the per-key account list
    const admin = new Request('http://simulator.test/_sim/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 503, count: 1 }),
    })
    await sim.fetch(admin)
    const before = sim.stats().graphqlRequests
    const res = await get('/v2/applications.json?filter[name]=checkout')
    expect(res.status).toBe(200)
    expect(log.at(-1)!['upstreamRequests']).toBe(sim.stats().graphqlRequests - before)
    expect(log.at(-1)!['upstreamRequests']).toBeGreaterThanOrEqual(2)
  })

  it('cuts a huge path and method to a bounded length', async () => {
    const { get, log } = harness()
    await get(`/v2/${'x'.repeat(5000)}.json`)
    expect(String(log[0]!['path']).length).toBeLessThanOrEqual(201)
  })

  describe('on the Node entry', () => {
    let server: NodeServer | undefined
    afterEach(async () => {
      vi.restoreAllMocks()
      await server?.close()
    })

    it('prints JSON lines to stdout by default', async () => {
      const printed: string[] = []
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        printed.push(
          ...String(chunk)
            .split('\n')
            .filter((l) => l.startsWith('{"time"'))
        )
        return true
      })
      const config = parseConfig({
        NERDGRAPH_URL: 'http://127.0.0.1:9/graphql',
        ALLOW_HTTP: 'true',
        PORT: '0',
      })
      server = await startServer(config)
      await fetch(`${server.url}/v2/applications.json?filter[name]=abc`, {
        headers: { 'X-Api-Key': DEMO_KEYS.one },
      })
      await vi.waitFor(() => expect(printed).toHaveLength(1), { timeout: 5_000 }) // written after the response
      const line = JSON.parse(printed[0]!) as Record<string, unknown>
      expect(line).toMatchObject({ method: 'GET', path: '/v2/applications.json', status: 502 })
      expect(printed[0]).not.toContain(DEMO_KEYS.one)
      expect(printed[0]).not.toContain('abc')
    })
  })
})

describe('request lines operators can use (issue 25, item 5)', () => {
  it('carry the key fingerprint, the operation, the account and, on errors, the reason; writes are audit lines', async () => {
    const h = harness()
    await h.get('/v2/browser_applications.json', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ browser_application: { name: 'Audit me' } }),
    })
    await h.get('/v2/applications/1.json')
    const fingerprint = (await keyFingerprint(DEMO_KEYS.all)).slice(0, 12)
    const [write, missing] = h.log.filter((l) => l['route'] !== 'unmatched').slice(-2)
    expect(write).toMatchObject({
      status: 201,
      key: fingerprint,
      operation: 'POST /v2/browser_applications',
      answer: 'served',
      account: 1000001,
      audit: true,
    })
    expect(missing).toMatchObject({
      status: 404,
      key: fingerprint,
      operation: 'GET /v2/applications/{id}',
      reason: 'No Application found with the given ID',
    })
    expect(missing).not.toHaveProperty('audit')
    expect(JSON.stringify(h.log)).not.toContain(DEMO_KEYS.all)
  })
})

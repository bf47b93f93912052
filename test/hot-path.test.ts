import { describe, expect, it, vi } from 'vitest'
import { keyFingerprint } from '../src/core/identity'
import { createUpstream } from '../src/upstream/nerdgraph'
import { webDigest } from '../src/http/etag'
import { nodeBodyDigest, nodeFingerprint } from '../src/node/fingerprint'
import { afterResponse } from '../src/node'
import type { RequestLogLine } from '../src/core/request-log'
import { urlOf } from '../src/http/request-url'
import { fakeFetch } from './helpers/fake-fetch'

const line = (status: number): RequestLogLine => ({
  time: '2026-01-01T00:00:00.000Z',
  level: 'info',
  requestId: 'r-1',
  method: 'GET',
  route: '/v2/applications',
  path: '/v2/applications.json',
  status,
  upstreamRequests: 0,
  upstreamMs: 0,
  totalMs: 0,
})

describe('the per-request fixed costs', () => {
  it('fingerprints a key with node:crypto exactly as WebCrypto does, without keeping the key', async () => {
    for (const key of ['NRAK-DEMO0000000000000000000000', 'NRAK-ÄÖÜ-é', '']) {
      const fast = nodeFingerprint(key)
      expect(fast).toBe(await keyFingerprint(key))
      expect(fast).toMatch(/^[0-9a-f]{64}$/)
      expect(fast).not.toContain(key || '\u0000')
    }
    expect(nodeFingerprint('NRAK-A')).not.toBe(nodeFingerprint('NRAK-B'))
  })

  it('tags a body with node:crypto exactly as WebCrypto does', async () => {
    for (const text of [
      '{"metric_data":{}}',
      '<?xml version="1.0"?><a>é ✓</a>',
      '',
      'x'.repeat(70_000),
    ]) {
      const body = new TextEncoder().encode(text)
      expect(nodeBodyDigest(body)).toBe(await webDigest(body))
      expect(nodeBodyDigest(body)).toMatch(/^[0-9a-f]{32}$/)
    }
  })

  it('writes request lines after the current turn of the event loop, in order, in one batch', async () => {
    const written: number[] = []
    const log = afterResponse((l) => void written.push(l.status))
    log(line(200))
    log(line(404))
    expect(written).toEqual([]) // nothing written while the response is on its way
    await new Promise((done) => setImmediate(done))
    expect(written).toEqual([200, 404])
    log(line(500))
    await vi.waitFor(() => expect(written).toEqual([200, 404, 500]))
  })

  it('writes the default batch to stdout as JSON lines in one write', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    try {
      const log = afterResponse()
      log(line(200))
      log(line(503))
      await new Promise((done) => setImmediate(done))
      expect(write).toHaveBeenCalledTimes(1)
      const text = String(write.mock.calls[0]![0])
      expect(text.split('\n')).toEqual([JSON.stringify(line(200)), JSON.stringify(line(503)), ''])
    } finally {
      write.mockRestore()
    }
  })

  it('parses a request URL once, however often it is asked', () => {
    const req = new Request('https://v2bridge.test/v2/applications.json?page=2')
    expect(urlOf(req)).toBe(urlOf(req))
    expect(urlOf(req).searchParams.get('page')).toBe('2')
  })

  it("shares one client between callers, each request carrying only its own caller's key", async () => {
    const upstream = fakeFetch({ body: { data: { actor: { user: { id: 1 } } } } })
    const shared = createUpstream({
      endpoint: 'https://nerdgraph.test/graphql',
      fetch: upstream.fetch,
    })
    const document = 'query Me { actor { user { id } } }'
    const a = shared.forCaller({ apiKey: 'NRAK-A', partition: 'a', timeoutMs: 1000 })
    const b = shared.forCaller({ apiKey: 'NRAK-B', partition: 'b', timeoutMs: 1000 })
    await a.query(document)
    await b.query(document)
    expect(upstream.sent.map((s) => s.headers['api-key'])).toEqual(['NRAK-A', 'NRAK-B'])
    expect(upstream.sent.map((s) => s.headers['user-agent'])).toEqual(['v2bridge', 'v2bridge'])
    // The document goes as written; it is never parsed locally (no operationName derived from it).
    expect(upstream.sent[0]!.query).toBe(document)
  })
})

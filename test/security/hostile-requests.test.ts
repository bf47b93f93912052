/**
 * Requests that cost a caller nothing and v2bridge a lot (issue 12, items 1–4), through the app:
 * huge page numbers, bodies past the cap (also streamed without a length), deep JSON nesting.
 */
import { describe, expect, it } from 'vitest'
import { bodyLimits } from '../../src/http/body'
import { DEMO_KEYS, harness } from '../helpers/harness'

/** A body stream of `total` bytes in 16 KiB chunks that counts what was pulled from it. */
function countingStream(total: number) {
  const chunk = new TextEncoder().encode(`names[]=${'a'.repeat(16 * 1024 - 9)}&`)
  const seen = { bytes: 0 }
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.bytes >= total) return controller.close()
      seen.bytes += chunk.byteLength
      controller.enqueue(chunk)
    },
  })
  return { stream, seen }
}

describe('page numbers', () => {
  it('answers a page far past the end at once, with one upstream request and an empty list', async () => {
    const { get, log } = harness({ ACCOUNT_ID: '1000001' })
    const started = performance.now()
    const res = await get('/v2/applications.json?page=999999999')
    const ms = performance.now() - started
    expect(res.status).toBe(200)
    expect(((await res.json()) as { applications: unknown[] }).applications).toEqual([])
    expect(log.at(-1)).toMatchObject({ status: 200, upstreamRequests: 1 })
    expect(ms).toBeLessThan(500)
    // Warm, the same page costs no upstream request at all.
    const again = await get('/v2/applications.xml?page=999999998')
    expect(again.status).toBe(200)
    expect(log.at(-1)).toMatchObject({ status: 200, upstreamRequests: 0 })
  })

  it('still walks to a real page in order and answers it', async () => {
    const { get, dataset } = harness({ ACCOUNT_ID: '1000001' })
    const total = dataset.applications(1000001).length
    const res = await get('/v2/applications.json?page=2&exclude_links=true')
    const apps = ((await res.json()) as { applications: unknown[] }).applications
    expect(apps.length).toBe(Math.min(200, total - 200))
    expect(res.headers.get('link')).toContain('rel="first"')
  })
})

describe('body size', () => {
  it('answers 413 to a POST body past 64 KiB sent without a length, reading no more of it', async () => {
    const { app, sim } = harness()
    const { stream, seen } = countingStream(8 * 1024 * 1024)
    const res = await app.request('/v2/applications.json', {
      method: 'POST',
      headers: { 'X-Api-Key': DEMO_KEYS.all, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: stream,
      // @ts-expect-error Node's fetch needs `duplex` for a stream body
      duplex: 'half',
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ error: { title: 'Request body too large' } })
    expect(seen.bytes).toBeLessThan(bodyLimits.read + 64 * 1024)
    expect(sim.stats().graphqlRequests).toBe(0)
  })

  it('answers 413 to a GET body past 64 KiB instead of reading part of it', async () => {
    const { app } = harness()
    const { stream } = countingStream(200 * 1024)
    const res = await app.request(
      '/v2/applications.xml',
      { headers: { 'X-Api-Key': DEMO_KEYS.all } },
      { getBody: () => stream }
    )
    expect(res.status).toBe(413)
    expect(await res.text()).toContain('<title>Request body too large</title>')
  })

  it('reads a body of exactly 64 KiB', async () => {
    const { get } = harness()
    const pad = `&pad=${'x'.repeat(bodyLimits.read - 'filter[name]=Storefront&pad='.length)}`
    const body = `filter[name]=Storefront${pad}`
    expect(new TextEncoder().encode(body).byteLength).toBe(bodyLimits.read)
    const res = await get('/v2/applications.json', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    })
    expect(res.status).toBe(200)
  })
})

describe('JSON nesting', () => {
  const deep = (open: string, close: string, n: number) =>
    `{"names":${open.repeat(n)}1${close.repeat(n)}}`

  it.each([
    ['5,000 objects', deep('{"a":', '}', 5000)],
    ['10,000 arrays', deep('[', ']', 10_000)],
    ['33 levels', deep('[', ']', 32)],
  ])('answers 400 in v2 shape to a body nested %s deep', async (_, body) => {
    const { get, sim } = harness()
    const res = await get('/v2/applications.json', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      error: { title: 'The JSON request body is nested deeper than 32 levels' },
    })
    expect(sim.stats().graphqlRequests).toBe(0)
  })

  it('reads brackets inside strings as text, not nesting', async () => {
    const { get } = harness()
    const res = await get('/v2/applications.json', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ 'filter[name]': `Storefront${'['.repeat(100)}\\"` }),
    })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { applications: unknown[] }).applications).toEqual([])
  })
})

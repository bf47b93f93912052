/**
 * v2's response headers (D-extract, D-deploy, D-429 examples): Content-Type as the real API sends it,
 * ETag on 200 and 304 for a matching If-None-Match; CORS for browser clients (preflight on every v2
 * path).
 */
import { describe, expect, it } from 'vitest'
import { operations } from '../../mappings/operations'
import { DEMO_KEYS, harness } from '../helpers/harness'

const { get, app } = harness()
const list = '/v2/applications.json?filter[name]=checkout'

describe('Content-Type and ETag', () => {
  it('sends application/json and application/xml without a charset, as the real API does', async () => {
    expect((await get(list)).headers.get('content-type')).toBe('application/json')
    const xml = await get(list.replace('.json', '.xml'))
    expect(xml.headers.get('content-type')).toBe('application/xml')
  })

  it('tags every 200 with a quoted 32-hex ETag of its body, the same for the same body', async () => {
    for (const path of [list, list.replace('.json', '.xml')]) {
      const [a, b] = [await get(path), await get(path)]
      expect(a.headers.get('etag'), path).toMatch(/^"[0-9a-f]{32}"$/)
      expect(b.headers.get('etag')).toBe(a.headers.get('etag'))
      expect(a.headers.get('cache-control')).toBe('max-age=0, private, must-revalidate')
    }
    // The tag is the first 128 bits of the SHA-256 of the bytes sent (src/http/etag.ts).
    const sent = await get(list)
    const digest = await crypto.subtle.digest('SHA-256', await sent.arrayBuffer())
    const hex = Array.from(new Uint8Array(digest).subarray(0, 16), (x) =>
      x.toString(16).padStart(2, '0')
    ).join('')
    expect(sent.headers.get('etag')).toBe(`"${hex}"`)
    const other = await get('/v2/applications.json?filter[name]=storefront')
    expect(other.headers.get('etag')).not.toBe((await get(list)).headers.get('etag'))
  })

  it('answers 304 without a body to a GET whose If-None-Match names the ETag', async () => {
    const tag = (await get(list)).headers.get('etag')!
    for (const header of [tag, `W/${tag}`, `"nope", ${tag}`, '*']) {
      const res = await get(list, { headers: { 'If-None-Match': header } })
      expect(res.status, header).toBe(304)
      expect(await res.text()).toBe('')
      expect(res.headers.get('etag')).toBe(tag)
    }
    const changed = await get(list, { headers: { 'If-None-Match': '"0000"' } })
    expect(changed.status).toBe(200)
    expect((await changed.json()) as object).toHaveProperty('applications')
  })

  it('puts no ETag on errors', async () => {
    const res = await get('/v2/applications/1.json')
    expect(res.status).toBe(404)
    expect(res.headers.get('etag')).toBeNull()
  })
})

/** A concrete path for a table row: every `{param}` replaced by a number. */
const concrete = (path: string) => `${path.replace(/\{[^}]+\}/g, '12345')}.json`

describe('CORS', () => {
  it('answers a preflight OPTIONS on every path of the operations table with 204 and the allow headers, without a key', async () => {
    const paths = [...new Set(operations.map((r) => r.path))].filter((p) => p.startsWith('/v2/'))
    expect(paths.length).toBeGreaterThan(20)
    for (const path of paths) {
      const res = await app.request(concrete(path), {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://grafana.example.com',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'x-api-key',
        },
      })
      expect(res.status, path).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      const methods = res.headers.get('access-control-allow-methods')!.split(', ')
      for (const row of operations.filter((r) => r.path === path)) {
        expect(methods, path).toContain(row.method)
      }
      expect(res.headers.get('access-control-allow-headers')).toBe(
        'X-Api-Key, Api-Key, Content-Type, X-Account-Id, NewRelic-Account-Id'
      )
      expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    }
  })

  it('answers a preflight on an unknown path 404', async () => {
    const res = await app.request('/v2/nothing.json', {
      method: 'OPTIONS',
      headers: { 'Access-Control-Request-Method': 'GET' },
    })
    expect(res.status).toBe(404)
  })

  it('lets a browser read answers and errors: allow-origin and Link, X-RateLimit-* exposed', async () => {
    const origin = { Origin: 'https://grafana.example.com' }
    const ok = await get(list, { headers: origin })
    const denied = await app.request(list, { headers: origin })
    for (const res of [ok, denied]) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      const exposed = res.headers.get('access-control-expose-headers')!
      for (const h of ['Link', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
        expect(exposed).toContain(h)
      }
      expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    }
    expect(denied.status).toBe(401)
  })

  it('allows only the configured origins when CORS_ORIGINS is set', async () => {
    const h = harness({ CORS_ORIGINS: 'https://grafana.example.com, https://one.example.com:8443' })
    const ask = (origin: string) =>
      h.app.request(list, { headers: { Origin: origin, 'X-Api-Key': DEMO_KEYS.all } })
    const allowed = await ask('https://one.example.com:8443')
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://one.example.com:8443')
    expect(allowed.headers.get('vary')).toContain('Origin')
    const other = await ask('https://evil.example.com')
    expect(other.status).toBe(200)
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await h.app.request(list, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example.com', 'Access-Control-Request-Method': 'GET' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull()
  })
})

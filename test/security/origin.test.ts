/**
 * Where `Link` and the 301 `Location` point (issue 12, items 8 and 9): never at a host a client
 * named in a header nobody vouched for, never in a header a client cannot read.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfig } from '../../src/core/config'
import { parseNodeConfig } from '../../src/node/config'
import { isTrusted } from '../../src/node/trusted-proxies'
import { DEMO_KEYS, harness } from '../helpers/harness'

const forged = { 'X-Forwarded-Host': 'evil.example.net', 'X-Forwarded-Proto': 'https' }
const fromPeer = (peerAddress: string) => ({ connectionScheme: 'http' as const, peerAddress })
const listPage2 = 'http://v2bridge.internal:8787/v2/applications.json?page=2&exclude_links=true'

describe('forwarded headers', () => {
  it('ignores X-Forwarded-* from a peer that is not a trusted proxy (the default: none)', async () => {
    const { app } = harness({ ALLOW_HTTP: 'false' })
    const res = await app.request(
      listPage2,
      { headers: { 'X-Api-Key': DEMO_KEYS.all, ...forged } },
      fromPeer('203.0.113.9')
    )
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe(
      'https://v2bridge.internal:8787/v2/applications.json?page=2&exclude_links=true'
    )
  })

  it('writes Link on the host the client reached, not a forged X-Forwarded-Host', async () => {
    const { app } = harness()
    for (const env of [fromPeer('203.0.113.9'), undefined]) {
      const res = await app.request(
        listPage2,
        { headers: { 'X-Api-Key': DEMO_KEYS.all, ...forged } },
        env
      )
      expect(res.status).toBe(200)
      const link = res.headers.get('link')!
      expect(link).toContain('<http://v2bridge.internal:8787/v2/applications.json?')
      expect(link).not.toContain('evil')
    }
  })

  it('honours X-Forwarded-* from a configured trusted proxy', async () => {
    const { app } = harness({ ALLOW_HTTP: 'false', TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.1' })
    const res = await app.request(
      listPage2,
      { headers: { 'X-Api-Key': DEMO_KEYS.all, ...forged } },
      fromPeer('::ffff:10.1.2.3')
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('link')).toContain('<https://evil.example.net/v2/applications.json?')
  })

  it('answers 400 to a malformed forwarded host', async () => {
    const { app } = harness({ TRUSTED_PROXIES: '10.0.0.1' })
    for (const host of ['evil.example.net/x', 'a b', 'x@y', 'host:99999999']) {
      const res = await app.request(
        listPage2,
        { headers: { 'X-Api-Key': DEMO_KEYS.all, 'X-Forwarded-Host': host } },
        fromPeer('10.0.0.1')
      )
      expect(res.status, host).toBe(400)
      expect(await res.json()).toEqual({ error: { title: 'Invalid Host header' } })
    }
  })

  it('pins Link and Location to PUBLIC_URL', async () => {
    // A trusted proxy that says the client came over plain HTTP: redirected onto PUBLIC_URL.
    const { app } = harness({
      ALLOW_HTTP: 'false',
      PUBLIC_URL: 'https://v2.example.com/',
      TRUSTED_PROXIES: '127.0.0.1',
    })
    const redirect = await app.request(
      listPage2,
      { headers: { ...forged, 'X-Forwarded-Proto': 'http' } },
      fromPeer('127.0.0.1')
    )
    expect(redirect.headers.get('location')).toBe(
      'https://v2.example.com/v2/applications.json?page=2&exclude_links=true'
    )
    // No trusted proxy: plain HTTP is PUBLIC_URL's TLS proxy, never redirected to itself (issue 25).
    const direct = harness({ ALLOW_HTTP: 'false', PUBLIC_URL: 'https://v2.example.com/' })
    const proxied = await direct.app.request(
      listPage2,
      { headers: { 'X-Api-Key': DEMO_KEYS.all, ...forged } },
      fromPeer('10.0.0.9')
    )
    expect(proxied.status).toBe(200)
    expect(proxied.headers.get('link')).toContain('<https://v2.example.com/v2/applications.json?')
    const res = await app.request(listPage2.replace('http:', 'https:'), {
      headers: { 'X-Api-Key': DEMO_KEYS.all, ...forged },
    })
    expect(res.headers.get('link')).toContain('<https://v2.example.com/v2/applications.json?')
  })

  it('matches trusted proxies by address or IPv4 block, and validates the setting', () => {
    expect(isTrusted('10.9.8.7', ['10.0.0.0/8'])).toBe(true)
    expect(isTrusted('11.0.0.1', ['10.0.0.0/8'])).toBe(false)
    expect(isTrusted('::1', ['::1'])).toBe(true)
    expect(isTrusted(undefined, ['10.0.0.0/8'])).toBe(false)
    expect(parseNodeConfig({ TRUSTED_PROXIES: '10.0.0.0/8,::1' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '::1',
    ])
    expect(() => parseNodeConfig({ TRUSTED_PROXIES: 'proxy.internal' })).toThrow(/TRUSTED_PROXIES/)
    expect(() => parseConfig({ PUBLIC_URL: 'ftp://x' })).toThrow(ConfigError)
  })
})

describe('Link header size', () => {
  it('answers 422 in v2 shape when the pages cannot be linked in 8 KiB', async () => {
    const { get } = harness()
    const body = new URLSearchParams([
      ['filter[language]', 'java,ruby,python,nodejs,go,dotnet,php'],
      ...Array.from({ length: 48 }, (_, i): [string, string] => [`x${i}`, 'y'.repeat(1000)]),
    ]).toString()
    const res = await get('/v2/applications.json', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    })
    expect(res.status).toBe(422)
    expect(res.headers.get('link')).toBeNull()
    expect(await res.json()).toEqual({
      error: {
        title:
          'The parameters are too long to link the other pages (Link header over 8 KiB): send fewer or shorter parameters',
      },
    })
  })

  it('keeps a long parameter list when the Link still fits', async () => {
    const { get } = harness()
    const res = await get(`/v2/applications.json?x=${'y'.repeat(1500)}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('link')!.length).toBeLessThanOrEqual(8 * 1024)
  })
})

describe('one origin rule', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []
    )
  // The simulator stands for NerdGraph; the explorer script runs in the browser.
  const served = files('src').filter((f) => !/src\/(simulator\/|explorer\/script\.ts)/.test(f))
  const reads = [
    /(?:header|headers\.get)\(\s*['"`](?:host|forwarded|x-forwarded-[a-z]+)['"`]/i,
    /\b(?:url|URL\([^)]*\))\.(?:origin|host|hostname|protocol)\b/,
  ]

  it('leaves Host, X-Forwarded-* and the request URL origin to src/http/origin.ts alone', () => {
    // cli/key-transport.ts compares the origins of upstream URLs the command line sends a key to
    // (a redirect to another host is refused), never a request's.
    const offenders = served.filter(
      (f) =>
        !/src\/(http\/origin|core\/config|cli\/key-transport)\.ts$/.test(f) &&
        reads.some((r) => r.test(readFileSync(f, 'utf8')))
    )
    expect(offenders).toEqual([])
  })

  it('builds every Link on the public origin', () => {
    const calls = served
      .filter((f) => !f.endsWith('link-header.ts'))
      .flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/linkHeader\(([^,]+),\s*([^,]+),/g)].map(
          (m) => `${f}: ${m[2]}`
        )
      )
    expect(calls.length).toBeGreaterThanOrEqual(10) // the metric routes share one call since issue 26
    for (const call of calls) expect(call).toMatch(/: c\.get\('origin'\)$/)
  })
})

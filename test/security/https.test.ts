import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app'
import { isTrusted } from '../../src/node/trusted-proxies'
import { parseConfig } from '../../src/core/config'
import { startServer, type NodeServer } from '../../src/node'
import { fakeFetch } from '../helpers/fake-fetch'

const key = 'NRAK-HTTPSTEST000000000000000'
const upstream = () => fakeFetch({ body: { data: { actor: { accounts: [] } } } })
/** ALLOW_HTTP unset: the production default. */
const strict = parseConfig({ NERDGRAPH_URL: 'https://nerdgraph.test/graphql' })
const relaxed = parseConfig({ NERDGRAPH_URL: 'https://nerdgraph.test/graphql', ALLOW_HTTP: 'true' })

async function expectRedirect(res: Response, target: string) {
  expect(res.status).toBe(301)
  expect(res.headers.get('location')).toBe(target)
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(await res.text()).toBe(
    `<html><body>You are being <a href="${target.replace(/&/g, '&amp;')}">redirected</a>.</body></html>`
  )
}

describe('HTTPS on Workers (scheme from the request URL)', () => {
  it('redirects plain HTTP to the same host, path and query on https, before anything else', async () => {
    const fake = upstream()
    const app = createApp({ config: strict, fetch: fake.fetch })
    const url = 'http://v2bridge.example.com/v2/applications.json?filter[name]=a%20b&page=2'
    await expectRedirect(
      await app.request(url, { headers: { 'X-Api-Key': key } }),
      'https://v2bridge.example.com/v2/applications.json?filter[name]=a%20b&page=2'
    )
    // no key, unknown path, other method: still the redirect
    await expectRedirect(
      await app.request('http://v2bridge.example.com/v2/nothing.xml', { method: 'DELETE' }),
      'https://v2bridge.example.com/v2/nothing.xml'
    )
    expect(fake.sent).toHaveLength(0)
  })

  it('escapes the URL in the HTML body', async () => {
    const app = createApp({ config: strict, fetch: upstream().fetch })
    const res = await app.request(`http://h.example/v2/a.json?x='"><script>`)
    expect(res.status).toBe(301)
    expect(await res.text()).not.toContain('<script>')
  })

  it('serves https requests', async () => {
    const app = createApp({ config: strict, fetch: upstream().fetch })
    const res = await app.request('https://v2bridge.example.com/v2/applications.json')
    expect(res.status).toBe(401)
  })

  it('serves plain HTTP when ALLOW_HTTP is set', async () => {
    const app = createApp({ config: relaxed, fetch: upstream().fetch })
    const res = await app.request('http://127.0.0.1:8787/v2/applications.json')
    expect(res.status).toBe(401)
  })
})

describe('HTTPS on Node (scheme from the socket and a trusted proxy’s X-Forwarded-Proto)', () => {
  /** A request from the proxy at 10.0.0.5, which the configs below trust. */
  const node = (scheme: 'http' | 'https') => ({ connectionScheme: scheme, peerAddress: '10.0.0.5' })
  const proxied = { trustedProxies: ['10.0.0.0/8'] }

  it('trusts a trusted proxy’s X-Forwarded-Proto over the socket', async () => {
    const app = createApp({
      config: { ...strict, ...proxied },
      fetch: upstream().fetch,
      trustPeer: (peer) => isTrusted(peer, proxied.trustedProxies),
    })
    const path = 'http://v2bridge.example.com/v2/applications.json'
    const behindTls = await app.request(
      path,
      { headers: { 'X-Forwarded-Proto': 'https' } },
      node('http')
    )
    expect(behindTls.status).toBe(401)
    const plain = await app.request(path, {}, node('http'))
    expect(plain.status).toBe(301)
    const forwardedPlain = await app.request(
      path,
      { headers: { 'X-Forwarded-Proto': 'http, https' } },
      node('https')
    )
    expect(forwardedPlain.status).toBe(301)
    const tlsSocket = await app.request(path, {}, node('https'))
    expect(tlsSocket.status).toBe(401)
  })

  it('with ALLOW_HTTP, serves plain connections but still redirects a forwarded plain-HTTP client', async () => {
    const app = createApp({
      config: { ...relaxed, ...proxied },
      fetch: upstream().fetch,
      trustPeer: (peer) => isTrusted(peer, proxied.trustedProxies),
    })
    const path = 'http://127.0.0.1:8787/v2/applications.json'
    expect((await app.request(path, {}, node('http'))).status).toBe(401)
    const forwarded = await app.request(
      path,
      { headers: { 'X-Forwarded-Proto': 'http' } },
      node('http')
    )
    await expectRedirect(forwarded, 'https://127.0.0.1:8787/v2/applications.json')
  })

  describe('fails closed behind trusted proxies and an https PUBLIC_URL', () => {
    const app = createApp({
      config: { ...strict, ...proxied, publicUrl: 'https://v2bridge.example.com' },
      fetch: upstream().fetch,
      trustPeer: (peer) => isTrusted(peer, proxied.trustedProxies),
    })
    const path = 'http://10.0.0.9:8787/v2/applications.json?page=2'
    const target = 'https://v2bridge.example.com/v2/applications.json?page=2'
    const from = (peer: string, proto?: string, method = 'GET') =>
      app.request(
        path,
        { method, headers: proto === undefined ? {} : { 'X-Forwarded-Proto': proto } },
        { connectionScheme: 'http' as const, peerAddress: peer }
      )

    it('serves only X-Forwarded-Proto: https from a trusted proxy', async () => {
      expect((await from('10.0.0.5', 'https')).status).toBe(401)
      expect((await from('10.0.0.5', 'HTTPS')).status).toBe(401)
    })

    it.each([
      ['missing', undefined],
      ['http', 'http'],
      ['gopher', 'gopher'],
      ['empty', ''],
      ['https second', 'gopher, https'],
    ])('redirects a read whose X-Forwarded-Proto is %s, as plain HTTP', async (_, proto) => {
      await expectRedirect(await from('10.0.0.5', proto), target)
    })

    it('answers a write with a missing or odd X-Forwarded-Proto as plain HTTP, never serving it', async () => {
      for (const proto of [undefined, 'gopher', 'http'])
        await expectRedirect(await from('10.0.0.5', proto, 'POST'), target)
    })

    it('redirects plain HTTP from a peer it does not trust, whatever that peer says', async () => {
      await expectRedirect(await from('192.0.2.1'), target)
      await expectRedirect(await from('192.0.2.1', 'https'), target)
    })
  })

  describe('through a real socket', () => {
    let server: NodeServer | undefined
    afterEach(async () => {
      await server?.close()
      server = undefined
    })

    it('redirects a plain-HTTP connection and serves one a TLS proxy forwarded', async () => {
      const config = { ...strict, port: 0, trustedProxies: ['127.0.0.1'] }
      server = await startServer(config, upstream().fetch, { log: () => {} })
      const url = `${server.url}/v2/applications.json?page=1`
      const plain = await fetch(url, { redirect: 'manual' })
      await expectRedirect(plain, `https://${new URL(server.url).host}/v2/applications.json?page=1`)
      const proxied = await fetch(url, { headers: { 'X-Forwarded-Proto': 'https' } })
      expect(proxied.status).toBe(401)
      expect(await proxied.json()).toEqual({ error: { title: 'No API key specified' } })
    })

    it('with TRUSTED_PROXIES and an https PUBLIC_URL, redirects a connection whose proxy says nothing or gopher', async () => {
      const publicUrl = 'https://v2bridge.example.com'
      const config = { ...strict, port: 0, trustedProxies: ['127.0.0.1'], publicUrl }
      server = await startServer(config, upstream().fetch, { log: () => {} })
      const url = `${server.url}/v2/applications.json`
      const say = (proto?: string) =>
        fetch(url, {
          redirect: 'manual',
          headers: proto === undefined ? {} : { 'X-Forwarded-Proto': proto },
        })
      await expectRedirect(await say(), `${publicUrl}/v2/applications.json`)
      await expectRedirect(await say('gopher'), `${publicUrl}/v2/applications.json`)
      expect((await say('https')).status).toBe(401)
    })
  })
})

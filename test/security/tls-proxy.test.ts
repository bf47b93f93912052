/**
 * docs/deploy.md "Node behind a TLS proxy", as written (issue 25, item 1): v2bridge on loopback behind a
 * proxy that sets X-Forwarded-Proto and X-Forwarded-Host. With TRUSTED_PROXIES and PUBLIC_URL every
 * call answers 200 with its links on the public origin; with PUBLIC_URL alone nothing redirects to
 * itself; with neither, plain HTTP is redirected and the start-up line says why.
 */
import { createServer, request, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseNodeConfig, plainHttpLine } from '../../src/node/config'
import { isTrusted } from '../../src/node/trusted-proxies'
import { startServer, type NodeServer } from '../../src/node'
import { DEMO_KEYS, startSimulatorServer, type SimulatorServer } from '../../simulator'

let sim: SimulatorServer
const closing: (() => Promise<void>)[] = []
beforeAll(async () => {
  sim = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
})
afterAll(async () => {
  await Promise.all(closing.map((close) => close()))
  await sim.close()
})

/** The walkthrough's proxy: forwards to v2bridge and sets (replaces) the two headers. */
async function proxyTo(bridge: NodeServer): Promise<string> {
  const server: Server = createServer((req, res) => {
    const headers = {
      ...req.headers,
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'v2bridge.example.com',
    }
    const upstream = request(
      `${bridge.url}${req.url}`,
      { method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    req.pipe(upstream)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  closing.push(() => new Promise((done) => server.close(() => done())))
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}

async function bridgeWith(env: Record<string, string>) {
  const config = parseNodeConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    NERDGRAPH_URL: `${sim.url}/graphql`,
    ...env,
  })
  const bridge = await startServer(config, undefined, { log: () => {} })
  closing.push(() => bridge.close())
  return { bridge, line: plainHttpLine(config), proxy: await proxyTo(bridge) }
}

const call = (base: string) =>
  fetch(`${base}/v2/applications.json`, {
    headers: { 'X-Api-Key': DEMO_KEYS.all },
    redirect: 'manual',
  })

describe('Node behind a TLS proxy', () => {
  it('answers 200 with links on the public origin, as the docs/deploy.md walkthrough sets it up', async () => {
    const { proxy, line } = await bridgeWith({
      TRUSTED_PROXIES: '127.0.0.1,::1',
      PUBLIC_URL: 'https://v2bridge.example.com',
    })
    const res = await call(proxy)
    expect(res.status).toBe(200)
    expect(res.headers.get('link')).toMatch(
      /^<https:\/\/v2bridge\.example\.com\/v2\/applications\.json\?page=2>/
    )
    expect(line).toBe(
      'plain HTTP: redirected to https unless the proxy at 127.0.0.1, ::1 (TRUSTED_PROXIES) sets X-Forwarded-Proto: https'
    )
  })

  it('never redirects to itself with PUBLIC_URL alone', async () => {
    const { proxy, line } = await bridgeWith({ PUBLIC_URL: 'https://v2bridge.example.com' })
    expect((await call(proxy)).status).toBe(200)
    expect(line).toContain('accepted as the TLS proxy of https://v2bridge.example.com')
  })

  it('redirects plain HTTP with neither setting, and says so at start', async () => {
    const { bridge, line } = await bridgeWith({})
    const res = await call(bridge.url)
    expect(res.status).toBe(301)
    expect(line).toBe(
      'plain HTTP: redirected to https (v2 answered plain HTTP with 301); behind a TLS proxy set TRUSTED_PROXIES and PUBLIC_URL'
    )
  })

  it('trusts IPv6 addresses and blocks as well as IPv4 ones', () => {
    const proxies = ['10.0.0.0/8', 'fd00::/8', '2001:db8::1', '::1']
    expect(isTrusted('10.1.2.3', proxies)).toBe(true)
    expect(isTrusted('::ffff:10.1.2.3', proxies)).toBe(true)
    expect(isTrusted('fd12:3456::7', proxies)).toBe(true)
    expect(isTrusted('2001:db8:0:0:0:0:0:1', proxies)).toBe(true)
    expect(isTrusted('::1', proxies)).toBe(true)
    expect(isTrusted('fe80::1', proxies)).toBe(false)
    expect(isTrusted('11.0.0.1', proxies)).toBe(false)
    expect(isTrusted('2001:db8::2', proxies)).toBe(false)
    expect(() => parseNodeConfig({ TRUSTED_PROXIES: 'fd00::/129' })).toThrow('TRUSTED_PROXIES')
    expect(parseNodeConfig({ TRUSTED_PROXIES: 'fd00::/8, 127.0.0.1' }).trustedProxies).toEqual([
      'fd00::/8',
      '127.0.0.1',
    ])
  })
})

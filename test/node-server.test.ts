/** v2bridge over real HTTP on loopback, in front of the simulator over real HTTP. */
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../src/core/config'
import { startServer, type NodeServer } from '../src/node'
import { parseNodeConfig } from '../src/node/config'
import { DEMO_KEYS, startSimulatorServer, type SimulatorServer } from '../simulator'

let sim: SimulatorServer
let bridge: NodeServer

beforeAll(async () => {
  sim = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
  const config = parseConfig({ PORT: '0', NERDGRAPH_URL: `${sim.url}/graphql`, ALLOW_HTTP: 'true' })
  bridge = await startServer(config, undefined, { log: () => {} })
})
afterAll(async () => {
  await bridge.close()
  await sim.close()
})

/** A GET that carries a form body, as `curl -X GET -d …` sends it (the v2 docs' curl examples). */
function getWithBody(path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${bridge.url}${path}`, {
      method: 'GET',
      headers: {
        'X-Api-Key': DEMO_KEYS.all,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': Buffer.byteLength(body),
      },
    })
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('the Node server', () => {
  it('lists applications from the simulator over real sockets', async () => {
    const res = await fetch(`${bridge.url}/v2/applications.json?filter[name]=Storefront`, {
      headers: { 'X-Api-Key': DEMO_KEYS.all },
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { applications: { name: string }[] }
    // the key's own account, 1000001 (src/entities/accounts.ts listAccount)
    expect(body.applications.map((a) => a.name)).toEqual(['Storefront (ruby)'])
  })

  it('reads a form body sent with GET, like the curl examples of the v2 docs', async () => {
    const res = await getWithBody(
      '/v2/applications.json',
      'filter[name]=Cart+Gateway&exclude_links=true'
    )
    expect(res.status).toBe(200)
    const body = JSON.parse(res.text) as { applications: { name: string }[]; links?: unknown }
    expect(body.applications.map((a) => a.name)).toEqual(['Cart Gateway (nodejs)'])
    expect(body.links).toBeUndefined()
  })
})

describe('/metrics of the Node entry (issue 25, item 5)', () => {
  it('adds process and runtime metrics and v2bridge_build_info after the app’s own', async () => {
    const text = await (await fetch(`${bridge.url}/metrics`)).text()
    expect(text).toContain('v2bridge_http_requests_total')
    expect(text).toMatch(/\nprocess_resident_memory_bytes \d+\n/)
    expect(text).toMatch(/\nprocess_cpu_seconds_total [\d.]+\n/)
    expect(text).toMatch(/\nnodejs_heap_size_used_bytes \d+\n/)
    expect(text).toMatch(/\nnodejs_eventloop_lag_p99_seconds [\d.e-]+\n/)
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    expect(text).toContain(
      `v2bridge_build_info{version="${pkg.version}",node="${process.version}"} 1\n`
    )
    // Every sample line is `name{labels} value` and every name has its TYPE line.
    for (const line of text
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('#'))) {
      expect(line).toMatch(/^[a-z_:][a-z0-9_:]*(\{[^}]*\})? -?[\d.e+-]+$/i)
      const name = line.split(/[{ ]/)[0]!.replace(/_(bucket|sum|count)$/, '')
      expect(text).toMatch(new RegExp(`# TYPE (${name}|${line.split(/[{ ]/)[0]}) `))
    }
  })
})

describe('METRICS_PORT (issue 25, item 5)', () => {
  it('serves /metrics on its own port only, and the public port answers it 404', async () => {
    const config = {
      ...parseNodeConfig({
        NERDGRAPH_URL: `${sim.url}/graphql`,
        ALLOW_HTTP: 'true',
        PORT: '0',
        METRICS_PORT: '0',
      }),
    }
    const server = await startServer(config, undefined, { log: () => {} })
    try {
      expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(server.metricsUrl).not.toBe(server.url)
      const calls = await fetch(`${server.url}/v2/applications.json`, {
        headers: { 'X-Api-Key': DEMO_KEYS.all },
      })
      expect(calls.status).toBe(200)
      const scrape = await fetch(`${server.metricsUrl}/metrics`)
      expect(scrape.status).toBe(200)
      expect(scrape.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
      const text = await scrape.text()
      expect(text).toMatch(
        /v2bridge_http_requests_total\{route="\/v2\/applications",method="GET",status="200"\} 1\n/
      )
      expect(text).toMatch(/\nprocess_resident_memory_bytes \d+\n/)
      const publicPort = await fetch(`${server.url}/metrics`)
      expect(publicPort.status).toBe(404)
      expect(await publicPort.json()).toEqual({ error: { title: 'Not found' } })
      const other = await fetch(`${server.metricsUrl}/v2/applications.json`)
      expect(other.status).toBe(404)
    } finally {
      await server.close()
    }
  })

  it('is a port number', () => {
    expect(() => parseNodeConfig({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT/)
    expect(parseNodeConfig({}).metricsPort).toBeUndefined()
  })
})

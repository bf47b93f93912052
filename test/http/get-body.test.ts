/**
 * A GET body (curl `-X GET -d`, the command template of New Relic's v2 docs, D-intro) reads as the
 * same parameters in the query would, on the Node entry over real HTTP (issue 40, item 5; the
 * Worker's side: test/workers/get-body.test.ts).
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_KEYS, startSimulatorServer, type SimulatorServer } from '../../simulator'
import { parseConfig } from '../../src/core/config'
import { startServer, type NodeServer } from '../../src/node'

let sim: SimulatorServer
let bridge: NodeServer
beforeAll(async () => {
  sim = await startSimulatorServer({ port: 0 })
  bridge = await startServer(
    parseConfig({ PORT: '0', NERDGRAPH_URL: `${sim.url}/graphql`, ALLOW_HTTP: 'true' }),
    undefined,
    { log: () => {} }
  )
})
afterAll(async () => {
  await bridge.close()
  await sim.close()
})

/** GET `path` with `body` as a form, by node:http (fetch cannot send a GET body). */
function getWithBody(path: string, body: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(`${bridge.url}${path}`, {
      method: 'GET',
      headers: {
        'X-Api-Key': DEMO_KEYS.all,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': String(Buffer.byteLength(body)),
      },
    })
    req.on('error', reject)
    req.on('response', (res) => {
      let text = ''
      res.on('data', (d: Buffer) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode!, text }))
    })
    req.end(body)
  })
}

const inQuery = async (path: string, query: string) => {
  const res = await fetch(`${bridge.url}${path}?${query}`, {
    headers: { 'X-Api-Key': DEMO_KEYS.all },
  })
  return { status: res.status, text: await res.text() }
}

describe('a GET body on the Node entry', () => {
  it('filters the application list as filter[name] in the query does', async () => {
    const body = await getWithBody('/v2/applications.json', 'filter[name]=Checkout')
    expect(body).toEqual(await inQuery('/v2/applications.json', 'filter[name]=Checkout'))
    const { applications } = JSON.parse(body.text) as { applications: { name: string }[] }
    expect(applications.length).toBeGreaterThan(0)
    for (const app of applications) expect(app.name.toLowerCase()).toContain('checkout')
  })

  it('reads names[] of a metric-data call as the query does', async () => {
    const form = 'names[]=HttpDispatcher&values[]=call_count&summarize=true'
    const path = '/v2/applications/9045822/metrics/data.json'
    const body = await getWithBody(path, form)
    expect(body.status).toBe(200)
    const found = (t: string) =>
      (JSON.parse(t) as { metric_data: { metrics_found: string[] } }).metric_data.metrics_found
    expect(found(body.text)).toEqual(['HttpDispatcher'])
    expect(found(body.text)).toEqual(found((await inQuery(path, form)).text))
  })
})

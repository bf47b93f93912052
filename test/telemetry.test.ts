import { describe, expect, it } from 'vitest'
import { createApp } from '../src/app'
import { Histogram } from '../src/core/prometheus'
import { DEMO_KEYS, harness } from './helpers/harness'

/** The value of one sample line, e.g. `v2bridge_cache_hits_total{cache="accounts"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

async function scrape(app: { request: (path: string) => Response | Promise<Response> }) {
  const res = await app.request('/metrics')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  return res.text()
}

const setFault = (sim: { fetch(r: Request): Promise<Response> }, fault: object) =>
  sim.fetch(
    new Request('http://simulator.test/_sim/faults', {
      method: 'POST',
      body: JSON.stringify(fault),
    })
  )

describe('/metrics', () => {
  it('counts requests by route template, method and status, and NerdGraph requests', async () => {
    const { app, get, sim } = harness({ METRICS: 'true' })
    const list = (await get('/v2/applications.json')).status
    const apps = (await (await get('/v2/applications.json')).json()) as {
      applications: { id: number }[]
    }
    const id = apps.applications[0]!.id
    expect([list, (await get(`/v2/applications/${id}.json`)).status]).toEqual([200, 200])
    expect((await get(`/v2/applications/${id}.xml`, { key: null })).status).toBe(401)
    expect((await get('/v2/nothing/at/all.json')).status).toBe(404)
    expect((await get(`/v2/applications/${id}.json`, { method: 'PATCH' })).status).toBe(405)

    const text = await scrape(app)
    const route = (r: string, m: string, s: number) =>
      sample(text, `v2bridge_http_requests_total{route="${r}",method="${m}",status="${s}"}`)
    expect(route('/v2/applications', 'GET', 200)).toBe(2)
    expect(route('/v2/applications/{id}', 'GET', 200)).toBe(1)
    expect(route('/v2/applications/{id}', 'GET', 401)).toBe(1)
    expect(route('unmatched', 'GET', 404)).toBe(1)
    // A method the known path does not serve: its route, not `unmatched`.
    expect(route('/v2/applications/{id}', 'PATCH', 405)).toBe(1)
    expect(text).not.toContain('route="unmatched",method="PATCH"')
    expect(
      sample(
        text,
        'v2bridge_http_request_duration_seconds_count{route="/v2/applications",method="GET"}'
      )
    ).toBe(2)
    expect(sample(text, 'v2bridge_nerdgraph_requests_total')).toBe(sim.stats().graphqlRequests)
    expect(sample(text, 'v2bridge_nerdgraph_request_duration_seconds_count')).toBe(
      sim.stats().graphqlRequests
    )
    expect(sample(text, 'v2bridge_nerdgraph_queue_depth')).toBe(0)
    expect(sample(text, 'v2bridge_nerdgraph_in_flight')).toBe(0)
    // Templates and fixed names only: no raw path, ID or key anywhere.
    expect(text).not.toContain(String(id))
    expect(text).not.toContain('nothing')
    expect(text).not.toContain('NRAK')
  })

  it('counts cache hits and misses per cache', async () => {
    const { app, get } = harness({ METRICS: 'true' })
    const apps = (await (await get('/v2/applications.json')).json()) as {
      applications: { id: number }[]
    }
    const id = apps.applications[0]!.id
    await get(`/v2/applications/${id}.json`)
    await get(`/v2/applications/${id}.json`)
    const text = await scrape(app)
    const hits = sample(text, 'v2bridge_cache_hits_total{cache="applications"}') ?? 0
    const misses = sample(text, 'v2bridge_cache_misses_total{cache="applications"}') ?? 0
    expect(hits).toBeGreaterThanOrEqual(1)
    expect(hits + misses).toBeGreaterThanOrEqual(2)
  })

  it('counts NerdGraph faults by class and the retries they cause', async () => {
    const { app, get, sim } = harness({ METRICS: 'true' })
    await setFault(sim, { status: 503, count: 1 })
    expect((await get('/v2/applications.json')).status).toBe(200)
    await setFault(sim, { errorClass: 'TIMEOUT' })
    expect((await get('/v2/applications.json?filter[name]=x')).status).toBe(504)
    const text = await scrape(app)
    expect(sample(text, 'v2bridge_nerdgraph_faults_total{class="http5xx"}')).toBe(1)
    expect(sample(text, 'v2bridge_nerdgraph_faults_total{class="transient"}')).toBe(3)
    expect(sample(text, 'v2bridge_nerdgraph_retries_total')).toBe(3)
  })

  it('is not served by the Worker, even with METRICS=true; METRICS=false turns it off on Node', async () => {
    const worker = createApp()
    for (const bindings of [{}, { METRICS: 'true' }]) {
      const res = await worker.request('https://bridge.test/metrics', {}, bindings)
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ error: { title: 'Not found' } })
    }
    const { app } = harness({ METRICS: 'false' })
    expect(
      (await app.request('/metrics', { headers: { 'X-Api-Key': DEMO_KEYS.all } })).status
    ).toBe(404)
  })

  it('prints sums without float noise', () => {
    const h = new Histogram('t_seconds', 'test', [0.5])
    for (const v of [0.1, 0.2]) h.observe([], v)
    expect(0.1 + 0.2).not.toBe(0.3) // what binary addition leaves
    expect(h.render()).toContain('t_seconds_sum 0.3')
    h.observe([], 1e-7)
    expect(h.render()).toContain('t_seconds_sum 0.3000001')
  })
})

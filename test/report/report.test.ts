import { describe, expect, it } from 'vitest'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { createSimulator } from '../../simulator'
import type { ReportStore } from '../../src/report'
import { memoryStore } from '../../src/report/store'

const appId = 9045822
const window = 'from=2026-11-20T10:00:00%2B00:00&to=2026-11-20T11:00:00%2B00:00'
const dataPath = `/v2/applications/${appId}/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&${window}`

interface Op {
  method: string
  path: string
  answer: string
  becomes: string
  client: string
  count: number
  errors: number
  first_seen: string
  last_seen: string
  parameters: string[]
  metric_names: string[]
  value_types: string[]
  nerdgraph: { operation: string; variables: string[]; nrql: string[] }[]
  fields: Record<string, string>
}
interface Report {
  report: { key: string; end_of_life: string; operations: Op[] }
}

const report = async (h: ReturnType<typeof harness>, key: string) => {
  const res = await h.get('/v2bridge/report.json', { key })
  expect(res.status).toBe(200)
  return { text: await res.clone().text(), body: (await res.json()) as Report }
}

describe('the migration report', () => {
  it('lists the caller’s operations with parameter names, metric names, value types and counts', async () => {
    const h = harness()
    const ua = { 'User-Agent': 'python-requests/2.31.0' }
    expect((await h.get(dataPath, { headers: ua })).status).toBe(200)
    expect((await h.get(dataPath, { headers: ua })).status).toBe(200)
    expect((await h.get('/v2/applications.json?filter[name]=Checkout')).status).toBe(200)
    const { body } = await report(h, DEMO_KEYS.all)
    expect(body.report.end_of_life).toBe('2027-07-31')
    const [data, list] = body.report.operations
    expect(data).toMatchObject({
      method: 'GET',
      path: '/v2/applications/{application_id}/metrics/data',
      answer: 'served',
      becomes: 'NerdGraph: actor.account.nrql',
      client: 'Python',
      count: 2,
      errors: 0,
      parameters: ['from', 'names[]', 'to', 'values[]'],
      metric_names: ['HttpDispatcher'],
      value_types: ['call_count'],
    })
    expect(Date.parse(data!.first_seen)).toBeLessThanOrEqual(Date.parse(data!.last_seen))
    expect(data!.nerdgraph.map((d) => d.operation)).toEqual(['FindEntity', 'MetricData'])
    expect(data!.nerdgraph[1]!.variables).toEqual(expect.arrayContaining(['accountId', 'q0']))
    expect(data!.nerdgraph[1]!.nrql[0]).toMatch(/^SELECT .*FROM Metric WHERE/)
    expect(data!.fields['metric_data.metrics[].name']).toBe('FACET metricTimesliceName')
    expect(list).toMatchObject({ path: '/v2/applications', parameters: ['filter[name]'], count: 1 })
  })

  it('never holds parameter values or the key', async () => {
    const h = harness()
    await h.get(dataPath)
    await h.get(`/v2/applications.json?filter[name]=Checkout&filter[ids]=${appId}`)
    await h.get(`/v2/applications/${appId}.json`)
    const { text } = await report(h, DEMO_KEYS.all)
    for (const value of [String(appId), 'Checkout', '2026-11-20', DEMO_KEYS.all]) {
      expect(text).not.toContain(value)
    }
  })

  it('never shows another key’s calls', async () => {
    const h = harness()
    await h.get(dataPath, { key: DEMO_KEYS.all })
    await h.get('/v2/applications.json', { key: DEMO_KEYS.one })
    const all = (await report(h, DEMO_KEYS.all)).body.report.operations.map((o) => o.path)
    const one = (await report(h, DEMO_KEYS.one)).body.report.operations.map((o) => o.path)
    expect(all).toEqual(['/v2/applications/{application_id}/metrics/data'])
    expect(one).toEqual(['/v2/applications'])
    const stranger = await report(h, 'NRAK-SOMEONEELSE000000000000000')
    expect(stranger.body.report.operations).toEqual([])
  })

  it('records retired calls with what they become, and skips explain calls', async () => {
    const h = harness()
    // A retired call reaches no upstream: it counts once the key has been proven (issue 22, item 3).
    expect((await h.get('/v2/plugins.json')).status).toBe(410)
    expect((await report(h, DEMO_KEYS.all)).body.report.operations).toEqual([])
    expect((await h.get('/v2/servers.json')).status).toBe(200)
    expect((await h.get('/v2/plugins.json')).status).toBe(410)
    expect((await h.get(dataPath, { headers: { 'X-V2bridge-Explain': '1' } })).status).toBe(200)
    const ops = (await report(h, DEMO_KEYS.all)).body.report.operations
    expect(ops.filter((o: { path: string }) => o.path === '/v2/plugins')).toEqual([
      expect.objectContaining({
        path: '/v2/plugins',
        answer: 'retired',
        becomes: 'Retired by New Relic (410)',
        errors: 1,
        client: 'unknown',
      }),
    ])
  })

  it('answers 401 in v2 shape without a key', async () => {
    const h = harness()
    const res = await h.get('/v2bridge/report.json', { key: null })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ error: { title: 'No API key specified' } })
  })

  it('serves the report page without a key: a static page that asks for it (issue 25, item 11)', async () => {
    const h = harness()
    const res = await h.get('/v2bridge/report', { key: null })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    const html = await res.text()
    expect(html).toContain('31 July 2027')
    expect(html).toContain('<input id="key" type="password"')
    expect(html).toContain('<script src="/v2bridge/report/app.js"></script>')
    const script = await (await h.get('/v2bridge/report/app.js', { key: null })).text()
    expect(script).toContain("fetch('/v2bridge/report.json', { headers: { 'X-Api-Key': key } })")
    expect(script).not.toMatch(/innerHTML|insertAdjacentHTML|document\.write/)
    expect((await h.get('/v2bridge/report/app.css', { key: null })).status).toBe(200)
  })

  it('answers without waiting for the store', async () => {
    const sim = createSimulator()
    const never: ReportStore = { record: () => new Promise(() => {}), read: async () => [] }
    const app = createApp({
      config: parseConfig({ NERDGRAPH_URL: 'http://sim.test/graphql', ALLOW_HTTP: 'true' }),
      fetch: ((i: RequestInfo | URL, init?: RequestInit) =>
        sim.fetch(new Request(i, init))) as typeof fetch,
      report: never,
    })
    const res = await app.request(dataPath, { headers: { 'X-Api-Key': DEMO_KEYS.all } })
    expect(res.status).toBe(200)
  })
})

describe('the migration report and the legacy deployments API v0', () => {
  it('lists POST /deployments among the caller’s operations', async () => {
    const h = harness()
    const res = await h.get('/deployments.xml', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'deployment[application_id]=9045822&deployment[revision]=r1',
    })
    expect(res.status).toBe(201)
    const { body } = await report(h, DEMO_KEYS.all)
    expect(body.report.operations).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        path: '/deployments',
        count: 1,
        parameters: ['deployment[application_id]', 'deployment[revision]'],
      })
    )
  })
})

describe('the report and keys NerdGraph never accepted (issue 22, item 3)', () => {
  it('keeps nothing for 1,000 calls with made-up keys, and records the next real one', async () => {
    const sim = createSimulator()
    const store = memoryStore()
    const app = createApp({
      config: parseConfig({ NERDGRAPH_URL: 'http://simulator.test/graphql', ALLOW_HTTP: 'true' }),
      fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
        sim.fetch(new Request(input, init))) as typeof fetch,
      report: store,
    })
    for (let i = 0; i < 1_000; i++) {
      const key = `NRAK-BOGUS${String(i).padStart(23, '0')}`
      const path = i % 2 ? '/v2/applications.json' : '/v2/plugins.json'
      const res = await app.request(path, { headers: { 'X-Api-Key': key } })
      expect(res.status).toBe(i % 2 ? 401 : 410)
    }
    expect(store.size()).toEqual({ keys: 0, bytes: 0 })
    const res = await app.request('/v2/applications.json', {
      headers: { 'X-Api-Key': DEMO_KEYS.all },
    })
    expect(res.status).toBe(200)
    expect(store.size().keys).toBe(1)
  })
})

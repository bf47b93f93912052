import { describe, expect, it } from 'vitest'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { apmGuid } from '../../simulator'

const appId = 9045822
const window = 'from=2026-11-20T10:00:00%2B00:00&to=2026-11-20T11:00:00%2B00:00'
const dataPath = `/v2/applications/${appId}/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&values[]=average_response_time&${window}`
const explainHeaders = { 'X-V2bridge-Explain': '1' }

interface Described {
  operation: string | null
  kind: string
  document: string
  variables: Record<string, unknown>
  nrql: string[]
  curl?: string
}
interface Explained {
  explain: {
    operation: { method: string; path: string; answer: string; nerdgraph: string[] }
    request: { method: string; path: string; parameters: [string, string][] }
    lookups: Described[]
    nerdgraph: Described[]
    fields: Record<string, string>
    forwarded?: { url: string }
  }
}

describe('explain mode', () => {
  it('shows for a metric-data call exactly the NRQL the call itself sends, and sends none of it', async () => {
    const h = harness()
    const res = await h.get(dataPath, { headers: explainHeaders })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const { explain } = (await res.json()) as Explained
    expect(explain.operation).toMatchObject({
      method: 'GET',
      path: '/v2/applications/{application_id}/metrics/data',
      answer: 'served',
    })
    // The usual lookup (the application's account) went upstream; the metric query did not.
    expect(explain.lookups.map((l) => l.operation)).toEqual(['FindEntity'])
    expect(h.sim.stats().nrqlQueries).toBe(0)
    expect(explain.nerdgraph).toHaveLength(1)
    const [planned] = explain.nerdgraph
    expect(planned!.operation).toBe('MetricData')
    expect(planned!.variables['q0']).toBe(planned!.nrql[0])
    expect(planned!.nrql[0]).toMatch(/^SELECT .* FROM Metric WHERE .*FACET metricTimesliceName/)
    expect(explain.fields['metric_data.metrics[].name']).toBe('FACET metricTimesliceName')

    const real = await h.get(dataPath)
    expect(real.status).toBe(200)
    expect([...h.sim.stats().queries].sort()).toEqual([...planned!.nrql].sort())
  })

  it('answers the same plan under the /explain/v2/ prefix', async () => {
    const h = harness()
    const byHeader = (await (
      await h.get(dataPath, { headers: explainHeaders })
    ).json()) as Explained
    const res = await h.get(`/explain${dataPath}`)
    expect(res.status).toBe(200)
    const byPrefix = (await res.json()) as Explained
    expect(byPrefix.explain.nerdgraph).toEqual(byHeader.explain.nerdgraph)
    expect(byPrefix.explain.request.path).toBe(`/v2/applications/${appId}/metrics/data.json`)
  })

  it('never puts the key in the plan, and gives a curl line with $NEW_RELIC_USER_KEY', async () => {
    const h = harness()
    const text = await (await h.get(dataPath, { headers: explainHeaders })).text()
    expect(text).not.toContain(DEMO_KEYS.all)
    const { explain } = JSON.parse(text) as Explained
    const curl = explain.nerdgraph[0]!.curl!
    expect(curl).toContain('-H "API-Key: $NEW_RELIC_USER_KEY"')
    // A private NERDGRAPH_URL (here the simulator's) is shown by its setting's name (issue 22, item 2).
    // in double quotes, so the shell expands it (test/explain/curl.test.ts runs the line).
    expect(curl).toContain('-X POST "$NERDGRAPH_URL"')
    // The body in the curl line is the document and variables, shell-quoted.
    const body = /--data-binary '((?:[^']|'\\'')*)'$/.exec(curl)![1]!.replace(/'\\''/g, "'")
    expect(JSON.parse(body)).toEqual({
      query: explain.nerdgraph[0]!.document,
      variables: explain.nerdgraph[0]!.variables,
    })
  })

  it('sends only the key check when the account is pinned (issue 22, item 2: a plan needs a good key)', async () => {
    const h = harness()
    const res = await h.get(dataPath, { headers: { ...explainHeaders, 'X-Account-Id': '1' } })
    const { explain } = (await res.json()) as Explained
    expect(explain.lookups.map((l) => l.operation)).toEqual(['KeyCheck'])
    expect(explain.nerdgraph[0]!.variables['accountId']).toBe(1)
    expect(h.sim.stats().graphqlRequests).toBe(1)
    expect(h.sim.stats().nrqlQueries).toBe(0)
  })

  it('explains a list call even when its answer is cached', async () => {
    const h = harness()
    expect((await h.get('/v2/applications.json')).status).toBe(200)
    const res = await h.get('/v2/applications.json', { headers: explainHeaders })
    const { explain } = (await res.json()) as Explained
    // the key's own account: its user, then two pages of that user's keys (src/entities/accounts.ts listAccount)
    expect(explain.lookups.map((l) => l.operation)).toEqual([
      'KeyCheck',
      'KeyAccount',
      'KeyAccount',
    ])
    expect(explain.nerdgraph.map((n) => n.operation)).toEqual(['ListApplications'])
    expect(explain.nerdgraph[0]!.variables['query']).toContain("accountId = '1000001'")
    expect(explain.fields['applications[].name']).toBe('entity.name')
  })

  it('explains a cold host metric data call as its one request: data split by host, members beside', async () => {
    const h = harness()
    const hosts = (await (await h.get(`/v2/applications/${appId}/hosts.json`)).json()) as {
      application_hosts: { id: number; host: string }[]
    }
    const host = hosts.application_hosts[0]!
    const path = `/v2/applications/${appId}/hosts/${host.id}/metrics/data.json?names[]=HttpDispatcher&${window}`
    const { explain } = (await (await h.get(path, { headers: explainHeaders })).json()) as Explained
    // Explain starts from empty caches, so the call is the cold one (src/resources/metrics/cold-scope.ts).
    expect(explain.nerdgraph).toHaveLength(1)
    const nrql = explain.nerdgraph[0]!.nrql
    expect(nrql[0]).toContain('FACET metricTimesliceName, host SINCE')
    expect(nrql.some((q) => q.includes("uniques(instanceName, 1000) AS 'instances'"))).toBe(true)
  })

  it('answers v2 errors as usual: unknown application, missing key', async () => {
    const h = harness()
    const missing = await h.get('/v2/applications/1/metrics/data.json?names[]=Apdex', {
      headers: explainHeaders,
    })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({
      error: { title: 'No Application found with the given ID' },
    })
    const noKey = await h.get(dataPath, { key: null, headers: explainHeaders })
    expect(noKey.status).toBe(401)
  })

  it('answers an XML path in JSON', async () => {
    const h = harness()
    const res = await h.get(`/explain/v2/applications/${appId}.xml`)
    expect(res.status).toBe(200)
    const { explain } = (await res.json()) as Explained
    expect(explain.nerdgraph.map((n) => n.operation)).toEqual(['ShowApplication'])
  })
})

describe('explain mode for writes', () => {
  it('plans a deployment without creating it: the mutation is shown, never sent', async () => {
    const h = harness()
    const guid = apmGuid(1000001, appId)
    const before = h.dataset.deployments.of(guid).length
    const res = await h.get(`/v2/applications/${appId}/deployments.json`, {
      method: 'POST',
      headers: { ...explainHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ deployment: { revision: 'v42', user: 'ci' } }),
    })
    expect(res.status).toBe(200)
    const { explain } = (await res.json()) as Explained
    expect(explain.operation).toMatchObject({ method: 'POST', answer: 'served' })
    const [mutation] = explain.nerdgraph
    expect(mutation!.kind).toBe('mutation')
    expect(JSON.stringify(mutation!.variables)).toContain('v42')
    expect(mutation!.curl).toContain('-H "API-Key: $NEW_RELIC_USER_KEY"')
    expect(h.dataset.deployments.of(guid)).toHaveLength(before)
  })
})

describe('the /explain/v2/ prefix', () => {
  it('carries a write’s body through to the plan', async () => {
    const h = harness()
    const res = await h.get(`/explain/v2/applications/${appId}/deployments.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ deployment: { revision: 'prefix-7' } }),
    })
    expect(res.status).toBe(200)
    const { explain } = (await res.json()) as Explained
    expect(explain.nerdgraph[0]!.kind).toBe('mutation')
    expect(JSON.stringify(explain.nerdgraph[0]!.variables)).toContain('prefix-7')
  })
})

describe('explain mode for the legacy deployments API v0', () => {
  const v0Body = 'deployment[app_name]=Checkout Service (java)&deployment[revision]=v0-explained'
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' }

  it('plans POST /deployments.xml without recording a deployment, with the header or the prefix', async () => {
    const h = harness()
    const guid = apmGuid(1000001, appId)
    const before = h.dataset.deployments.of(guid).length
    for (const [path, headers] of [
      ['/deployments.xml', { ...form, ...explainHeaders }],
      ['/explain/deployments.xml', form],
    ] as const) {
      const res = await h.get(path, { method: 'POST', headers, body: v0Body })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      const { explain } = (await res.json()) as Explained
      expect(explain.operation).toMatchObject({ method: 'POST', path: '/deployments' })
      const mutation = explain.nerdgraph.find((d) => d.kind === 'mutation')
      expect(JSON.stringify(mutation!.variables)).toContain('v0-explained')
      expect(explain.lookups.length).toBeGreaterThan(0) // the app name → entity lookup was sent
    }
    expect(h.dataset.deployments.of(guid)).toHaveLength(before)
  })
})

/**
 * GET /applications/:id/metrics (and its host and instance forms): names with their value lists, the
 * `name` filter, 1000-name pages by cursor or page number with Link headers, the per-key cache.
 */
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { fakeFetch } from '../helpers/fake-fetch'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { cost, hostIdOf, instanceIdOf } from './helpers'

interface NamesBody {
  metrics: { name: string; values: string[] }[]
}

const { get, sim, dataset } = harness()
const sorted = (list: string[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

describe('GET /applications/:id/metrics', () => {
  it("lists every metric name of the application with its family's values", async () => {
    const res = await get('/v2/applications/9045822/metrics.json')
    expect(res.status).toBe(200)
    expect(res.headers.get('link')).toBeNull()
    const body = (await res.json()) as NamesBody
    expect(body.metrics.map((m) => m.name)).toEqual(sorted(dataset.metricNames(9045822)))
    const values = (name: string) => body.metrics.find((m) => m.name === name)!.values
    // D-names/MRF lists (average_call_time only appears in data responses, D-extract).
    expect(values('HttpDispatcher')).toEqual([
      'average_response_time',
      'calls_per_minute',
      'call_count',
      'min_response_time',
      'max_response_time',
      'average_exclusive_time',
      'average_value',
      'total_call_time_per_minute',
      'requests_per_minute',
      'standard_deviation',
    ])
    expect(values('Apdex')).toEqual([
      's',
      't',
      'f',
      'count',
      'score',
      'value',
      'threshold',
      'threshold_min',
    ])
    expect(values('EndUser/Apdex')).toEqual(values('Apdex'))
    expect(values('Memory/Physical')).toEqual([
      'used_bytes_by_host',
      'used_mb_by_host',
      'total_used_mb',
    ])
    expect(values('CPU/User Time')).toEqual(['percent', 'average_time', 'total_time'])
    expect(values('Errors/all')).toEqual(['error_count', 'errors_per_minute'])
  })

  it('filters by a case-sensitive plain substring, applied upstream', async () => {
    const spent = await cost(sim, async () => {
      const body = (await (
        await get('/v2/applications/9045822/metrics.json?name=Datastore/')
      ).json()) as NamesBody
      expect(body.metrics.map((m) => m.name)).toEqual(
        sorted(dataset.metricNames(9045822).filter((n) => n.includes('Datastore/')))
      )
    })
    expect(spent.queries[0]).toContain("metricTimesliceName LIKE '%Datastore/%'")
    const none = (await (
      await get('/v2/applications/9045822/metrics.json?name=datastore/')
    ).json()) as NamesBody
    expect(none.metrics).toEqual([])
  })

  it('treats % and _ in the filter as plain characters, not LIKE wildcards', async () => {
    const app = 9045851 // Function/recommendations.views:for_user has an underscore
    const all = dataset.metricNames(app)
    const underscore = (await (
      await get(`/v2/applications/${app}/metrics.json?name=_`)
    ).json()) as NamesBody
    expect(underscore.metrics.map((m) => m.name)).toEqual(
      sorted(all.filter((n) => n.includes('_')))
    )
    expect(underscore.metrics.length).toBeLessThan(all.length)
    const percent = (await (
      await get(`/v2/applications/${app}/metrics.json?name=%25`)
    ).json()) as NamesBody
    expect(percent.metrics).toEqual([])
  })

  it('lists the names of one host, and of one instance', async () => {
    const app = dataset.application(9045822)!
    const hostName = app.instances[0]!.host
    const hostId = await hostIdOf(get, app.id, hostName)
    const body = (await (
      await get(`/v2/applications/${app.id}/hosts/${hostId}/metrics.json?name=EndUser`)
    ).json()) as NamesBody
    const browser = ['EndUser', 'EndUser/Apdex', 'EndUser/errors'] // app-wide, on the first instance
    expect(body.metrics.map((m) => m.name)).toEqual(browser)
    const other = app.instances.find((i) => i.host !== hostName)!
    const otherId = await hostIdOf(get, app.id, other.host)
    const none = (await (
      await get(`/v2/applications/${app.id}/hosts/${otherId}/metrics.json?name=EndUser`)
    ).json()) as NamesBody
    expect(none.metrics).toEqual([]) // EndUser rows come from the first instance only
    const first = app.instances[0]!
    const instanceId = await instanceIdOf(
      get,
      app.id,
      first.host,
      Number(first.instanceName.split(':')[1])
    )
    const path = `/v2/applications/${app.id}/instances/${instanceId}/metrics.json?name=EndUser`
    const spent = await cost(sim, async () => {
      const one = (await (await get(path)).json()) as NamesBody
      expect(one.metrics.map((m) => m.name)).toEqual(browser)
    })
    expect(spent.queries[0]).toContain(`instanceName = '${first.instanceName}'`)
  })

  it('caches names per key and application: a repeated call costs no request', async () => {
    await get('/v2/applications/9045837/metrics.json')
    const spent = await cost(sim, () => get('/v2/applications/9045837/metrics.json'))
    expect(spent.requests).toBe(0)
    const other = await cost(sim, () =>
      get('/v2/applications/9045837/metrics.json', { key: DEMO_KEYS.one })
    )
    expect(other.requests).toBeGreaterThan(0) // another key never reads this key's cache
  })

  it('renders metrics_response in XML', async () => {
    const res = await get('/v2/applications/9045822/metrics.xml?name=Apdex')
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/)
    expect(await res.text()).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<metrics_response>',
        '  <metrics>',
        ...['Apdex', 'EndUser/Apdex'].flatMap((name) => [
          '    <metric>',
          `      <name>${name}</name>`,
          '      <values>',
          ...['s', 't', 'f', 'count', 'score', 'value', 'threshold', 'threshold_min'].map(
            (v) => `        <value>${v}</value>`
          ),
          '      </values>',
          '    </metric>',
        ]),
        '  </metrics>',
        '</metrics_response>',
        '',
      ].join('\n')
    )
  })
})

describe('paging metric names', () => {
  const total = 2500
  const names = Array.from(
    { length: total },
    (_, i) => `Custom/metric/${String(i).padStart(4, '0')}`
  )
  function pinned() {
    const upstream = fakeFetch({
      body: {
        data: {
          actor: {
            account: { nrql: { results: [{ names: [...names].reverse() }], metadata: null } },
          },
        },
      },
    })
    const app = createApp({
      config: parseConfig({
        NERDGRAPH_URL: 'https://nerdgraph.test/graphql',
        ALLOW_HTTP: 'true',
        ACCOUNT_ID: '1000001',
      }),
      fetch: upstream.fetch,
    })
    const request = (url: string, headers: Record<string, string> = {}) =>
      app.request(url, { headers: { 'X-Api-Key': DEMO_KEYS.all, ...headers } })
    return { request, upstream }
  }
  const next = (link: string | null) => /<([^>]+)>; rel="next"/.exec(link ?? '')?.[1]

  it('walks 1000-name pages by cursor through rel="next" alone, with one upstream request', async () => {
    const { request, upstream } = pinned()
    const seen: string[] = []
    let url: string | undefined = 'http://proxy.test/v2/applications/42/metrics.json?name=Custom'
    let pages = 0
    while (url) {
      const res = await request(url)
      const body = (await res.json()) as NamesBody
      seen.push(...body.metrics.map((m) => m.name))
      url = next(res.headers.get('link'))
      if (url) {
        expect(url).toMatch(
          /^http:\/\/proxy\.test\/v2\/applications\/42\/metrics\.json\?name=Custom&cursor=[\w-]+$/
        )
        expect(res.headers.get('link')!.startsWith(`<${url}>; rel="next"`)).toBe(true)
      }
      pages++
    }
    expect(pages).toBe(3)
    expect(seen).toEqual(names)
    expect(upstream.sent).toHaveLength(1)
    expect(upstream.sent[0]!.variables['nrql']).toContain('uniques(metricTimesliceName, 10000)')
  })

  it('gives page links (next first, then last, first, prev) when the caller pages by number', async () => {
    const { request } = pinned()
    const res = await request(
      'https://api.example.com/v2/applications/42/metrics.json?page=2&name=Custom'
    )
    const body = (await res.json()) as NamesBody
    expect(body.metrics[0]!.name).toBe(names[1000])
    expect(body.metrics).toHaveLength(1000)
    const base = 'https://api.example.com/v2/applications/42/metrics.json?name=Custom'
    expect(res.headers.get('link')).toBe(
      `<${base}&page=3>; rel="next", <${base}&page=3>; rel="last", ` +
        `<${base}&page=1>; rel="first", <${base}&page=1>; rel="prev"`
    )
  })

  it('answers a page past the end with an empty list', async () => {
    const { request } = pinned()
    const res = await request('http://proxy.test/v2/applications/42/metrics.json?page=9')
    expect(((await res.json()) as NamesBody).metrics).toEqual([])
  })

  it('answers 422 for a cursor it did not issue, before any upstream request', async () => {
    const { request, upstream } = pinned()
    const res = await request('http://proxy.test/v2/applications/42/metrics.json?cursor=bogus')
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ error: { title: "Invalid 'cursor' parameter" } })
    expect(upstream.sent).toHaveLength(0)
  })
})

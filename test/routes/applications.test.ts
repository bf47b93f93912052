import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { expectGolden, pretty } from '../helpers/golden'
import { harvestOffsetMs } from '../../simulator'
import { expectStrictV2 } from '../helpers/strict-client'

/** A fixed clock makes the simulator's data, and so every golden body, reproducible. */
const now = Date.parse('2026-11-20T12:00:30.000Z')
beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now }))
afterAll(() => void vi.useRealTimers())

const upstream = (h: ReturnType<typeof harness>) => h.sim.stats().graphqlRequests

interface AppRecord {
  id: number
  name: string
  language: string
  health_status: string
  reporting: boolean
  last_reported_at?: string
  application_summary?: Record<string, number>
  end_user_summary?: Record<string, number>
  links: { application_hosts: number[]; application_instances: number[] }
}

async function list(h: ReturnType<typeof harness>, path: string, init = {}) {
  const res = await h.get(path, init)
  expect(res.status).toBe(200)
  return { res, body: (await res.json()) as { applications: AppRecord[] } }
}

describe('GET /v2/applications', () => {
  it('matches the golden JSON and XML bodies for a name filter', async () => {
    const h = harness()
    const json = await h.get('/v2/applications.json?filter[name]=Checkout')
    expect(json.headers.get('content-type')).toBe('application/json')
    expect(json.headers.get('link')).toBeNull()
    const text = await json.text()
    expectStrictV2(JSON.parse(text), 'applications')
    expectGolden('applications-checkout.json', pretty(text))
    const xml = await h.get('/v2/applications.xml?filter[name]=Checkout')
    expect(xml.headers.get('content-type')).toBe('application/xml')
    expectGolden('applications-checkout.xml', await xml.text())
  })

  it('walks every application of the key’s own account through Link headers alone, one request a page', async () => {
    const h = harness()
    // A v2 REST key belonged to one account and listed it (docs/keys-and-accounts.md); the demo key
    // was created in 1000001 and also sees 1000002.
    const expected = h.dataset.applications(1000001).map((a) => a.id)
    expect(expected.length).toBeGreaterThan(400)
    const seen: number[] = []
    const perPage: number[] = []
    let url: string | undefined =
      'https://v2bridge.test/v2/applications.json?filter[language]=java,go,ruby,python,nodejs,dotnet'
    let pages = 0
    while (url) {
      const before = upstream(h)
      const { res, body } = await list(h, url)
      perPage.push(upstream(h) - before)
      seen.push(...body.applications.map((a) => a.id))
      expect(body.applications.length).toBeLessThanOrEqual(200)
      const link = res.headers.get('link')
      if (pages === 0) {
        expect(link).toMatch(
          /^<https:\/\/v2bridge\.test\/v2\/applications\.json\?filter%5Blanguage%5D=java%2Cgo%2Cruby%2Cpython%2Cnodejs%2Cdotnet&page=2>; rel="next", <[^>]+page=3>; rel="last"$/
        )
      }
      url = /<([^>]+)>; rel="next"/.exec(link ?? '')?.[1]
      pages += 1
    }
    expect(pages).toBe(Math.ceil(expected.length / 200))
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.sort()).toEqual([...expected].sort())
    // the first page also learns the key's own account (its user, then two pages of that user's
    // keys); every later page is one request
    expect(perPage[0]).toBe(4)
    expect(perPage.slice(1)).toEqual(perPage.slice(1).map(() => 1))
  })

  it('writes Link URLs on PUBLIC_URL, ignoring X-Forwarded-*, and keeps every parameter', async () => {
    const h = harness({ PUBLIC_URL: 'https://api.example.com' })
    const res = await h.get('http://internal:8787/v2/applications.xml?page=2&exclude_links=true', {
      headers: { 'X-Forwarded-Host': 'evil.example.net', 'X-Forwarded-Proto': 'http' },
    })
    expect(res.headers.get('link')).toBe(
      '<https://api.example.com/v2/applications.xml?exclude_links=true&page=3>; rel="next", ' +
        '<https://api.example.com/v2/applications.xml?exclude_links=true&page=3>; rel="last", ' +
        '<https://api.example.com/v2/applications.xml?exclude_links=true&page=1>; rel="first", ' +
        '<https://api.example.com/v2/applications.xml?exclude_links=true&page=1>; rel="prev"'
    )
    const text = await res.text()
    expect(text).toContain('<applications_response>')
    expect(text).not.toContain('<application.servers>')
  })

  it('answers a page past the end with 200 and an empty list', async () => {
    const h = harness()
    const { res, body } = await list(h, '/v2/applications.json?page=9')
    expect(body.applications).toEqual([])
    expect(res.headers.get('link')).toBeNull()
  })

  // issue 37 item 8: no recorded v2 answer shows a bad page; Rails reads it with `to_i`.
  it("reads page as Rails' to_i does: 0, -1, two and 1.5 are the first page", async () => {
    const h = harness()
    for (const page of ['0', '-1', 'two', '1.5']) {
      const first = await list(h, `/v2/applications.json?page=${page}&filter[name]=Storefront`)
      expect(first.res.status).toBe(200)
      expect(first.body.applications.map((a) => a.name)).toEqual(['Storefront (ruby)'])
    }
    const past = await list(h, '/v2/applications.json?page=2x&filter[name]=Storefront')
    expect(past.body.applications).toEqual([])
  })

  it('reads filter[ids]=abc as ID 0: 200 and an empty list, as Rails code reads an ID', async () => {
    const h = harness()
    const { res, body } = await list(h, '/v2/applications.json?filter[ids]=abc')
    expect(res.status).toBe(200)
    expect(body.applications).toEqual([])
  })

  it('routes a path with a trailing slash as Rails routing does (the slash dropped)', async () => {
    const h = harness()
    const { res, body } = await list(h, '/v2/applications.json/?filter[name]=Storefront')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/json/)
    expect(body.applications.map((a) => a.name)).toEqual(['Storefront (ruby)'])
  })

  it('filters by name case-insensitively, by ids in every spelling and by language lists', async () => {
    const h = harness()
    const names = async (q: string, init = {}) =>
      (await list(h, `/v2/applications.json?${q}`, init)).body.applications.map((a) => a.name)
    expect(await names('filter[name]=checkout+service')).toEqual(['Checkout Service (java)'])
    const staging = { headers: { 'X-Account-Id': '1000002' } }
    expect(await names('filter[name]=checkout+service', staging)).toEqual([
      'Checkout Service (staging)',
    ])
    const pair = ['Recommendations API (python)', 'Storefront (ruby)']
    expect(await names('filter[ids]=9045837,9045851')).toEqual(pair)
    expect(await names('filter%5Bids%5D=9045837%2C9045851')).toEqual(pair)
    expect(await names('filter[ids]=9045837&filter[ids]=9045851')).toEqual(pair)
    expect(await names('filter[id]=9045851')).toEqual(['Recommendations API (python)'])
    const goOrRuby = await names('filter[language]=go,ruby&filter[name]=(')
    expect(goOrRuby).toContain('Inventory Worker (go)')
    expect(goOrRuby).toContain('Storefront (ruby)')
    expect(goOrRuby.every((n) => /go|ruby|staging|Fleet/.test(n))).toBe(true)
    expect(await names('filter[language]=go&filter[ids]=9045837')).toEqual([])
  })

  it('filters by host: the applications that reported from a matching host', async () => {
    const h = harness()
    const { body } = await list(h, '/v2/applications.json?filter[host]=IP-10-0-1-17')
    const ids = body.applications.map((a) => a.id).sort()
    const truth = h.dataset
      .applications()
      .filter((a) => a.reporting && a.hosts.some((host) => host.includes('ip-10-0-1-17')))
      .map((a) => a.id)
      .sort()
    expect(truth.length).toBeGreaterThanOrEqual(2)
    expect(ids).toEqual(truth)
  })

  it('serves POST as a read with a form body or a JSON body (ansible, hubot, node clients)', async () => {
    const h = harness()
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', 'filter[name]=Storefront'],
      ['application/json', JSON.stringify({ 'filter[name]': 'Storefront' })],
    ]) {
      const res = await h.get('/v2/applications.json', {
        method: 'POST',
        body,
        headers: { 'Content-Type': type! },
      })
      expect(res.status).toBe(200)
      const apps = ((await res.json()) as { applications: AppRecord[] }).applications
      expect(apps.map((a) => a.name)).toEqual(['Storefront (ruby)'])
    }
  })

  it('shows a non-reporting application gray, without summaries or last_reported_at', async () => {
    const h = harness()
    const { body } = await list(h, '/v2/applications.json?filter[ids]=9045874')
    const app = body.applications[0]!
    expect(app).toMatchObject({ reporting: false, health_status: 'gray' })
    expect(Object.keys(app)).toEqual([
      'id',
      'name',
      'language',
      'health_status',
      'reporting',
      'settings',
      'links',
    ])
    expect(app.links).toEqual({ application_instances: [], servers: [], application_hosts: [] })
  })

  // `settings` are settings (v2 explorer AppSettingsResponse: "Whether end user monitoring is
  // enabled", "End user Apdex threshold"), shown whether the app reports or not: the gray app of
  // the contract's §2.1 example keeps `enable_real_user_monitoring: true`. Without browser data,
  // NerdGraph still names the browser app the app serves (`servingApmApplicationId`, `apdexTarget`).
  it('shows the browser settings of a non-reporting application in the list and on show', async () => {
    const h = harness()
    const stopped = h.dataset.applications().filter((a) => !a.reporting && a.browserApdexT !== null)
    expect(stopped.length).toBeGreaterThan(0)
    for (const a of stopped) {
      const expected = {
        enable_real_user_monitoring: true,
        end_user_apdex_threshold: a.browserApdexT,
      }
      const { body } = await list(h, `/v2/applications.json?filter[ids]=${a.id}`)
      const listed = body.applications[0] as unknown as { settings: object }
      expect(listed.settings, String(a.id)).toMatchObject(expected)
      const shown = (await (await h.get(`/v2/applications/${a.id}.json`)).json()) as {
        application: { settings: object }
      }
      expect(shown.application.settings, String(a.id)).toMatchObject(expected)
    }
    const plain = await list(h, '/v2/applications.json?filter[ids]=9045874')
    expect((plain.body.applications[0] as unknown as { settings: object }).settings).toMatchObject({
      enable_real_user_monitoring: false,
      end_user_apdex_threshold: 7,
    })
  })

  it('reports summaries in v2 units that agree with the timeslices', async () => {
    const h = harness()
    const { body } = await list(h, '/v2/applications.json?filter[ids]=9045822')
    const app = body.applications[0]!
    const truth = h.dataset.application(9045822)!
    // "The last time the application reported data" (v2 explorer applications.json), to the second
    // (D-health): its newest Transaction event, in the last minute of timeslices at the agent's
    // harvest second (simulator/data/apm/harvest.ts), not the minute's end
    const reported = truth.lastReportedAt + harvestOffsetMs(truth)
    expect(app.last_reported_at).toBe(new Date(reported).toISOString().slice(0, 19) + '+00:00')
    expect(app.last_reported_at).not.toMatch(/:00\+00:00$/)
    // a web application: response time of its web transactions (HttpDispatcher), in ms, over the
    // simulated NerdGraph apmSummary's window (its last 3 minutes, simulator/data/apm/summary.ts)
    const from = Math.floor(now / 60_000) * 60_000 - 3 * 60_000
    const rows = ['HttpDispatcher'].flatMap((name) =>
      h.dataset.timeslices({ appId: 9045822, name, from, to: from + 3 * 60_000 })
    )
    const calls = rows.reduce((s, r) => s + r.value.count, 0)
    const time = rows.reduce((s, r) => s + r.value.total, 0)
    expect(app.application_summary!['response_time']).toBe(
      Number(((time / calls) * 1000).toPrecision(3))
    )
    expect(app.application_summary!['throughput']).toBe(Number((calls / 3).toPrecision(3)))
    expect(app.links.application_hosts).toHaveLength(truth.hosts.length)
    expect(app.links.application_instances).toHaveLength(truth.instances.length)
    expect(app.end_user_summary!['apdex_target']).toBe(7)
  })
})

describe('GET /v2/applications/:id', () => {
  it('matches the golden JSON and XML bodies', async () => {
    const h = harness()
    const json = await h.get('/v2/applications/9045837.json')
    expect(json.status).toBe(200)
    const text = await json.text()
    expectStrictV2(JSON.parse(text), 'application')
    expectGolden('application-9045837.json', pretty(text))
    const xml = await h.get('/v2/applications/9045837.xml')
    expectGolden('application-9045837.xml', await xml.text())
  })

  it('costs one NerdGraph request with a warm cache, or with a pinned account', async () => {
    const h = harness()
    await h.get('/v2/applications/9045851.json')
    const before = upstream(h)
    expect((await h.get('/v2/applications/9045851.json')).status).toBe(200)
    expect(upstream(h) - before).toBe(1)
    const cold = harness()
    const res = await cold.get('/v2/applications/9045851.json', {
      headers: { 'X-Account-Id': '1000001' },
    })
    expect(res.status).toBe(200)
    expect(upstream(cold)).toBe(1)
  })

  it('answers 404 in v2 shape for an unknown ID, a bad ID and an app the key cannot see', async () => {
    const h = harness()
    const cases: [string, string | undefined][] = [
      ['/v2/applications/12345.json', DEMO_KEYS.all],
      ['/v2/applications/abc.json', DEMO_KEYS.all],
      ['/v2/applications/9045822.json', DEMO_KEYS.one],
    ]
    for (const [path, key] of cases) {
      const res = await h.get(path, { key })
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({
        error: { title: 'No Application found with the given ID' },
      })
    }
    const pinned = await h.get('/v2/applications/9045822.xml', {
      key: DEMO_KEYS.one,
      headers: { 'X-Account-Id': '1000001' },
    })
    expect(pinned.status).toBe(404)
    expect(await pinned.text()).toContain('<title>No Application found with the given ID</title>')
  })
})

describe('routes under /v2/applications/:id', () => {
  it('answer 404 "No Application found" when the pinned account is not the key\'s', async () => {
    const h = harness()
    for (const path of [
      '/v2/applications/9045822.json',
      '/v2/applications/9045822/hosts.json',
      '/v2/applications/9045822/instances.xml',
      '/v2/applications/9045822/hosts/5/metrics/data.json?names[]=HttpDispatcher',
      '/v2/applications/9045822/metrics.json',
      '/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher',
    ]) {
      const res = await h.get(path, { key: DEMO_KEYS.one, headers: { 'X-Account-Id': '1000001' } })
      expect(res.status, path).toBe(404)
      expect(await res.text(), path).toContain('No Application found with the given ID')
    }
  })
})

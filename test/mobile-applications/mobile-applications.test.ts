import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { expectStrictV2 } from '../helpers/strict-client'
import { round3 } from '../../src/core/numbers'

const now = Date.parse('2026-11-20T12:00:30.000Z')
beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now }))
afterAll(() => void vi.useRealTimers())

type H = ReturnType<typeof harness>
interface MobileApp {
  id: number
  name: string
  health_status: string
  reporting: boolean
  mobile_summary?: Record<string, number>
  crash_summary?: Record<string, number | boolean>
}

async function get<T>(h: H, path: string, init = {}) {
  const res = await h.get(path, init)
  expect(res.status, path).toBe(200)
  return { res, body: (await res.json()) as T }
}

describe('GET /v2/mobile_applications', () => {
  it('lists mobile apps under `applications` with NerdGraph’s summary figures', async () => {
    const h = harness()
    const { body } = await get<{ applications: MobileApp[] }>(h, '/v2/mobile_applications.json')
    expectStrictV2(body as unknown as Record<string, unknown>, 'applications')
    // the key's own account, 1000001 (src/entities/accounts.ts listAccount), by ID as v2's ID lists
    // (New Relic docs "List an app's host IDs and instance IDs"); 'Shop iOS (beta)' is in 1000002,
    // which X-Account-Id lists
    expect(body.applications.map((a) => [a.id, a.name])).toEqual([
      [601483762, 'Shop iOS'],
      [601483779, 'Shop Android'],
      [601483791, 'Courier App (Android)'],
      [601483805, 'Legacy Shop (iOS 12)'],
    ])
    const staging = await get<{ applications: MobileApp[] }>(h, '/v2/mobile_applications.json', {
      headers: { 'X-Account-Id': '1000002' },
    })
    expect(staging.body.applications.map((a) => a.name)).toEqual(['Shop iOS (beta)'])
    const ios = body.applications.find((a) => a.id === 601483762)!
    expect(Object.keys(ios)).toEqual([
      'id',
      'name',
      'health_status',
      'reporting',
      'mobile_summary',
      'crash_summary',
    ])
    const entity = h.dataset.entities().find((e) => e.domainId === '601483762')!
    const summary = (entity.value('outline')['mobileSummary'] as () => Record<string, number>)()
    // v2 explorer MobileSummaryDataResponse: throughput is the requests of the 30 minutes,
    // failed_call_rate the http errors, remote_error_rate the network failures; 3 significant
    // digits as the ambitioninc/newrelic-api mobile fixture (test/mobile-applications/summary.test.ts)
    expect(ios.mobile_summary).toEqual({
      active_users: summary['mobileSessionCount'],
      launch_count: summary['appLaunchCount'],
      throughput: round3(summary['httpRequestCount']!),
      response_time: round3(summary['httpResponseTimeAverage']!),
      calls_per_session: round3(summary['httpRequestCount']! / summary['mobileSessionCount']!),
      failed_call_rate: summary['httpErrorRate'],
      remote_error_rate: summary['networkFailureRate'],
    })
    expect(ios.crash_summary).toEqual({
      supports_crash_data: true,
      crash_count: summary['crashCount'],
      crash_rate: summary['crashRate'],
    })
    const legacy = body.applications.find((a) => a.id === 601483805)!
    expect(legacy).toEqual({
      id: 601483805,
      name: 'Legacy Shop (iOS 12)',
      health_status: 'gray',
      reporting: false,
    })
  })

  it('filters by name and ids, and renders XML under applications_response', async () => {
    const h = harness()
    const { body } = await get<{ applications: MobileApp[] }>(
      h,
      '/v2/mobile_applications.json?filter[name]=shop+ios'
    )
    expect(body.applications.map((a) => a.id)).toEqual([601483762]) // 601484110 is in 1000002
    const xml = await (await h.get('/v2/mobile_applications.xml?filter[ids]=601483805')).text()
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<applications_response>\n  <applications>\n    <application>\n' +
        '      <id>601483805</id>\n      <name>Legacy Shop (iOS 12)</name>\n      <health_status>gray</health_status>\n' +
        '      <reporting>false</reporting>\n    </application>\n  </applications>\n</applications_response>\n'
    )
  })
})

describe('GET /v2/mobile_applications/{id}', () => {
  it('shows one app under `application` in one request, and 404 for others', async () => {
    const h = harness()
    const before = h.sim.stats().graphqlRequests
    const { body } = await get<{ application: MobileApp }>(
      h,
      '/v2/mobile_applications/601483779.json'
    )
    expect(h.sim.stats().graphqlRequests - before).toBe(1)
    expect(body.application).toMatchObject({ id: 601483779, name: 'Shop Android', reporting: true })
    const hidden = await h.get('/v2/mobile_applications/601483779.json', { key: DEMO_KEYS.one })
    expect(hidden.status).toBe(404)
    expect(await hidden.json()).toEqual({
      error: { title: 'No Mobile Application found with the given ID' },
    })
    expect((await h.get('/v2/mobile_applications/9045822.json')).status).toBe(404)
  })
})

describe('mobile metric names and data', () => {
  it('lists the app’s metric names', async () => {
    const h = harness()
    const { body } = await get<{ metrics: { name: string }[] }>(
      h,
      '/v2/mobile_applications/601483762/metrics.json'
    )
    expect(body.metrics.map((m) => m.name)).toEqual([
      'External/all',
      'Mobile/Crash/All',
      'Session/Duration',
      'Session/Start',
    ])
  })

  it('answers crash count with the singular name= of New Relic’s example, from the app’s rows', async () => {
    const h = harness()
    const { body } = await get<{
      metric_data: { metrics: { name: string; timeslices: { values: Record<string, number> }[] }[] }
    }>(
      h,
      '/v2/mobile_applications/601483762/metrics/data.json?name=Mobile/Crash/All&values[]=call_count&summarize=true'
    )
    const entity = h.dataset.entities().find((e) => e.domainId === '601483762')!
    const nrql = h.sim
      .stats()
      .queries.find((q) => q.includes('FACET metricTimesliceName') && !q.includes('uniques('))!
    const [, since, until] = /SINCE (\d+) UNTIL (\d+)/.exec(nrql)!.map(Number)
    const rows = [
      ...h.dataset.store.scan({
        accountId: 1000001,
        since: since!,
        until: until!,
        entityGuids: [entity.guid],
      }),
    ]
    const crashes = rows
      .filter((r) => r.metricTimesliceName === 'Mobile/Crash/All')
      .reduce((a, r) => a + r.value.count, 0)
    expect(body.metric_data.metrics).toHaveLength(1)
    expect(body.metric_data.metrics[0]!.timeslices[0]!.values).toEqual({ call_count: crashes })
    expect(nrql).toContain(`entity.guid = '${entity.guid}'`)
    expect(nrql).toContain(`metricTimesliceName IN ('Mobile/Crash/All')`)
  })

  it('answers 404 for an unknown mobile app on the metric paths', async () => {
    const h = harness()
    const res = await h.get('/v2/mobile_applications/1/metrics/data.json?names[]=Session/Start')
    expect(res.status).toBe(404)
  })
})

describe('POST /v2/mobile_applications', () => {
  it('creates an app through agentApplicationCreateMobile: 201 with its token', async () => {
    const h = harness()
    const res = await h.get('/v2/mobile_applications.json', {
      method: 'POST',
      body: JSON.stringify({ mobile_application: { name: 'New App' } }),
      headers: { 'content-type': 'application/json', 'X-Account-Id': '1000001' },
    })
    expect(res.status).toBe(201)
    const created = h.dataset.resources.state.createdMobile[0]!
    expect(await res.json()).toEqual({
      application: { id: created.id, name: 'New App', application_token: created.applicationToken },
    })
    const alias = await h.get('/v2/mobile_applications.json', {
      method: 'POST',
      body: 'application[name]=Other',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'X-Account-Id': '1000001' },
    })
    expect(alias.status).toBe(201)
    expect(h.dataset.resources.state.createdMobile.map((m) => m.name)).toEqual(['New App', 'Other'])
  })
})

describe('mobile metrics under a pinned account', () => {
  it('answers 404 for an app outside the pinned account, and costs one request once warm', async () => {
    const h = harness({ ACCOUNT_ID: '1000002' })
    const path = '/v2/mobile_applications/601483762/metrics/data.json?names[]=Session/Start'
    expect((await h.get(path)).status).toBe(404)
    const own =
      '/v2/mobile_applications/601484110/metrics/data.json?names[]=Session/Start&summarize=true'
    expect((await h.get(own)).status).toBe(200)
    const before = h.sim.stats().graphqlRequests
    // Another window: the same closed window's answer would be reused (src/upstream/reuse.ts).
    const minute = Math.floor(Date.now() / 60_000) * 60_000
    const window = `&from=${new Date(minute - 40 * 60_000).toISOString()}&to=${new Date(minute - 10 * 60_000).toISOString()}`
    expect((await h.get(own + window)).status).toBe(200)
    expect(h.sim.stats().graphqlRequests - before).toBe(1)
  })
})

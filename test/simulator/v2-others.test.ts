/**
 * The v2 stand-in's key transactions, browser and mobile applications, users, labels and alerts
 * reads (simulator/v2/resources.ts, alerts.ts, mobile-metrics.ts): the oracle v2bridge is compared
 * with (issue 24). Expected values are recomputed here from the raw dataset (catalog rows, minute
 * formulas, alerts seed); each expectation names the source of v2's answer.
 */
import { describe, expect, it } from 'vitest'
import { DEMO_KEYS, alertsOf, type Simulator } from '../../simulator'
import { mobileMinute, MOBILE_METRICS } from '../../simulator/data/resources/rows'
import { withoutLast } from '../../simulator/v2/alerts'
import { fixedSimulator, MINUTE, NOW } from './graphql-client'

const END = Math.floor(NOW / MINUTE) * MINUTE
const PROD = 1000001
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00')
const r3 = (v: number) => (v === 0 ? 0 : Number(v.toPrecision(3)))

async function v2(
  sim: Simulator,
  path: string,
  init: { key?: string | null; method?: string } = {}
) {
  const headers: Record<string, string> = {}
  const key = init.key === undefined ? DEMO_KEYS.all : init.key
  if (key !== null) headers['X-Api-Key'] = key
  const res = await sim.fetch(
    new Request(`http://sim.test/v2/${path}`, { method: init.method ?? 'GET', headers })
  )
  const text = await res.text()
  const json = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined
  return { status: res.status, headers: res.headers, text, json }
}

describe('v2 stand-in: key transactions', () => {
  const sim = fixedSimulator()
  const kts = sim.dataset.resources.keyTransactions

  it('shows one with 10-minute summaries from its own rows, in the client-go key order', async () => {
    // explorer key_transactions notes: "The time range for summary data is the last 10 minutes";
    // key order: newrelic-client-go pkg/apm key_transactions_test.go; docs "Summary data examples"
    const kt = kts.find((k) => k.id === 2247001)!
    const s = {
      calls: 0,
      time: 0,
      errors: 0,
      s: 0,
      t: 0,
      f: 0,
      loads: 0,
      load: 0,
      es: 0,
      et: 0,
      ef: 0,
    }
    const since = END - 10 * MINUTE
    const hint = { accountId: PROD, since, until: END, entityGuids: [kt.guid] }
    for (const { metricTimesliceName: n, value: v } of sim.dataset.resources.rows(
      PROD,
      since,
      END,
      hint
    )) {
      if (n === kt.metricName) ((s.calls += v.count), (s.time += v.total))
      if (n === 'Errors/all') s.errors += v.count
      if (n === 'Apdex') ((s.s += v.count), (s.t += v.total), (s.f += v.totalExclusive))
      if (n === 'EndUser') ((s.loads += v.count), (s.load += v.total))
      if (n === 'EndUser/Apdex') ((s.es += v.count), (s.et += v.total), (s.ef += v.totalExclusive))
    }
    expect(s.calls).toBeGreaterThan(0)
    const { status, json } = await v2(sim, 'key_transactions/2247001.json')
    expect(status).toBe(200)
    const body = json.key_transaction
    expect(Object.keys(json)).toEqual(['key_transaction', 'links'])
    expect(Object.keys(body)).toEqual([
      ...['id', 'name', 'transaction_name', 'health_status', 'reporting', 'last_reported_at'],
      ...['application_summary', 'end_user_summary', 'links'],
    ])
    expect(body).toMatchObject({
      id: 2247001,
      name: 'Checkout: place order',
      // display name, not the metric name (client-go fixture "get /"; docs "/ws/Reaction")
      transaction_name: 'CartController/checkout',
      health_status: 'red', // alertSeverity CRITICAL (docs "Application reporting and health status")
      reporting: true,
      // the application's last_reported_at (apm-apps.ts): its last minute, at its harvest second
      last_reported_at: expect.stringMatching(/^2025-04-15T12:33:(?!00)\d\d\+00:00$/),
      links: { application: 9045822 },
    })
    expect(body.application_summary).toEqual({
      response_time: r3((s.time / s.calls) * 1000),
      throughput: r3(s.calls / 10),
      error_rate: r3((s.errors / s.calls) * 100),
      apdex_target: kt.apdexTarget,
      apdex_score: Math.round(((s.s + s.t / 2) / (s.s + s.t + s.f)) * 100) / 100,
    })
    expect(body.end_user_summary).toEqual({
      response_time: r3(s.load / s.loads), // seconds, as the applications' end_user_summary
      throughput: r3(s.loads / 10),
      apdex_target: 7,
      apdex_score: Math.round(((s.es + s.et / 2) / (s.es + s.et + s.ef)) * 100) / 100,
    })
    expect(json.links).toEqual({
      'key_transaction.application': '/v2/applications/{application_id}',
    })
  })

  it('omits last_reported_at and summaries when the parent stopped; gray (docs "Application reporting and health status")', async () => {
    const { json } = await v2(sim, 'key_transactions/2247036.json')
    expect(json.key_transaction).toEqual({
      id: 2247036,
      name: 'Inventory: reserve',
      transaction_name: 'POST /inventory/reserve',
      health_status: 'gray',
      reporting: false,
      links: { application: 9045874 },
    })
  })

  it('pages 200 a page with next and last first (docs "Pagination for API output")', async () => {
    // by name, then id: the order of the stand-in's applications and of entity search (v2 defines
    // none: docs "Pagination for API output")
    const mine = kts
      .filter((k) => k.accountId === PROD)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id))
      .map((k) => k.id)
    expect(mine.length).toBeGreaterThan(200)
    const one = await v2(sim, 'key_transactions.json')
    expect(one.json.key_transactions.map((k: { id: number }) => k.id)).toEqual(mine.slice(0, 200))
    expect(one.headers.get('link')).toBe(
      '<http://sim.test/v2/key_transactions.json?page=2>; rel="next", ' +
        '<http://sim.test/v2/key_transactions.json?page=2>; rel="last"'
    )
    const two = await v2(sim, 'key_transactions.json?page=2')
    expect(two.json.key_transactions.map((k: { id: number }) => k.id)).toEqual(mine.slice(200))
    expect(two.headers.get('link')).toBe(
      '<http://sim.test/v2/key_transactions.json?page=1>; rel="first", ' +
        '<http://sim.test/v2/key_transactions.json?page=1>; rel="prev"'
    )
    expect((await v2(sim, 'key_transactions.json?page=3')).json.key_transactions).toEqual([])
  })

  it('filters by name (substring, any case) and ids, within the key’s account; POST reads', async () => {
    // docs "Summary data examples": filter[name] "a simple string match"; explorer: filter[ids]
    const byName = await v2(sim, 'key_transactions.json?filter[name]=CHECKOUT')
    const want = kts
      .filter((k) => k.accountId === PROD && /checkout/i.test(k.name))
      .map((k) => k.id)
    expect(byName.json.key_transactions.map((k: { id: number }) => k.id)).toEqual(want)
    expect(byName.headers.get('link')).toBeNull()
    const byIds = await v2(sim, 'key_transactions.json?filter[ids]=2247036,2247001,2247043', {
      method: 'POST',
    })
    expect(byIds.json.key_transactions.map((k: { id: number }) => k.id)).toEqual([2247001, 2247036])
    const staging = await v2(sim, 'key_transactions.json', { key: DEMO_KEYS.one })
    expect(staging.json.key_transactions.map((k: { id: number }) => k.id)).toEqual(
      kts.filter((k) => k.accountId === 1000002).map((k) => k.id)
    )
  })

  it('answers 404 with the explorer title, and XML with Rails names', async () => {
    const missing = await v2(sim, 'key_transactions/2247043.json') // the staging one
    expect(missing.status).toBe(404)
    expect(missing.json).toEqual({ error: { title: 'No key transaction found with the given ID' } })
    const xml = await v2(sim, 'key_transactions/2247001.xml')
    expect(xml.headers.get('content-type')).toBe('application/xml')
    expect(xml.text).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<key_transaction_response>/
    )
    expect(xml.text).toContain(
      '    <links>\n      <application>9045822</application>\n    </links>'
    )
    expect(xml.text).toContain('    <apdex_target>7.0</apdex_target>')
    expect(xml.text).toContain(
      '  <links>\n    <key_transaction.application>/v2/applications/{application_id}</key_transaction.application>'
    )
  })
})

describe('v2 stand-in: browser applications', () => {
  const sim = fixedSimulator()

  it('lists id, name, browser_monitoring_key and loader_script (explorer; ambitioninc fixture)', async () => {
    const all = sim.dataset.resources.browser().filter((b) => b.accountId === PROD)
    const { json, headers } = await v2(sim, 'browser_applications.json')
    expect(json.browser_applications.map((b: { id: number }) => b.id)).toEqual(
      all.map((b) => b.id).sort((a, b) => a - b)
    )
    expect(headers.get('link')).toBeNull()
    const lite = await v2(sim, 'browser_applications.json?filter[name]=marketing')
    const site = all.find((b) => b.name === 'Marketing Site')!
    expect(lite.json.browser_applications).toHaveLength(1)
    const b = lite.json.browser_applications[0]
    expect(Object.keys(b)).toEqual(['id', 'name', 'browser_monitoring_key', 'loader_script'])
    expect(b.id).toBe(204261001)
    expect(b.browser_monitoring_key).toBe(site.licenseKey)
    expect(b.loader_script).toMatch(/^<script type="text\/javascript">/)
    expect(b.loader_script).toContain(`licenseKey:"${site.licenseKey}"`)
    const ids = await v2(sim, `browser_applications.json?filter[ids]=204261001,${all[0]!.id}`)
    expect(ids.json.browser_applications).toHaveLength(2)
  })
})

describe('v2 stand-in: mobile applications', () => {
  const sim = fixedSimulator()

  /** Σ of the last 30 complete minutes (explorer: "in the last 30 minutes"). */
  function window30(id: number) {
    const app = sim.dataset.resources.mobile().find((m) => m.id === id)!
    const s = { sessions: 0, crashes: 0, requests: 0, time: 0 }
    for (let t = END - 30 * MINUTE; t < END; t += MINUTE) {
      const m = mobileMinute(app, t / MINUTE)
      s.sessions += m.get('Session/Start')?.count ?? 0
      s.crashes += m.get('Mobile/Crash/All')?.count ?? 0
      s.requests += m.get('External/all')?.count ?? 0
      s.time += m.get('External/all')?.total ?? 0
    }
    return { app, ...s }
  }

  it('shows mobile_summary and crash_summary of the last 30 minutes (explorer models)', async () => {
    const w = window30(601483762)
    const { status, json } = await v2(sim, 'mobile_applications/601483762.json')
    expect(status).toBe(200)
    // key order: ambitioninc/newrelic-api mobile fixture
    expect(Object.keys(json.application)).toEqual([
      ...['id', 'name', 'health_status', 'reporting', 'mobile_summary', 'crash_summary'],
    ])
    expect(json.application).toMatchObject({
      id: 601483762,
      name: 'Shop iOS',
      health_status: 'green',
    })
    const m = json.application.mobile_summary
    expect(Object.keys(m)).toEqual([
      ...['active_users', 'launch_count', 'throughput', 'response_time', 'calls_per_session'],
      ...['interaction_time', 'failed_call_rate', 'remote_error_rate'],
    ])
    expect(m.active_users).toBe(w.sessions)
    expect(m.launch_count).toBe(w.sessions)
    // "Http requests in the last 30 minutes" (fixture: 9,792 sessions × 7.27 ≈ throughput 71200)
    expect(m.throughput).toBe(r3(w.requests))
    expect(m.response_time).toBe(r3(w.time / w.requests))
    expect(m.calls_per_session).toBe(r3(w.requests / w.sessions))
    expect(m.interaction_time).toBe(w.app.interactionTime)
    // "Percentage of http errors" / "Percentage of network failures" (explorer)
    const h = (601483762 % 1000) / 1000
    expect(m.failed_call_rate).toBeCloseTo(0.5 + 2 * h, 12)
    expect(m.remote_error_rate).toBeCloseTo(0.05 + 0.2 * h, 12)
    expect(json.application.crash_summary).toEqual({
      supports_crash_data: true,
      unresolved_crash_count: w.crashes, // the dataset resolves no crash
      crash_count: w.crashes,
      crash_rate: (w.crashes / w.sessions) * 100,
    })
  })

  it('lists under `applications` (ambitioninc/newrelic-api mobile fixture), a stopped app gray without summaries', async () => {
    const { json } = await v2(sim, 'mobile_applications.json?filter[name]=shop')
    expect(json.applications.map((a: { id: number }) => a.id)).toEqual([
      601483762, 601483779, 601483805,
    ])
    expect(json.applications[2]).toEqual({
      id: 601483805,
      name: 'Legacy Shop (iOS 12)',
      health_status: 'gray',
      reporting: false,
    })
    const ids = await v2(sim, 'mobile_applications.json?filter[ids]=601483791')
    expect(ids.json.applications.map((a: { id: number }) => a.id)).toEqual([601483791])
  })

  it('answers 404 with the explorer title; XML counts without .0', async () => {
    const missing = await v2(sim, 'mobile_applications/601484110.json') // staging
    expect(missing.status).toBe(404)
    expect(missing.json.error.title).toBe('No Mobile Application found with the given ID')
    const xml = await v2(sim, 'mobile_applications/601483791.xml')
    const w = window30(601483791)
    expect(xml.text).toContain('<application_response>\n  <application>\n    <id>601483791</id>')
    expect(xml.text).toContain(`      <crash_count>${w.crashes}</crash_count>`)
    expect(xml.text).toContain('      <supports_crash_data>true</supports_crash_data>')
  })

  it('serves metric names and data from the app’s minutes (explorer mobile metrics)', async () => {
    const names = await v2(sim, 'mobile_applications/601483762/metrics.json')
    expect(names.json.metrics.map((m: { name: string }) => m.name)).toEqual(
      [...MOBILE_METRICS].sort()
    )
    const none = await v2(sim, 'mobile_applications/601483805/metrics.json')
    expect(none.json.metrics).toEqual([])
    // docs "Mobile monitoring REST API examples": name=Mobile/Crash/All&values[]=call_count&summarize=true
    const from = END - 60 * MINUTE
    const q = `name=Mobile/Crash/All&values[]=call_count&summarize=true&from=${iso(from)}&to=${iso(END)}`
    const data = await v2(sim, `mobile_applications/601483762/metrics/data.json?${q}`)
    const app = sim.dataset.resources.mobile().find((m) => m.id === 601483762)!
    let crashes = 0
    for (let t = from; t < END; t += MINUTE)
      crashes += mobileMinute(app, t / MINUTE).get('Mobile/Crash/All')?.count ?? 0
    expect(data.json.metric_data.metrics).toEqual([
      {
        name: 'Mobile/Crash/All',
        timeslices: [{ from: iso(from), to: iso(END), values: { call_count: crashes } }],
      },
    ])
    const missing = await v2(sim, 'mobile_applications/601483762/metrics/data.json')
    expect([missing.status, missing.json.error.title]).toEqual([400, 'missing parameter: names'])
  })
})

describe('v2 stand-in: users', () => {
  const sim = fixedSimulator()
  const users = sim.dataset.resources.users

  it('lists id, first_name, last_name, email, role (docs "List users (v2)"), 200 a page', async () => {
    const { json, headers } = await v2(sim, 'users.json')
    expect(json.users).toHaveLength(200)
    expect(headers.get('link')).toBe(
      '<http://sim.test/v2/users.json?page=2>; rel="next", <http://sim.test/v2/users.json?page=2>; rel="last"'
    )
    // explorer users model: role is "user, admin, or owner"; the docs example has an owner
    expect(json.users.slice(0, 4)).toEqual([
      {
        id: 1000123456,
        first_name: 'Dana',
        last_name: 'Owner',
        email: 'dana.owner@example.com',
        role: 'owner',
      },
      {
        id: 1000123457,
        first_name: 'Adam',
        last_name: 'Admin',
        email: 'adam.admin@example.com',
        role: 'admin',
      },
      {
        id: 1000123458,
        first_name: 'Any',
        last_name: 'User',
        email: 'any.user@example.com',
        role: 'user',
      },
      {
        id: 1000123459,
        first_name: 'Rita',
        last_name: 'Readonly',
        email: 'rita@example.org',
        role: 'user',
      },
    ])
    const two = await v2(sim, 'users.json?page=2')
    expect(two.json.users).toHaveLength(users.length - 200)
  })

  it('filters by email (substring, any case) and ids; 404 title as the explorer', async () => {
    // docs "List users (v2)": filter[email] is a simple string match
    const byEmail = await v2(sim, 'users.json?filter[email]=EXAMPLE.COM')
    expect(byEmail.json.users.map((u: { email: string }) => u.email)).toEqual(
      users.filter((u) => u.email.includes('example.com')).map((u) => u.email)
    )
    const byIds = await v2(sim, 'users.json?filter[ids]=1000123461,1000123460')
    expect(byIds.json.users).toEqual([
      {
        id: 1000123460,
        first_name: 'Sam',
        last_name: '',
        email: 'sam.sso@example.com',
        role: 'user',
      },
      {
        id: 1000123461,
        first_name: 'Oscar',
        last_name: 'de la Vega',
        email: 'oscar.vega@example.com',
        role: 'user',
      },
    ])
    const missing = await v2(sim, 'users/42.json')
    expect([missing.status, missing.json]).toEqual([
      404,
      { error: { title: 'No user found with the given ID' } },
    ])
    const xml = await v2(sim, 'users/1000123457.xml')
    expect(xml.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<user_response>\n  <user>\n    <id>1000123457</id>\n' +
        '    <first_name>Adam</first_name>\n    <last_name>Admin</last_name>\n' +
        '    <email>adam.admin@example.com</email>\n    <role>admin</role>\n  </user>\n</user_response>\n'
    )
  })
})

describe('v2 stand-in: labels', () => {
  it('groups the tags apps carry beyond their own by Category:Name (client-go labels_test)', async () => {
    const sim = fixedSimulator()
    const { json } = await v2(sim, 'labels.json', { key: DEMO_KEYS.one })
    const empty = { green: [], orange: [], red: [], gray: [] }
    const healthOf = (id: number) => {
      const a = sim.dataset.application(id)!
      if (!a.reporting) return 'gray'
      return { CRITICAL: 'red', WARNING: 'orange', NOT_ALERTING: 'green', NOT_CONFIGURED: 'gray' }[
        a.alertSeverity
      ]
    }
    const health = (ids: number[]) => {
      const out: Record<string, number[]> = { green: [], orange: [], red: [], gray: [] }
      for (const id of ids) out[healthOf(id)]!.push(id)
      return out
    }
    const label = (category: string, name: string, ids: number[]) => ({
      key: `${category}:${name}`,
      category,
      name,
      application_health_status: health(ids),
      server_health_status: empty,
      origins: { apm: ids, synthetics: [], agents: [] },
      links: { applications: ids, servers: [] },
    })
    // simulator/data/resources/index.ts demoLabels: staging 9702201 (Team, Environment), 9702214
    expect(json.labels).toEqual([
      label('Environment', 'Staging', [9702201, 9702214]),
      label('Team', 'Payments', [9702201]),
    ])
    const prod = await v2(sim, 'labels.json')
    expect(prod.json.labels.map((l: { key: string }) => l.key)).toEqual([
      'Environment:Production',
      'Team:Payments',
      'Team:Storefront',
    ])
    expect(prod.json.labels[0].links.applications).toEqual([9045822, 9045837, 9045866, 9045893])
  })
})

describe('v2 stand-in: alerts incidents, violations, events, channels', () => {
  const sim = fixedSimulator()
  const s = alertsOf(sim.dataset)
  const prodIssues = s.issues.filter((i) => i.accountId === PROD)
  const prodViolations = s.incidents.filter((i) => i.accountId === PROD)

  it('lists incidents newest first; closed_at only when closed; only_open; exclude_violations', async () => {
    // explorer alerts_incidents; client-go incidents fixture (closed_at omitted while open)
    const { json, headers } = await v2(sim, 'alerts_incidents.json')
    expect(headers.get('link')).toBeNull()
    expect(json.incidents).toHaveLength(prodIssues.length)
    const byOpened = [...prodIssues].sort((a, b) => b.createdAt - a.createdAt)
    expect(json.incidents.map((i: { opened_at: number }) => i.opened_at)).toEqual(
      byOpened.map((i) => i.createdAt)
    )
    const first = json.incidents[0]
    const issue = byOpened[0]!
    expect(Object.keys(first)).toEqual(['id', 'opened_at', 'incident_preference', 'links'])
    expect(first.links).toEqual({
      violations: issue.incidentIds.map(Number),
      policy_id: issue.policyId,
    })
    expect(first.incident_preference).toBe(
      s.policies.find((p) => p.id === issue.policyId)!.incidentPreference
    )
    const closed = json.incidents.find((i: { closed_at?: number }) => i.closed_at !== undefined)
    expect(Object.keys(closed)).toEqual([
      'id',
      'opened_at',
      'closed_at',
      'incident_preference',
      'links',
    ])
    const ids = json.incidents.map((i: { id: number }) => i.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.every((id: number) => Number.isInteger(id) && id > 0 && id <= 0x7fffffff)).toBe(true)

    const open = await v2(sim, 'alerts_incidents.json?only_open=true')
    // the 45-day-old open issue is listed too (issue 23 item 6: long-open incidents)
    expect(open.json.incidents).toHaveLength(prodIssues.filter((i) => i.closedAt === null).length)
    const bare = await v2(sim, 'alerts_incidents.json?exclude_violations=true')
    expect(bare.json.incidents[0].links).toEqual({ policy_id: issue.policyId })
  })

  it('lists violations with exact created-after/before bounds and no rel="last"', async () => {
    // explorer alerts_violations: start_date "created after", end_date "created before"
    const v = [...prodViolations].sort((a, b) => b.createdAt - a.createdAt)[3]!
    const after = await v2(sim, `alerts_violations.json?start_date=${iso(v.createdAt)}`)
    const want = prodViolations.filter((x) => x.createdAt > v.createdAt).length
    expect(after.json.violations).toHaveLength(want)
    const from = await v2(sim, `alerts_violations.json?start_date=${iso(v.createdAt - 1000)}`)
    expect(from.json.violations).toHaveLength(
      want + prodViolations.filter((x) => x.createdAt === v.createdAt).length
    )
    const before = await v2(sim, `alerts_violations.json?end_date=${iso(v.createdAt)}`)
    expect(before.json.violations).toHaveLength(
      prodViolations.filter((x) => x.createdAt < v.createdAt).length
    )
    const row = from.json.violations.find((x: { id: number }) => x.id === Number(v.incidentId))
    const policy = s.policies.find((p) => p.id === v.policyId)!
    const condition = s.conditions.find((c) => c.id === v.conditionId)!
    const issue = s.issues.find((i) => i.incidentIds.includes(v.incidentId))!
    const incident = (await v2(sim, 'alerts_incidents.json')).json.incidents.find(
      (i: { links: { violations: number[] } }) => i.links.violations.includes(Number(v.incidentId))
    )
    // explorer ViolationResponseType; duration in seconds, priority capitalised (nr1-command-center)
    expect(row).toEqual({
      id: Number(v.incidentId),
      label: v.title,
      duration: Math.floor(((v.closedAt ?? NOW) - v.createdAt) / 1000),
      policy_name: policy.name,
      condition_name: condition.name,
      priority: v.priority === 'CRITICAL' ? 'Critical' : 'Warning',
      opened_at: v.createdAt,
      ...(v.closedAt === null ? {} : { closed_at: v.closedAt }),
      entity: {
        product: 'Apm',
        type: 'Application',
        group_id: expect.any(Number),
        id: expect.any(Number),
        name: v.entityName,
      },
      links: { policy_id: v.policyId, condition_id: v.conditionId, incident_id: incident.id },
    })
    expect(issue.incidentIds).toContain(v.incidentId)
    const open = await v2(sim, 'alerts_violations.json?only_open=true')
    expect(open.json.violations).toHaveLength(
      prodViolations.filter((x) => x.closedAt === null).length
    )
    const bad = await v2(sim, 'alerts_violations.json?start_date=yesterday')
    expect(bad.status).toBe(422)
    // docs "Pagination for API output": violations never send rel="last"
    expect(
      withoutLast(
        '<http://x/v2/alerts_violations.json?page=2>; rel="next", <http://x/v2/alerts_violations.json?page=3>; rel="last"'
      )
    ).toBe('<http://x/v2/alerts_violations.json?page=2>; rel="next"')
  })

  it('lists events of every type the dataset records, filtered as the explorer lists', async () => {
    const apps = sim.dataset.applications(PROD).map((a) => a.guid)
    const deployments = sim.dataset.deployments.all().filter((d) => apps.includes(d.entityGuid))
    const closedViolations = prodViolations.filter((v) => v.closedAt !== null).length
    const total = prodViolations.length + closedViolations + prodIssues.length + deployments.length
    const all = await v2(sim, 'alerts_events.json')
    const pages = Math.ceil(total / 200)
    expect(all.json.recent_events).toHaveLength(Math.min(200, total))
    expect(pages).toBe(2) // rel="last" on events (issue 23 item 17; docs "Pagination for API output")
    expect(all.headers.get('link')).toBe(
      '<http://sim.test/v2/alerts_events.json?page=2>; rel="next", ' +
        '<http://sim.test/v2/alerts_events.json?page=2>; rel="last"'
    )
    const second = await v2(sim, 'alerts_events.json?page=2')
    const stamps = [...all.json.recent_events, ...second.json.recent_events].map(
      (x: { timestamp: number }) => x.timestamp
    )
    expect(stamps).toHaveLength(total)
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a)) // newest first
    const deploys = await v2(sim, 'alerts_events.json?filter[event_type]=deployment')
    expect(deploys.json.recent_events).toHaveLength(deployments.length)
    const opens = await v2(
      sim,
      'alerts_events.json?filter[event_type]=INCIDENT_OPEN&filter[product]=apm'
    )
    expect(opens.json.recent_events).toHaveLength(prodIssues.length)
    // key order and epoch-ms timestamp: newrelic-client-go pkg/alerts/events_test.go
    const e = opens.json.recent_events[0]
    expect(Object.keys(e)).toEqual([
      ...['id', 'event_type', 'product', 'entity_type', 'entity_group_id', 'entity_id'],
      ...['priority', 'description', 'timestamp', 'incident_id'],
    ])
    const violations = await v2(sim, 'alerts_events.json?filter[event_type]=VIOLATION')
    expect(violations.json.recent_events).toHaveLength(prodViolations.length + closedViolations)
    const one = await v2(sim, `alerts_events.json?filter[incident_id]=${e.incident_id}`)
    const issue = [...prodIssues].sort((a, b) => b.createdAt - a.createdAt)[0]!
    const closedOfIssue = s.incidents.filter(
      (v) => issue.incidentIds.includes(v.incidentId) && v.closedAt !== null
    )
    expect(one.json.recent_events).toHaveLength(1 + issue.incidentIds.length + closedOfIssue.length)
    const app = await v2(
      sim,
      'alerts_events.json?filter[entity_id]=9045893&filter[entity_type]=application'
    )
    expect(
      app.json.recent_events.every((x: { entity_id: number }) => x.entity_id === 9045893)
    ).toBe(true)
  })

  it('lists channels with string configurations and policy links (client-go channels fixtures)', async () => {
    const { json } = await v2(sim, 'alerts_channels.json')
    expect(json.channels.map((c: { id: number }) => c.id)).toEqual(
      s.channels
        .filter((c) => c.accountId === PROD)
        .map((c) => c.id)
        .sort((a, b) => a - b)
    )
    expect(json.channels[0]).toEqual({
      id: 2803426,
      name: 'Dana Ops',
      type: 'user',
      configuration: { user_id: '2680539' },
      links: { policy_ids: [] },
    })
    expect(json.channels[1]).toEqual({
      id: 2932511,
      name: 'ops@example.com',
      type: 'email',
      configuration: { include_json_attachment: 'true', recipients: 'ops@example.com' },
      links: { policy_ids: [5101101] },
    })
    const xml = await v2(sim, 'alerts_channels.xml')
    expect(xml.text).toContain(
      '<channels_response>\n  <channels>\n    <channel>\n      <id>2803426</id>'
    )
    expect(xml.text).toContain(
      '      <links>\n        <policy_ids>\n          <policy_id>5101101</policy_id>'
    )
  })

  it('answers 401 without a key, as every v2 route', async () => {
    const res = await v2(sim, 'alerts_incidents.json', { key: null })
    expect([res.status, res.json]).toEqual([401, { error: { title: 'No API key specified' } }])
  })
})

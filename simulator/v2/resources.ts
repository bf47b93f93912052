/**
 * @module simulator/v2/resources — the stand-in's key transactions, browser and mobile
 * applications, users and labels, computed from the raw dataset (catalog rows and their minute
 * formulas), never through NRQL or NerdGraph. Definitions, key order and errors: the v2 API
 * explorer models (key_transactions, browser_applications, mobile_applications, users, labels),
 * New Relic docs "Summary data examples (v2)" and "List users (v2)", the newrelic-client-go
 * pkg/apm key-transaction fixtures and the ambitioninc/newrelic-api fixtures.
 */
import type { Hono } from 'hono'
import type { Dataset } from '../data/dataset'
import type { AlertSeverity, Application } from '../data/model'
import { MINUTE } from '../data/apm/timeslices'
import {
  OWNER_USER_ID,
  type BrowserApp,
  type KeyTransaction,
  type MobileApp,
} from '../data/resources/catalog'
import { loaderScript, mobileSummary } from '../data/resources/entities'
import { mobileMinute } from '../data/resources/rows'
import { reportedAt } from './apm-apps'
import { mobileMetricRoutes } from './mobile-metrics'
import { answer, error, param, idsOf, page, params, type Body, type C, type Env } from './respond'

/** v2 pages of 200 (vistaprint/grafana-newrelic-datasource-plugin: "200 apps max per page"). */
export const PAGE_SIZE = 200

/** `alertSeverity` → `health_status`; `gray` when not reporting (New Relic docs "View your app's
 * health status" colours: green, orange, red, gray, and unknown without alert conditions). */
const HEALTH: Record<AlertSeverity, string> = {
  CRITICAL: 'red',
  WARNING: 'orange',
  NOT_ALERTING: 'green',
  NOT_CONFIGURED: 'unknown',
}
export const healthOf = (reporting: boolean, severity: AlertSeverity) =>
  reporting ? HEALTH[severity] : 'gray'

/** 3 significant digits, as v2 rounds summary values (docs "Summary data examples (v2)"). */
export const sig3 = (v: number) => (v === 0 ? 0 : Number(v.toPrecision(3)))
/** `2020-01-02T21:09:07+00:00` (client-go key-transaction fixture). */
export const v2Time = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00')

/** Case-insensitive substring (docs "Summary data examples": "a simple string match"). */
const contains = (text: string, filter: string | undefined) =>
  !filter || text.toLowerCase().includes(filter.toLowerCase())
const idIn = (id: number | string, ids: readonly string[]) =>
  ids.length === 0 || ids.includes(String(id))

/** The display name of a web transaction: the metric name without `WebTransaction/` and the
 * naming category (`WebTransaction/SpringController/CartController/checkout` →
 * `CartController/checkout`): recorded key transactions show display names, never metric names
 * (newrelic-client-go pkg/apm/key_transactions_test.go `get /`; docs "Summary data examples (v2)"
 * `/ws/Reaction`). */
export function displayName(metricName: string): string {
  const parts = metricName.split('/')
  return parts.length > 2 ? parts.slice(2).join('/') : metricName
}

const SUM_KEYS = [
  'calls',
  'time',
  'errors',
  's',
  't',
  'f',
  'loads',
  'loadTime',
  'es',
  'et',
  'ef',
] as const
type Sums = Record<(typeof SUM_KEYS)[number], number>

function ktSums(dataset: Dataset, kt: KeyTransaction, minutes: number): Sums {
  const { end } = dataset.window()
  const sums = Object.fromEntries(SUM_KEYS.map((k) => [k, 0])) as Sums
  const since = end - minutes * MINUTE
  const hint = { accountId: kt.accountId, since, until: end, entityGuids: [kt.guid] }
  const rows = dataset.resources.rows(kt.accountId, since, end, hint)
  for (const { metricTimesliceName: name, value: v } of rows) {
    if (name === kt.metricName) {
      sums.calls += v.count
      sums.time += v.total
    } else if (name === 'Errors/all') sums.errors += v.count
    else if (name === 'Apdex') {
      sums.s += v.count
      sums.t += v.total
      sums.f += v.totalExclusive
    } else if (name === 'EndUser') {
      sums.loads += v.count
      sums.loadTime += v.total
    } else if (name === 'EndUser/Apdex') {
      sums.es += v.count
      sums.et += v.total
      sums.ef += v.totalExclusive
    }
  }
  return sums
}

const apdexScore = (s: number, t: number, f: number) =>
  s + t + f > 0 ? Math.round(((s + t / 2) / (s + t + f)) * 100) / 100 : 0

/** Summary window of key transactions: "the last 10 minutes" (explorer key_transactions notes). */
const KT_MINUTES = 10

/** One key transaction, keys in the order of the client-go fixture: summaries over the last 10
 * complete minutes of its own rows (server response time in ms, page load time in seconds as the
 * applications' `end_user_summary`, calls or page loads per minute, error percentage);
 * `end_user_summary` only with browser data (a browser-monitored parent with page loads);
 * `last_reported_at` is the application's, whose agent reports the transaction (v2 kept no data of
 * a key transaction's own, only the parent transaction's: docs "Summary data examples (v2)"); a
 * transaction that does not report omits `last_reported_at` and both summaries. */
export function keyTransactionOut(dataset: Dataset, kt: KeyTransaction): Body {
  const app: Application = dataset.application(kt.app.id) ?? kt.app
  const reporting = app.reporting
  const out: Body = {
    id: kt.id,
    name: kt.name,
    transaction_name: displayName(kt.metricName),
    health_status: healthOf(reporting, kt.alertSeverity),
    reporting,
  }
  if (reporting) {
    const x = ktSums(dataset, kt, KT_MINUTES)
    out['last_reported_at'] = v2Time(reportedAt(app)) // the application's (apm-apps.ts)
    out['application_summary'] = {
      response_time: sig3(x.calls > 0 ? (x.time / x.calls) * 1000 : 0),
      throughput: sig3(x.calls / KT_MINUTES),
      error_rate: sig3(x.calls > 0 ? (x.errors / x.calls) * 100 : 0),
      apdex_target: kt.apdexTarget,
      apdex_score: apdexScore(x.s, x.t, x.f),
    }
    if (kt.browserApdexTarget !== null && x.loads > 0)
      out['end_user_summary'] = {
        response_time: sig3(x.loads > 0 ? x.loadTime / x.loads : 0), // seconds, as apm-summary.ts
        throughput: sig3(x.loads / KT_MINUTES),
        apdex_target: kt.browserApdexTarget,
        apdex_score: apdexScore(x.es, x.et, x.ef),
      }
  }
  out['links'] = { application: kt.app.id }
  return out
}

const KT_LINKS = { 'key_transaction.application': '/v2/applications/{application_id}' }

/** Mobile summaries: "the last 30 minutes" (explorer mobile_applications models). */
const MOBILE_MINUTES = 30

/** One mobile application, keys in the order of the ambitioninc/newrelic-api mobile fixture.
 * Over the last 30 complete minutes of its rows: `active_users` and `launch_count` are the sessions
 * started (the fixture has both 9792; the dataset counts no distinct users), `throughput` the HTTP
 * requests of the window ("Http requests in the last 30 minutes"), `response_time` their mean in
 * seconds, `calls_per_session` requests per session (3 significant digits, as the fixture);
 * `failed_call_rate` "Percentage of http errors" and `remote_error_rate` "Percentage of network
 * failures" are the dataset's per-app rates, unrounded; every crash is unresolved (the dataset
 * resolves none); `crash_rate` is crashes per 100 sessions. A non-reporting app has neither
 * summary. */
export function mobileOut(dataset: Dataset, app: MobileApp): Body {
  const out: Body = {
    id: app.id,
    name: app.name,
    health_status: healthOf(app.reporting, app.alertSeverity),
    reporting: app.reporting,
  }
  if (!app.reporting) return out
  const end = dataset.window().end
  let sessions = 0
  let crashes = 0
  let requests = 0
  let requestTime = 0
  for (let t = end - MOBILE_MINUTES * MINUTE; t < end; t += MINUTE) {
    const minute = mobileMinute(app, t / MINUTE)
    sessions += minute.get('Session/Start')?.count ?? 0
    crashes += minute.get('Mobile/Crash/All')?.count ?? 0
    requests += minute.get('External/all')?.count ?? 0
    requestTime += minute.get('External/all')?.total ?? 0
  }
  const rates = mobileSummary(app, end)
  out['mobile_summary'] = {
    active_users: sessions,
    launch_count: sessions,
    throughput: sig3(requests),
    response_time: sig3(requests > 0 ? requestTime / requests : 0),
    calls_per_session: sig3(sessions > 0 ? requests / sessions : 0),
    interaction_time: app.interactionTime ?? 0,
    failed_call_rate: rates?.httpErrorRate ?? 0,
    remote_error_rate: rates?.networkFailureRate ?? 0,
  }
  out['crash_summary'] = {
    supports_crash_data: true,
    unresolved_crash_count: crashes,
    crash_count: crashes,
    crash_rate: sessions > 0 ? (crashes / sessions) * 100 : 0,
  }
  return out
}

/** v2's original-user-model role: the account owner, `admin` for the Admin group, else `user`
 * (explorer users model: "user, admin, or owner"; docs "List users (v2)" example). */
function roleOf(id: string, groups: readonly string[]): string {
  if (id === OWNER_USER_ID) return 'owner'
  return groups.includes('Admin') ? 'admin' : 'user'
}

/** The name split at its first space (the dataset holds one name). */
function userOut(u: Dataset['resources']['users'][number]): Body {
  const space = u.name.indexOf(' ')
  return {
    id: Number(u.id),
    first_name: space < 0 ? u.name : u.name.slice(0, space),
    last_name: space < 0 ? '' : u.name.slice(space + 1),
    email: u.email,
    role: roleOf(u.id, u.groups),
  }
}

type Tag = { readonly key: string; readonly values: readonly string[] }

/** Labels of one account: each `Category:Name` tag an application carries beyond its own
 * (account, accountId, language), keys in the order of client-go's labels_test fixture. Applied by
 * users, so their origin is `apm` ("labeled from the APM UI", explorer labels model). */
export function labelsOf(dataset: Dataset, accountId: number): Body[] {
  const byKey = new Map<string, { category: string; name: string; apps: Application[] }>()
  for (const app of dataset.applications(accountId)) {
    const own = new Set(app.tags.flatMap((t) => t.values.map((v) => `${t.key}\u0000${v}`)))
    const tags: readonly Tag[] = dataset.resources.state.tags(app.guid) ?? app.tags
    for (const tag of tags)
      for (const value of tag.values) {
        if (own.has(`${tag.key}\u0000${value}`)) continue
        const key = `${tag.key}:${value}`
        const label = byKey.get(key) ?? { category: tag.key, name: value, apps: [] }
        if (!label.apps.includes(app)) label.apps.push(app)
        byKey.set(key, label)
      }
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, { category, name, apps }]) => labelOut(category, name, apps))
}

/** One label `category:name` on `apps` (client-go labels_test fixture's keys and order). */
export function labelOut(category: string, name: string, apps: readonly Application[]): Body {
  const buckets = () => ({ green: [], orange: [], red: [], gray: [] }) as Record<string, number[]>
  const ids = apps.map((a) => a.id).sort((a, b) => a - b)
  const health = buckets()
  for (const a of apps) {
    const colour = healthOf(a.reporting, a.alertSeverity)
    ;(health[colour] ?? health['gray']!).push(a.id)
  }
  for (const list of Object.values(health)) list.sort((a, b) => a - b)
  return {
    key: `${category}:${name}`,
    category,
    name,
    application_health_status: health,
    server_health_status: buckets(),
    origins: { apm: ids, synthetics: [], agents: [] },
    links: { applications: ids, servers: [] },
  }
}

const byId = <T extends { id: number | string }>(a: T, b: T) => Number(a.id) - Number(b.id)

/** One browser application as v2 lists and creates it (New Relic docs "Add or list browser apps
 * (API v2)"; ambitioninc/newrelic-api fixture). */
export const browserOut = (b: BrowserApp): Body => ({
  id: b.id,
  name: b.name,
  browser_monitoring_key: b.licenseKey,
  loader_script: loaderScript(b),
})

/** Key transactions, browser and mobile applications (and their metrics), users, labels. */
export function resourceRoutes(app: Hono<Env>, dataset: Dataset): void {
  const account = (c: C) => c.get('accountId')
  const list = async (c: C, key: string, items: Body[], extra: Body = {}) => {
    const p = await params(c)
    const { items: shown, headers } = page(c, p, items, PAGE_SIZE)
    return answer(c, { [key]: shown, ...extra }, 200, headers)
  }
  /** By name, then id: v2 defines no order (New Relic docs "Pagination for API output": do not
   * rely on one), so the pages follow the stand-in's applications list (apm-apps.ts `byName`),
   * which is also the order NerdGraph's entity search pages in. */
  const kts = (c: C) =>
    dataset.resources.keyTransactions
      .filter((kt) => kt.accountId === account(c))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id))

  app.on(['GET', 'POST'], '/key_transactions', async (c) => {
    const p = await params(c)
    const name = param(p, 'filter[name]')
    const ids = idsOf(p, 'filter[ids]')
    const found = kts(c).filter((kt) => contains(kt.name, name) && idIn(kt.id, ids))
    return list(
      c,
      'key_transactions',
      found.map((kt) => keyTransactionOut(dataset, kt)),
      { links: KT_LINKS }
    )
  })
  app.on(['GET', 'POST'], '/key_transactions/:id', (c) => {
    const kt = kts(c).find((k) => String(k.id) === c.req.param('id'))
    if (!kt) return error(c, 404, 'No key transaction found with the given ID')
    return answer(c, { key_transaction: keyTransactionOut(dataset, kt), links: KT_LINKS })
  })

  // Browser and mobile applications by ID: v2 names no list order (New Relic docs "Pagination for
  // API output": indeterminate), and the one order its docs show for IDs is ascending (New Relic
  // docs "List an app's host IDs and instance IDs").
  app.get('/browser_applications', async (c) => {
    const p = await params(c)
    const name = param(p, 'filter[name]')
    const ids = idsOf(p, 'filter[ids]')
    const found = dataset.resources
      .browser()
      .filter((b) => b.accountId === account(c) && contains(b.name, name) && idIn(b.id, ids))
      .sort(byId)
    return list(c, 'browser_applications', found.map(browserOut))
  })

  const mobile = (c: C) =>
    dataset.resources
      .mobile()
      .filter((m) => m.accountId === account(c))
      .sort(byId)
  app.get('/mobile_applications', async (c) => {
    const p = await params(c)
    const name = param(p, 'filter[name]')
    const ids = idsOf(p, 'filter[ids]')
    const found = mobile(c).filter((m) => contains(m.name, name) && idIn(m.id, ids))
    return list(
      c,
      'applications',
      found.map((m) => mobileOut(dataset, m))
    )
  })
  app.on(['GET', 'POST'], '/mobile_applications/:id', (c) => {
    const m = mobile(c).find((x) => String(x.id) === c.req.param('id'))
    if (!m) return error(c, 404, 'No Mobile Application found with the given ID')
    return answer(c, { application: mobileOut(dataset, m) })
  })

  const users = () => [...dataset.resources.users].sort(byId)
  app.on(['GET', 'POST'], '/users', async (c) => {
    const p = await params(c)
    const email = param(p, 'filter[email]')
    const ids = idsOf(p, 'filter[ids]')
    const found = users().filter((u) => contains(u.email, email) && idIn(Number(u.id), ids))
    return list(c, 'users', found.map(userOut))
  })
  app.on(['GET', 'POST'], '/users/:id', (c) => {
    const u = users().find((x) => x.id === c.req.param('id'))
    if (!u) return error(c, 404, 'No user found with the given ID')
    return answer(c, { user: userOut(u) })
  })

  mobileMetricRoutes(app, dataset)

  app.get('/labels', (c) => list(c, 'labels', labelsOf(dataset, account(c))))
}

/**
 * @module simulator/v2/apm-summary — v2 summary objects from the raw timeslices of the last three
 * whole minutes (`SUMMARY_MINUTES`): response time in ms and throughput in calls per minute of web
 * transactions (HttpDispatcher) for an application that has them, else of the others
 * (OtherTransaction/all) (New Relic docs "Get average throughput for an app (v2)": web app
 * throughput is HttpDispatcher's, non-web OtherTransaction/all's; "Get web transaction time data
 * (v2)": HttpDispatcher's average_response_time "is the total response time for your web
 * application"), error rate in % of all calls (Errors/all; docs "Application error rate example
 * (v2)"), Apdex
 * (s + t/2) / (s + t + f) with two decimals, the hosts and instances that reported; end-user figures
 * from EndUser (seconds) and EndUser/Apdex. Source tags (D-…, TONS, AMB) as docs/sources.md lists
 * them.
 */
import type { Dataset } from '../data/dataset'
import { MINUTE } from '../data/apm/timeslices'
import { add, emptySums, round } from './apm-values'
import type { Scope } from './apm-scope'

/** "a rolling three- to four-minute average" (New Relic docs "Summary data examples (v2)"), "the
 * last 3-4 minutes" (v2 explorer notes): the three whole minutes before the current one, which
 * begin 3 to 4 minutes before the call. v2's own, not the simulated NerdGraph's apmSummary. */
export const SUMMARY_MINUTES = 3

const NAMES = [
  'HttpDispatcher',
  'OtherTransaction/all',
  'Errors/all',
  'Apdex',
  'EndUser',
  'EndUser/Apdex',
]

export interface Summary {
  /** Present when the scope reported in the window. */
  application?: Record<string, number>
  /** Present when it has browser (EndUser) data in the window. */
  endUser?: Record<string, number>
}

/** Memory comes from every agent (New Relic docs "Query APM metric timeslice data with NRQL"), busy
 * or idle: an instance that served nothing in the window still reported (as `recentMembers`). */
const PRESENCE = 'Memory/Physical'

const per = (a: number, b: number) => (b > 0 ? a / b : 0)
const r = (v: number) => round(v, false)
/** Apdex scores have two decimals in recorded v2 answers, not the three significant digits of other
 * values (`throughput: 3.67`, `error_rate: 0.02` beside them): `0.78` (newrelic/newrelic-client-go
 * pkg/apm/applications_test.go), `0.87`, `0.95` (ContaAzul/newrelic_exporter
 * newrelic/testdata/key_transactions.json). */
const r2 = (v: number) => Math.round(v * 100) / 100

/** `level` decides the fields: an application has apdex_target and host_count; hosts and
 * instances do not (v2 explorer AppSummaryDataResponse, EndUserSummaryDataResponse). The counts are
 * of the hosts and instances that reported in the window, busy or idle: newrelic-client-go's
 * fixture (pkg/apm applications_test.go) counts 15 instances for an application serving 1 call a
 * minute. */
export function summaryOf(
  dataset: Dataset,
  scope: Scope,
  level: 'application' | 'member'
): Summary {
  const { app } = scope
  const end = dataset.window().end
  const sums = Object.fromEntries(NAMES.map((n) => [n, emptySums()]))
  const hosts = new Set<string>()
  const instances = new Set<string>()
  let served = false
  for (const name of [...NAMES, PRESENCE]) {
    const rows = dataset.timeslices({
      appId: app.id,
      name,
      ...(scope.host === undefined ? {} : { host: scope.host }),
      ...(scope.instance ? { instanceName: scope.instance.instanceName } : {}),
      from: end - SUMMARY_MINUTES * MINUTE,
      to: end,
    })
    for (const row of rows) {
      if (name !== PRESENCE) {
        add(sums[name]!, row.value)
        served = true
      }
      hosts.add(row.host)
      instances.add(`${row.host}\u0000${row.instanceName}`)
    }
  }
  // A reporting application keeps its summary, zeros when idle (PGN and HUBOT fixtures leave it out
  // for apps that do not report; BKS drops apps without one as not reporting); a host or instance
  // has one only with transactions in the window.
  if (hosts.size === 0 || (!served && level === 'member')) return {}
  const web = sums['HttpDispatcher']!
  const other = sums['OtherTransaction/all']!
  const apdex = sums['Apdex']!
  const calls = web.count + other.count
  // hosts and instances: all transactions (the bridge's hosts summary is the same; no source shows
  // v2's for a host)
  const all = { count: calls, total: web.total + other.total }
  const shown = level === 'member' ? all : web.count > 0 ? web : other
  const score = (s: typeof apdex) =>
    r2(per(s.count + s.total / 2, s.count + s.total + s.totalExclusive))
  const application: Record<string, number> = {
    response_time: r(per(shown.total, shown.count) * 1000),
    throughput: r(shown.count / SUMMARY_MINUTES),
    error_rate: r(per(sums['Errors/all']!.count, calls) * 100),
    ...(level === 'application' ? { apdex_target: app.apdexT } : {}),
    apdex_score: score(apdex),
    ...(level === 'application' ? { host_count: hosts.size } : {}),
    instance_count: instances.size,
    // The instances that reported in the window, last (newrelic-client-go pkg/apm
    // applications_test.go, on a web application; v2 explorer AppSummaryResponse).
    ...(level === 'application' ? { concurrent_instance_count: instances.size } : {}),
  }
  const pages = sums['EndUser']!
  if (app.browserApdexT === null || pages.rows === 0) return { application }
  const endUser: Record<string, number> = {
    response_time: r(per(pages.total, pages.count)),
    throughput: r(pages.count / SUMMARY_MINUTES),
    ...(level === 'application' ? { apdex_target: app.browserApdexT } : {}),
    apdex_score: score(sums['EndUser/Apdex']!),
  }
  return { application, endUser }
}

/** Hosts and `host\0instanceName` of the app that reported in the last hour (D-hostids: the ID
 * lists show "any that have reported for approximately the last hour"). */
export function recentMembers(dataset: Dataset, appId: number, accountId: number) {
  const end = dataset.window().end
  const hosts = new Set<string>()
  const instances = new Set<string>()
  const rows = dataset.store.scan({
    accountId,
    appIds: [appId],
    names: ['Memory/Physical'],
    since: end - 60 * MINUTE,
    until: end,
    seriesOnce: true,
  })
  for (const row of rows) {
    hosts.add(row.host)
    instances.add(`${row.host}\u0000${row.instanceName}`)
  }
  return { hosts, instances }
}

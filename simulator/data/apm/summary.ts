/** @module simulator/data/apm/summary — apmSummary / apmBrowserSummary computed from the app's own timeslices. */
import type { Dataset } from '../dataset'
import type { Application } from '../model'
import { nth } from '../prng'
import { MINUTE } from './timeslices'

/** The summary window: the last 3 complete minutes. A simulator choice: NerdGraph does not document
 * its apmSummary window; this is v2's ("a rolling three- to four-minute average", New Relic docs
 * "Summary data examples (v2)"), so the demo's v2 stand-in and NerdGraph agree. */
export const SUMMARY_MINUTES = 3

/** NerdGraph `ApmApplicationSummaryData` [schema]: seconds, calls per minute, error percentage. */
export interface ApmSummary {
  apdexScore: number | null
  errorRate: number
  hostCount: number
  instanceCount: number
  responseTimeAverage: number
  throughput: number
  webResponseTimeAverage: number
  webThroughput: number
  nonWebResponseTimeAverage: number
  nonWebThroughput: number
}

export interface BrowserSummary {
  ajaxRequestThroughput: number
  ajaxResponseTimeAverage: number
  jsErrorRate: number
  pageLoadThroughput: number
  pageLoadTimeAverage: number
}

const SUMMARY_NAMES = [
  'HttpDispatcher',
  'OtherTransaction/all',
  'Errors/all',
  'Apdex',
  'Memory/Physical',
]

function summaryWindow(dataset: Dataset): { since: number; until: number } {
  const { end } = dataset.window()
  return { since: end - SUMMARY_MINUTES * MINUTE, until: end }
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0)

/** null for an app that is not reporting. Averages are 0 when there were no calls. */
export function apmSummary(dataset: Dataset, app: Application): ApmSummary | null {
  if (!app.reporting) return null
  const web = { calls: 0, time: 0 }
  const other = { calls: 0, time: 0 }
  const sum = { errors: 0, s: 0, t: 0, f: 0 }
  const hosts = new Set<string>()
  const instances = new Set<string>()
  const rows = dataset.store.scan({
    accountId: app.accountId,
    appIds: [app.id],
    names: SUMMARY_NAMES,
    ...summaryWindow(dataset),
  })
  for (const { metricTimesliceName: name, value, host, instanceName } of rows) {
    hosts.add(host)
    instances.add(`${host}|${instanceName}`)
    if (name === 'HttpDispatcher' || name === 'OtherTransaction/all') {
      const part = name === 'HttpDispatcher' ? web : other
      part.calls += value.count
      part.time += value.total
    } else if (name === 'Errors/all') sum.errors += value.count
    else if (name === 'Apdex') {
      sum.s += value.count
      sum.t += value.total
      sum.f += value.totalExclusive
    }
  }
  const calls = web.calls + other.calls
  const apdexCalls = sum.s + sum.t + sum.f
  return {
    apdexScore: apdexCalls > 0 ? (sum.s + sum.t / 2) / apdexCalls : null,
    // A percent, as the schema describes it ("The percentage of responses to all transactions with
    // an error", `ApmApplicationSummaryData.errorRate`); whether live answers 0–100 or 0–1 is unknown.
    errorRate: ratio(sum.errors, calls) * 100,
    hostCount: hosts.size,
    instanceCount: instances.size,
    responseTimeAverage: ratio(web.time + other.time, calls),
    throughput: calls / SUMMARY_MINUTES,
    webResponseTimeAverage: ratio(web.time, web.calls),
    webThroughput: web.calls / SUMMARY_MINUTES,
    nonWebResponseTimeAverage: ratio(other.time, other.calls),
    nonWebThroughput: other.calls / SUMMARY_MINUTES,
  }
}

/** Page loads from EndUser rows; AJAX and JS error figures are synthetic (no metrics behind them). */
export function browserSummary(dataset: Dataset, app: Application): BrowserSummary | null {
  if (app.browserApdexT === null || !app.reporting) return null
  let loads = 0
  let time = 0
  const rows = dataset.store.scan({
    accountId: app.accountId,
    appIds: [app.id],
    names: ['EndUser'],
    ...summaryWindow(dataset),
  })
  for (const { value } of rows) {
    loads += value.count
    time += value.total
  }
  const pageLoadThroughput = loads / SUMMARY_MINUTES
  return {
    ajaxRequestThroughput: pageLoadThroughput * (2 + 2 * nth(app.id, 50)),
    ajaxResponseTimeAverage: 0.08 + 0.3 * nth(app.id, 51),
    jsErrorRate: 0.2 + 3 * nth(app.id, 52),
    pageLoadThroughput,
    pageLoadTimeAverage: ratio(time, loads),
  }
}

/**
 * @module resources/applications/browser
 * v2 summaries over v2's own window from timeslices. `end_user_summary` and
 * `end_user_apdex_threshold`: NerdGraph's APM entity has no browser apdex (schema
 * `ApmApplicationEntity`), but `EndUser/Apdex` rows carry s/t/f and the threshold (D-nrql Apdex
 * table), and `EndUser` rows the page loads. `application_summary`'s response time, throughput,
 * error rate and Apdex: `apmSummary` averages over a window NerdGraph does not document, and no
 * public answer shows whether its `errorRate` is 0–100 or 0–1 (unknown; `v2bridge doctor` probes
 * it), so the same query sums the transaction, error and Apdex timeslices of v2's window.
 */
import { quote } from '../../core/nrql'
import { round2, round3 } from '../../core/numbers'
import { summaryWindowMs } from '../../../mappings/topology'
import { facetedRows, type FacetedNrql } from '../../upstream/nrql-rows'

export interface BrowserSummary {
  /** v2 `end_user_summary` (D-summary: response time in seconds, page views per minute). */
  summary: Record<string, number> | undefined
  /** Browser apdex T in seconds, when EndUser/Apdex reported. */
  apdexT: number | undefined
  /** v2 `application_summary` figures over the window; undefined without a row. */
  application?: WindowFigures
}

/** Response time (ms) and throughput (calls per minute) of web transactions for an application
 * that has them, else of the others (New Relic docs "Get average throughput for an app (v2)":
 * HttpDispatcher for web apps, OtherTransaction/all for non-web; "Get web transaction time data
 * (v2)"); error rate and Apdex score over all transactions. */
export interface WindowFigures {
  response_time: number
  throughput: number
  error_rate: number
  apdex_score: number
}

/** The last whole minutes that v2 summaries cover, [since, until) in epoch ms. */
export function summaryWindow(now: number): [number, number] {
  const until = Math.floor(now / 60_000) * 60_000
  return [until - summaryWindowMs, until]
}

/** `scope`: one application's GUID, or every application of the account (`FACET appId`);
 * `clauses` narrow it (a half of a cut answer, src/upstream/nrql-pages.ts). */
export function browserNrql(
  scope: { guid: string } | 'account',
  window: [number, number],
  clauses: readonly string[] = []
): string {
  const where = typeof scope === 'object' ? `entity.guid = ${quote(scope.guid)} AND ` : ''
  const facet = typeof scope === 'object' ? '' : 'FACET appId '
  const apdex = `WHERE metricTimesliceName = 'EndUser/Apdex'`
  const pages = `WHERE metricTimesliceName = 'EndUser'`
  const calls = `WHERE metricTimesliceName IN ('HttpDispatcher', 'OtherTransaction/all')`
  const web = `WHERE metricTimesliceName = 'HttpDispatcher'`
  const app = `WHERE metricTimesliceName = 'Apdex'`
  const v = 'newrelic.timeslice.value'
  return (
    `SELECT filter(count(newrelic.timeslice.value), ${apdex}) AS 's', ` +
    `filter(sum(newrelic.timeslice.value), ${apdex}) AS 't', ` +
    `filter(sum(newrelic.timeslice.value['totalExclusive']), ${apdex}) AS 'f', ` +
    `filter(max(newrelic.timeslice.value), ${apdex}) AS 'threshold', ` +
    `filter(count(newrelic.timeslice.value), ${pages}) AS 'pageViews', ` +
    `filter(average(newrelic.timeslice.value), ${pages}) AS 'pageLoad', ` +
    `filter(count(newrelic.timeslice.value), ${calls}) AS 'calls', ` +
    `filter(count(newrelic.timeslice.value), WHERE metricTimesliceName = 'Errors/all') AS 'errors', ` +
    `filter(sum(${v}), ${calls}) AS 'time', filter(count(${v}), ${web}) AS 'webCalls', ` +
    `filter(sum(${v}), ${web}) AS 'webTime', filter(count(${v}), ${app}) AS 'as', ` +
    `filter(sum(${v}), ${app}) AS 'at', filter(sum(${v}['totalExclusive']), ${app}) AS 'af' ` +
    `FROM Metric WHERE ${where}scope IS NULL AND metricTimesliceName IN ('EndUser', 'EndUser/Apdex', ` +
    `'HttpDispatcher', 'OtherTransaction/all', 'Errors/all', 'Apdex') ` +
    clauses.map((c) => `AND ${c} `).join('') +
    `${facet}SINCE ${window[0]} UNTIL ${window[1]} LIMIT MAX`
  )
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)
const per = (a: number, b: number) => (b > 0 ? a / b : 0)
const apdexScore = (s: number, t: number, f: number) => round2(per(s + t / 2, s + t + f))

/** Pure: one row → `application_summary`'s figures over the window (web transactions' time and
 * calls where the window holds web calls, else all transactions'). */
function windowFigures(row: Record<string, unknown>): WindowFigures {
  const [calls, webCalls] = [num(row['calls']), num(row['webCalls'])]
  const [count, time] = webCalls > 0 ? [webCalls, num(row['webTime'])] : [calls, num(row['time'])]
  const minutes = summaryWindowMs / 60_000
  return {
    response_time: round3(per(time, count) * 1000), // seconds → v2 ms
    throughput: round3(count / minutes),
    // D-errrate: 100 × Errors/all over the HttpDispatcher and OtherTransaction/all calls
    error_rate: round3(per(100 * num(row['errors']), calls)),
    apdex_score: apdexScore(num(row['as']), num(row['at']), num(row['af'])),
  }
}

/** Pure: one result row → the v2 figures. */
export function browserSummaryFrom(row: Record<string, unknown> | undefined): BrowserSummary {
  if (!row) return { summary: undefined, apdexT: undefined }
  const [s, t, f] = [num(row['s']), num(row['t']), num(row['f'])]
  const apdexT = typeof row['threshold'] === 'number' ? row['threshold'] : undefined
  const application = windowFigures(row)
  const pageViews = num(row['pageViews'])
  if (pageViews === 0 && s + t + f === 0) return { summary: undefined, apdexT, application }
  const minutes = summaryWindowMs / 60_000
  return {
    apdexT,
    application,
    summary: {
      response_time: round3(num(row['pageLoad'])),
      throughput: round3(pageViews / minutes),
      apdex_target: round2(apdexT ?? 0),
      apdex_score: apdexScore(s, t, f),
    },
  }
}

/** Pure: `FACET appId` rows → per application (`appId` read by its position in `metadata.facets`,
 * src/upstream/nrql-rows.ts). */
export function browserSummariesFrom(field: FacetedNrql | null | undefined) {
  return new Map(
    facetedRows(field, ['appId']).map(({ row, facet }) => [
      Number(facet.appId),
      browserSummaryFrom(row),
    ])
  )
}

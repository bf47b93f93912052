/**
 * @module resources/applications/browser
 * v2 `end_user_summary` and `end_user_apdex_threshold` from browser timeslices: NerdGraph's APM
 * entity has no browser apdex (schema `ApmApplicationEntity`), but `EndUser/Apdex` rows carry s/t/f
 * and the threshold (D-nrql Apdex table), and `EndUser` rows the page loads. The same query counts
 * errors and calls, so v2's `error_rate` does not hang on the unit of `apmSummary.errorRate`: the
 * schema calls it "the percentage of responses to all transactions with an error", and no public
 * answer shows whether that is 0–100 or 0–1 (unknown; `v2bridge doctor` probes it).
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
  /** v2 `error_rate`, percent of calls (D-errrate: 100 × Errors/all over HttpDispatcher and
   * OtherTransaction/all calls); 0 without calls; undefined without a row. */
  errorRate?: number
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
  return (
    `SELECT filter(count(newrelic.timeslice.value), ${apdex}) AS 's', ` +
    `filter(sum(newrelic.timeslice.value), ${apdex}) AS 't', ` +
    `filter(sum(newrelic.timeslice.value['totalExclusive']), ${apdex}) AS 'f', ` +
    `filter(max(newrelic.timeslice.value), ${apdex}) AS 'threshold', ` +
    `filter(count(newrelic.timeslice.value), ${pages}) AS 'pageViews', ` +
    `filter(average(newrelic.timeslice.value), ${pages}) AS 'pageLoad', ` +
    `filter(count(newrelic.timeslice.value), ${calls}) AS 'calls', ` +
    `filter(count(newrelic.timeslice.value), WHERE metricTimesliceName = 'Errors/all') AS 'errors' ` +
    `FROM Metric WHERE ${where}scope IS NULL AND metricTimesliceName IN ('EndUser', 'EndUser/Apdex', ` +
    `'HttpDispatcher', 'OtherTransaction/all', 'Errors/all') ` +
    clauses.map((c) => `AND ${c} `).join('') +
    `${facet}SINCE ${window[0]} UNTIL ${window[1]} LIMIT MAX`
  )
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/** Pure: one result row → the v2 figures. */
export function browserSummaryFrom(row: Record<string, unknown> | undefined): BrowserSummary {
  if (!row) return { summary: undefined, apdexT: undefined }
  const [s, t, f] = [num(row['s']), num(row['t']), num(row['f'])]
  const apdexT = typeof row['threshold'] === 'number' ? row['threshold'] : undefined
  const calls = num(row['calls'])
  const errorRate = calls > 0 ? (100 * num(row['errors'])) / calls : 0
  const pageViews = num(row['pageViews'])
  if (pageViews === 0 && s + t + f === 0) return { summary: undefined, apdexT, errorRate }
  const minutes = summaryWindowMs / 60_000
  return {
    apdexT,
    errorRate,
    summary: {
      response_time: round3(num(row['pageLoad'])),
      throughput: round3(pageViews / minutes),
      apdex_target: round2(apdexT ?? 0),
      apdex_score: s + t + f > 0 ? round2((s + t / 2) / (s + t + f)) : 0,
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

/**
 * @module resources/applications/hosts/summary
 * Per-instance figures for v2 host and instance summaries (v2 explorer `AppSummaryDataResponse`) from
 * one NRQL faceted by host and instance, over the summary window (`clauses` narrow it: a half of a
 * cut answer, src/upstream/nrql-pages.ts). Sums are fetched, not averages, so host figures can be
 * folded from their instances exactly.
 */
import { quote } from '../../../core/nrql'
import { round2, round3 } from '../../../core/numbers'
import { facetedRows, type FacetedNrql } from '../../../upstream/nrql-rows'

/** Transaction rollups whose calls v2 summaries count (D-errrate: error rate =
 * 100 × Errors/all:error_count / (HttpDispatcher + OtherTransaction/all) call counts). */
const transactionNames = ['HttpDispatcher', 'OtherTransaction/all']

/** Page views (`EndUser`) and browser Apdex s/t/f (`EndUser/Apdex`) of each instance feed the v2
 * `end_user_summary` of hosts and instances (packing as in the D-nrql Apdex and EndUser tables). */
export function instanceSummaryNrql(
  guid: string,
  window: [number, number],
  clauses: readonly string[] = []
): string {
  const tx = `WHERE metricTimesliceName IN (${transactionNames.map((n) => quote(n)).join(', ')})`
  const apdex = `WHERE metricTimesliceName = 'Apdex'`
  const pages = `WHERE metricTimesliceName = 'EndUser'`
  const browser = `WHERE metricTimesliceName = 'EndUser/Apdex'`
  const v = 'newrelic.timeslice.value'
  return (
    `SELECT filter(count(${v}), ${tx}) AS 'calls', filter(sum(${v}), ${tx}) AS 'time', ` +
    `filter(count(${v}), WHERE metricTimesliceName = 'Errors/all') AS 'errors', ` +
    `filter(count(${v}), ${apdex}) AS 's', filter(sum(${v}), ${apdex}) AS 't', ` +
    `filter(sum(${v}['totalExclusive']), ${apdex}) AS 'f', ` +
    `filter(count(${v}), ${pages}) AS 'pageViews', filter(sum(${v}), ${pages}) AS 'pageTime', ` +
    `filter(count(${v}), ${browser}) AS 'es', filter(sum(${v}), ${browser}) AS 'et', ` +
    `filter(sum(${v}['totalExclusive']), ${browser}) AS 'ef' ` +
    `FROM Metric WHERE entity.guid = ${quote(guid)} AND scope IS NULL AND metricTimesliceName IN ` +
    `('HttpDispatcher', 'OtherTransaction/all', 'Errors/all', 'Apdex', 'EndUser', 'EndUser/Apdex') ` +
    clauses.map((c) => `AND ${c} `).join('') +
    `FACET host, instanceName SINCE ${window[0]} UNTIL ${window[1]} LIMIT MAX`
  )
}

const fields = [
  'calls',
  'time',
  'errors',
  's',
  't',
  'f',
  'pageViews',
  'pageTime',
  'es',
  'et',
  'ef',
] as const

export type Sums = Record<(typeof fields)[number], number>

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/** Pure: the answer's rows → sums per `host\0instanceName`, both read by their position in
 * `metadata.facets` (a two-attribute FACET row carries only `facet`, src/upstream/nrql-rows.ts). */
export function sumsByInstance(field: FacetedNrql | null | undefined): Map<string, Sums> {
  const out = new Map<string, Sums>()
  for (const { row, facet } of facetedRows(field, ['host', 'instanceName'])) {
    if (typeof facet.host !== 'string' || typeof facet.instanceName !== 'string') continue
    out.set(
      `${facet.host}\u0000${facet.instanceName}`,
      Object.fromEntries(fields.map((k) => [k, num(row[k])])) as Sums
    )
  }
  return out
}

export function addSums(list: readonly Sums[]): Sums | undefined {
  if (list.length === 0) return undefined
  return list.reduce((a, b) => Object.fromEntries(fields.map((k) => [k, a[k] + b[k]])) as Sums)
}

/** v2 units: response time in ms, throughput per minute, error rate in percent, apdex score. */
export function v2Summary(sums: Sums, windowMinutes: number, instanceCount: number) {
  const answered = sums.s + sums.t + sums.f
  return {
    response_time: sums.calls > 0 ? round3((sums.time / sums.calls) * 1000) : 0,
    throughput: round3(sums.calls / windowMinutes),
    error_rate: sums.calls > 0 ? round3((100 * sums.errors) / sums.calls) : 0,
    apdex_score: answered > 0 ? round2((sums.s + sums.t / 2) / answered) : 0,
    instance_count: instanceCount,
  }
}

/** Page views or browser Apdex answers in the window (as `browserSummaryFrom` of applications). */
export const hasBrowserData = (s: Sums) => s.pageViews > 0 || s.es + s.et + s.ef > 0

/** v2 host/instance `end_user_summary` (no apdex_target: v2 explorer `AppSummaryDataResponse`,
 * AMB): page load in seconds, page views per minute, browser Apdex, as the application's
 * (src/resources/applications/browser.ts). */
export function v2EndUserSummary(sums: Sums, windowMinutes: number) {
  const answered = sums.es + sums.et + sums.ef
  return {
    response_time: sums.pageViews > 0 ? round3(sums.pageTime / sums.pageViews) : 0,
    throughput: round3(sums.pageViews / windowMinutes),
    apdex_score: answered > 0 ? round2((sums.es + sums.et / 2) / answered) : 0,
  }
}

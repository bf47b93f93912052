/**
 * @module resources/metrics/plan
 * v2 metric call → GraphQL document, variables and NRQL (pure). This is also the "explain" of a call:
 * `planMetricData(request, scope).nrql` is the NRQL a v2 metric-data call stands for.
 *
 * One GraphQL request answers every name and value of a call (GraphQL aliases of `Account.nrql`): one
 * NRQL per metric family, whose select list is the NRQL that family's requested values need
 * (identical expressions fetched once, no column of another family), `FACET metricTimesliceName`
 * splits it per metric, `TIMESERIES` per slice (D-nrql). Over 2000 names (the FACET cap) a family's
 * names are split further. Values read from other metrics of the scope (EndUser `error_percentage`:
 * EndUser/errors over Browser, D-nrql) take one more query without that FACET, alias `others`.
 * Every query is an alias of the same document.
 */
import { quote } from '../../core/nrql'
import type { TimeRange } from '../../core/time-range'
import { columnsOf, type ValueRead } from './columns'
import { metricDataDocument, metricNamesDocument } from './documents'
import { defaultTables, type Tables } from './families'
import { nrqlTimeoutS } from '../../upstream/nrql-timeout'
import { rangeClauses, type Range } from '../../upstream/nrql-pages'

export { namesPerQuery, scaled, type ValueRead } from './columns'

/** Where the data comes from: an application, optionally one host or one agent instance. */
export interface MetricScope {
  accountId: number
  guid: string
  host?: string
  instanceName?: string
  /** Split by these attributes too, for a host or instance not resolved yet: its rows are picked
   * from the answer (src/resources/metrics/cold-scope.ts). */
  facetBy?: readonly ('host' | 'instanceName')[]
}

export interface MetricDataRequest {
  /** When the call arrived (epoch ms): the end of the metric-names window that tells known names. */
  now: number
  /** Request order, without duplicates. */
  names: string[]
  /** null: every value of each metric's family. */
  values: string[] | null
  range: TimeRange
  raw: boolean
}

export interface MetricDataPlan {
  document: string
  variables: Record<string, string | number>
  /** The NRQL of each alias `q0`, `q1`… */
  nrql: string[]
  /** The NRQL of alias `others`: inputs read from other metrics of the scope, or null. */
  othersNrql: string | null
  /** Names the scope is known to have (from the metric-names cache), or null: then the NRQL of
   * aliases `k0`, `k1`… (one per `q` alias) in `knownNrql` asks which requested names exist. */
  known: ReadonlySet<string> | null
  knownNrql: string[]
  metrics: { name: string; values: ValueRead[] }[]
  range: TimeRange
  raw: boolean
}

/**
 * `known`: the scope's metric names when the cache has them. A requested name with no data in the
 * range but among the scope's metric names is found, with zero values (docs "Extract metric
 * timeslice data": "Metric values that have existed in the past, but are no longer collected, will
 * return a zero value"); without the cache, aliases `k…` of the same document ask for those names.
 */
export function planMetricData(
  request: MetricDataRequest,
  scope: MetricScope,
  known: ReadonlySet<string> | null = null,
  tables: Tables = defaultTables
): MetricDataPlan {
  const { groups, nameLists, others, metrics } = columnsOf(request.names, request.values, tables)
  const facet = ['metricTimesliceName', ...(scope.facetBy ?? [])]
  const nrql = groups.flatMap(({ select, nameLists }) =>
    nameLists.map((names) => metricDataNrql(select, names, facet, scope, request.range))
  )
  const othersNrql =
    others && metricDataNrql(others.select, others.names, scope.facetBy ?? [], scope, request.range)
  const knownNrql = known
    ? []
    : nameLists.map((names) =>
        metricNamesNrql(scope, [`metricTimesliceName IN ${names}`], request.now)
      )
  return {
    document: metricDataDocument(nrql.length, knownNrql.length, { others: othersNrql !== null }),
    variables: {
      accountId: scope.accountId,
      timeout: nrqlTimeoutS(request.names.length, rangeMinutes(request.range)),
      ...Object.fromEntries(nrql.map((q, i) => [`q${i}`, q])),
      ...Object.fromEntries(knownNrql.map((q, i) => [`k${i}`, q])),
      ...(othersNrql === null ? {} : { others: othersNrql }),
    },
    nrql,
    othersNrql,
    known,
    knownNrql,
    metrics,
    range: request.range,
    raw: request.raw,
  }
}

/** Minutes of data a call reads. */
const rangeMinutes = (range: TimeRange) => Math.ceil((range.end - range.start) / 60_000)

/** The explain view of a call: what is sent upstream. */
export function explainMetricData(request: MetricDataRequest, scope: MetricScope) {
  const { document, variables, nrql, othersNrql, knownNrql } = planMetricData(request, scope)
  return { document, variables, nrql, othersNrql, knownNrql }
}

/** `select`: the select list; `names`: an `IN (…)` list (src/resources/metrics/columns.ts); no
 * `facet`: one row per slice (the `others` query of an application or a resolved host). */
function metricDataNrql(
  select: string,
  names: string,
  facet: readonly string[],
  scope: MetricScope,
  range: TimeRange
) {
  const minutes = range.sliceMs / 60_000
  const series = range.summarize
    ? ''
    : ` TIMESERIES ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`
  return (
    `SELECT ${select} FROM Metric WHERE ${scopeWhere(scope)} AND ` +
    // Unscoped rollups only: the scoped copies of Datastore/External rows would count calls twice
    // (NRQL-timeslice: rows carry a `scope` attribute; v2 data.json has no scope parameter).
    `scope IS NULL AND metricTimesliceName IN ${names} ` +
    (facet.length ? `FACET ${facet.join(', ')} ` : '') +
    `SINCE ${range.start} UNTIL ${range.end}${series}${facet.length ? ' LIMIT MAX' : ''}`
  )
}

/** `entity.guid` avoids the string-or-number question of `appId` (D-nrql quotes it, D-migrate does
 * not); a host is `host = '…'` (D-migrate "Application host/instance metric data"), an instance its
 * host and `instanceName` (NRQL-timeslice attribute table). */
export function scopeWhere(scope: MetricScope): string {
  const clauses = [`entity.guid = ${quote(scope.guid)}`]
  if (scope.host !== undefined) clauses.push(`host = ${quote(scope.host)}`)
  if (scope.instanceName !== undefined) clauses.push(`instanceName = ${quote(scope.instanceName)}`)
  return clauses.join(' AND ')
}

/**
 * Metric names are those that reported in the last 8 days. v2 listed every name it ever knew
 * (D-migrate tip); NRQL only sees names in its window (D-migrate). Eight days is v2's own
 * "recent data" horizon (D-extract's granularity table changes at 8 days), covers weekly jobs and a
 * weekend of silence, and stays inside every retention; `uniques()` goes to its 10,000 maximum
 * (NRQL-syntax) instead of the 1,000 default. The window ends on the minute so a repeated call
 * sends the same NRQL.
 */
export const metricNamesWindowMs = 8 * 24 * 60 * 60 * 1000
export const metricNamesLimit = 10_000

export function planMetricNames(
  scope: MetricScope,
  filter: string | undefined,
  now: number,
  range: Range = {}
) {
  // Substring filter upstream (NRQL `LIKE`). `%` and `_` in the caller's text are LIKE
  // wildcards, so the upstream match can only be wider; src/resources/metrics/names.ts re-checks each name
  // as a plain substring, which is v2's "simple character match" (v2 explorer, metric names `name`).
  const like = filter ? [`metricTimesliceName LIKE ${quote(`%${filter}%`)}`] : []
  const clauses = [...like, ...rangeClauses('metricTimesliceName', range)]
  // uniqueCount() beside it tells a list cut at the cap (src/upstream/nrql-pages.ts).
  const nrql = metricNamesNrql(scope, clauses, now, `, uniqueCount(metricTimesliceName) AS 'count'`)
  return { document: metricNamesDocument, variables: { accountId: scope.accountId, nrql }, nrql }
}

/** `uniques()` of the scope's metric names in the 8 days before `now`, narrowed by `clauses`;
 * `more`: further select items. */
function metricNamesNrql(scope: MetricScope, clauses: string[], now: number, more = ''): string {
  const until = Math.floor(now / 60_000) * 60_000
  const where = [scopeWhere(scope), 'newrelic.timeslice.value IS NOT NULL', ...clauses]
  const facet = scope.facetBy?.length ? ` FACET ${scope.facetBy.join(', ')} LIMIT MAX` : ''
  return (
    `SELECT uniques(metricTimesliceName, ${metricNamesLimit}) AS 'names'${more} FROM Metric ` +
    `WHERE ${where.join(' AND ')} SINCE ${until - metricNamesWindowMs} UNTIL ${until}${facet}`
  )
}

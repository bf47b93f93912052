/**
 * @module resources/key-transactions/plan
 * v2 key-transaction parameters → entity-search query and summary NRQL (pure).
 */
import { entitySearchQuery } from '../../entities/entity-search'
import { quote, quoteList } from '../../core/nrql'
import { membershipWindowMs, presenceMetricNames } from '../../../mappings/topology'
import { idList, type V2Params } from '../../http/params'

export interface KeyTransactionFilters {
  name?: string
  ids?: number[]
}

export function keyTransactionFilters(p: V2Params): KeyTransactionFilters {
  const f: KeyTransactionFilters = {}
  const name = p.get('filter[name]')?.trim()
  if (name) f.name = name
  const ids = idList(p, 'filter[ids]', 'filter[id]')
  if (ids) f.ids = ids
  return f
}

/** Key transactions are domain EXT, type KEY_TRANSACTION (newrelic/entity-definitions
 * `ext-key_transaction`); `filter[name]` is v2's "simple string match, no REGEXP" (D-summary). */
export function keyTransactionSearchQuery(f: KeyTransactionFilters, accountId?: number): string {
  return entitySearchQuery({ domain: 'EXT', type: 'KEY_TRANSACTION' }, f, accountId)
}

/** v2 key-transaction summaries cover the last 10 minutes (D-summary). */
export const summaryWindowMs = 10 * 60_000

export function summaryWindow(now: number): [number, number] {
  const until = Math.floor(now / 60_000) * 60_000
  return [until - summaryWindowMs, until]
}

const v = 'newrelic.timeslice.value'
const where = (names: string) => `WHERE metricTimesliceName ${names}`
const otherNames = `('Apdex', 'Errors/all', 'EndUser', 'EndUser/Apdex')`

/**
 * The timeslices of the key transactions `guids` (the migration guide reads them `WHERE entity.guid
 * = '<KT GUID>'`, D-migrate): the transaction's own rows give calls and time, `Apdex` s/t/f
 * against the key transaction's target, `Errors/all` its errors, `EndUser[/Apdex]` the browser side.
 */
export function summaryNrql(guids: readonly string[], window: [number, number]): string {
  const tx = where(`NOT IN ${otherNames}`)
  const apdex = where(`= 'Apdex'`)
  const page = where(`= 'EndUser'`)
  const browserApdex = where(`= 'EndUser/Apdex'`)
  return (
    `SELECT filter(count(${v}), ${tx}) AS 'calls', filter(average(${v}), ${tx}) AS 'duration', ` +
    `filter(count(${v}), ${where(`= 'Errors/all'`)}) AS 'errors', ` +
    `filter(count(${v}), ${apdex}) AS 's', filter(sum(${v}), ${apdex}) AS 't', ` +
    `filter(sum(${v}['totalExclusive']), ${apdex}) AS 'f', ` +
    `filter(count(${v}), ${page}) AS 'pageViews', filter(average(${v}), ${page}) AS 'pageLoad', ` +
    `filter(count(${v}), ${browserApdex}) AS 'bs', filter(sum(${v}), ${browserApdex}) AS 'bt', ` +
    `filter(sum(${v}['totalExclusive']), ${browserApdex}) AS 'bf' ` +
    `FROM Metric WHERE entity.guid IN ${quoteList(guids)} AND scope IS NULL ` +
    `FACET entity.guid SINCE ${window[0]} UNTIL ${window[1]} LIMIT MAX`
  )
}

/** When each parent application of `appGuids` last reported, in the hour before `until` (v2 lists
 * what reported "for approximately the last hour", mappings/topology.ts), by the presence metrics
 * applications use: a key transaction's `last_reported_at` is its application's, as v2 kept no
 * timeslices of a key transaction's own, only the parent transaction's (New Relic docs "Summary
 * data examples (v2)"). */
export function lastReportedNrql(appGuids: readonly string[], until: number): string {
  const presence = presenceMetricNames.map((n) => quote(n)).join(', ')
  return (
    `SELECT max(timestamp) AS 'lastReported' FROM Metric ` +
    `WHERE entity.guid IN ${quoteList(appGuids)} AND scope IS NULL ` +
    `AND metricTimesliceName IN (${presence}) ` +
    `FACET entity.guid SINCE ${until - membershipWindowMs} UNTIL ${until} LIMIT MAX`
  )
}

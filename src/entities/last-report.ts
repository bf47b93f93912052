/**
 * @module entities/last-report
 * When an application's agent last reported, to the second, as v2's `last_reported_at` shows it
 * (`2014-07-29T23:45:07+00:00`, D-health; "The last time the application reported data", v2
 * explorer). NerdGraph's entity has no such field (`reporting` is a flag, `lastReportingChangeAt`
 * the time that flag last changed: schema `ApmApplicationEntity`), and a timeslice row covers a
 * whole minute. The newest `Transaction` event (New Relic docs "Events reported by APM"; read by
 * `appId` as public NRQL examples do) has the millisecond, and agents send events every five
 * seconds (New Relic docs "Details on APM real-time streaming"; every minute for older agents), so
 * the newest event stands for the last report [INFERRED]. Rejected: the timeslices' own `timestamp`
 * (one-minute rows) and entity fields (above). Where the last minute of timeslices has no event (no
 * transactions, or transaction events turned off), that minute's start stands for it (below).
 */
import { quoteList } from '../core/nrql'
import { facetedRows, type FacetedNrql } from '../upstream/nrql-rows'

/** v2 shows `last_reported_at` only while the application reports, which it stops doing after 10
 * minutes without data (D-health): no newer report can be older than that. */
export const lastEventWindowMs = 10 * 60_000

/** NRQL of the newest `Transaction` event per application (`FACET appId`) in the 10 minutes before
 * `until`: of `appIds`, or of the whole account; `clauses` narrow it (a half of a cut answer,
 * src/upstream/nrql-pages.ts). Events, so never shared across callers (src/upstream/reuse.ts
 * shares `Metric` queries only). */
export function lastEventNrql(
  appIds: readonly number[] | 'account',
  until: number,
  clauses: readonly string[] = []
): string {
  const where = [...(appIds === 'account' ? [] : [`appId IN ${quoteList(appIds)}`]), ...clauses]
  return (
    `SELECT max(timestamp) AS 'lastEvent' FROM Transaction ` +
    (where.length ? `WHERE ${where.join(' AND ')} ` : '') +
    `FACET appId SINCE ${until - lastEventWindowMs} UNTIL ${until} LIMIT MAX`
  )
}

/** Pure: a `lastEventNrql` answer → newest event (epoch ms) by application ID, `appId` read by its
 * position in `metadata.facets` (src/upstream/nrql-rows.ts). */
export function lastEventsFrom(field: FacetedNrql | null | undefined): Map<number, number> {
  const out = new Map<number, number>()
  for (const { row, facet } of facetedRows(field, ['appId'])) {
    const appId = Number(facet.appId)
    const last = row['lastEvent']
    if (Number.isSafeInteger(appId) && typeof last === 'number') out.set(appId, last)
  }
  return out
}

/**
 * Pure: the epoch ms v2 shows as `last_reported_at`, to the second. `minute` is the start of the
 * newest timeslice minute (`max(timestamp) FROM Metric`), `event` the newest `Transaction` event.
 * An event in or after that minute is the report. Else the minute's start: the agent harvests once
 * a minute (New Relic docs "Monitor short-lived .NET processes"), so v2 shows a report in that
 * minute, or, read just before the next harvest, the one a minute earlier; the start is under a
 * minute from either [INFERRED: which minute NRDB files a harvest under is not public].
 * @example lastReportedAt(Date.UTC(2026, 0, 1, 9, 9), Date.UTC(2026, 0, 1, 9, 9, 10, 450)) // 09:09:10
 */
export function lastReportedAt(
  minute: number | undefined,
  event: number | undefined
): number | undefined {
  const at = event !== undefined && (minute === undefined || event >= minute) ? event : minute
  return at === undefined ? undefined : Math.floor(at / 1000) * 1000
}

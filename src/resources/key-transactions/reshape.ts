/**
 * @module resources/key-transactions/reshape
 * Key-transaction entity + details + summary row → v2 record (D-summary; GO fixtures), pure.
 */
import {
  healthStatusBySeverity,
  notReportingHealthStatus,
  type AlertSeverity,
} from '../../../mappings/health-status'
import { decodeGuid } from '../../core/identity'
import { round2, round3 } from '../../core/numbers'
import { formatTime } from '../../core/time-range'
import type { KeyTransactionDetails, KeyTransactionOutline } from './documents'
import { summaryWindowMs } from './plan'
import { facetedRows, type FacetedNrql } from '../../upstream/nrql-rows'
import { lastReportedAt } from '../../entities/last-report'

/** D-summary: the show and list `links` template. */
export const keyTransactionLinkTemplates = {
  'key_transaction.application': '/v2/applications/{application_id}',
} as const

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

function apdexScore(s: number, t: number, f: number): number {
  return s + t + f > 0 ? round2((s + t / 2) / (s + t + f)) : 0
}

/** The parent application's v2 ID: from its entity, else from its GUID (`acct|APM|APPLICATION|id`). */
function applicationId(d: KeyTransactionDetails | undefined): number | null {
  const fromEntity = d?.application?.entity?.applicationId
  if (typeof fromEntity === 'number') return fromEntity
  const decoded = d?.application ? decodeGuid(d.application.guid) : undefined
  const id = Number(decoded?.domainId)
  return Number.isSafeInteger(id) ? id : null
}

/**
 * The transaction's name as v2 showed it: its metric name without the `WebTransaction/<category>/`
 * (or `OtherTransaction/…`) prefix. Every recorded v2 key transaction shows that part only
 * (newrelic-client-go pkg/apm/key_transactions_test.go `"transaction_name": "get /"`; New Relic
 * docs "Summary data examples (v2)" `"transaction_name": "/ws/Reaction"`).
 * @example transactionName('WebTransaction/Go/get /') // 'get /'
 */
export function transactionName(metricName: string): string {
  return metricName.replace(/^(?:Web|Other)Transaction\/[^/]+\/(?=.)/, '')
}

/** Keys in the order of the GO fixtures. Summaries only while reporting, and
 * `end_user_summary` only with browser data, as applications do (src/resources/applications/reshape.ts). */
export function toV2KeyTransaction(
  id: number,
  o: KeyTransactionOutline,
  d: KeyTransactionDetails | undefined,
  row: Record<string, unknown> | undefined
): Record<string, unknown> {
  const reporting = o.reporting === true
  const record: Record<string, unknown> = {
    id,
    name: o.name,
    transaction_name: transactionName(d?.metricName ?? ''),
    health_status: reporting
      ? (healthStatusBySeverity[o.alertSeverity as AlertSeverity] ?? 'unknown')
      : notReportingHealthStatus,
    reporting,
  }
  // the application's, to the second as applications' (src/entities/last-report.ts)
  const at = (key: string) => (typeof row?.[key] === 'number' ? (row[key] as number) : undefined)
  const last = lastReportedAt(at('lastReported'), at('lastEvent'))
  if (reporting && last !== undefined) record['last_reported_at'] = formatTime(last)
  if (reporting) {
    const minutes = summaryWindowMs / 60_000
    const calls = num(row?.['calls'])
    record['application_summary'] = {
      response_time: round3(num(row?.['duration']) * 1000), // timeslice seconds → v2 ms
      throughput: round3(calls / minutes), // calls per minute
      error_rate: calls > 0 ? round3((num(row?.['errors']) / calls) * 100) : 0, // a percentage
      apdex_target: round2(d?.apdexTarget ?? 0),
      apdex_score: apdexScore(num(row?.['s']), num(row?.['t']), num(row?.['f'])),
    }
    const [bs, bt, bf] = [num(row?.['bs']), num(row?.['bt']), num(row?.['bf'])]
    const pageViews = num(row?.['pageViews'])
    if (pageViews > 0 || bs + bt + bf > 0) {
      record['end_user_summary'] = {
        response_time: round3(num(row?.['pageLoad'])), // seconds, as application end_user_summary
        throughput: round3(pageViews / minutes),
        apdex_target: round2(d?.browserApdexTarget ?? 0),
        apdex_score: apdexScore(bs, bt, bf),
      }
    }
  }
  record['links'] = { application: applicationId(d) }
  return record
}

/** Pure: `FACET entity.guid` rows by GUID, read by its position in `metadata.facets`
 * (src/upstream/nrql-rows.ts). */
export function summaryRows(field: FacetedNrql | null | undefined) {
  return new Map(
    facetedRows(field, ['entity.guid']).map(({ row, facet }) => [String(facet['entity.guid']), row])
  )
}

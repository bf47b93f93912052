/**
 * @module resources/metrics/documents
 * GraphQL documents of the metric routes (schema: `Account.nrql`). Metric data sends one NRQL per
 * 2000 metric names (the FACET cap) as aliases `q0`, `q1`… of one document, so a v2 call is always
 * one request; the one-alias document, by far the usual, is built at module load, others on first
 * use. Metric names use the shared one-query document (src/upstream/nrql-document.ts).
 */
import { gql } from 'graphql-request'
import { facetedNrqlFields } from '../../upstream/nrql-rows'
import { pagedNrqlFields, type PagedNrql } from '../../upstream/nrql-pages'

export {
  nrqlDocument as metricNamesDocument,
  type NrqlData as MetricNamesData,
} from '../../upstream/nrql-document'

/** Aliases beside the data and known-names ones: `others`, inputs read from other metrics of the
 * scope (src/resources/metrics/columns.ts); `members`, the application's hosts and instances
 * (src/resources/metrics/cold-scope.ts). */
export interface ExtraAliases {
  others?: boolean
  members?: boolean
}

/** `$timeout` follows the size of the call (src/upstream/nrql-timeout.ts, within NerdGraph's
 * 5–120 s clamp). Data aliases `qN` (one per metric family and 2000 names), known-names aliases `kN` (one per 2000
 * names: which of them the scope has reported, src/resources/metrics/plan.ts), then `extra`. */
function build(aliases: number, known: number, extra: ExtraAliases = {}): string {
  const indexes = (n: number) => Array.from({ length: n }, (_, i) => i)
  const names = [
    ...indexes(aliases).map((i) => `q${i}`),
    ...indexes(known).map((i) => `k${i}`),
    ...(extra.others ? ['others'] : []),
    ...(extra.members ? ['members'] : []),
  ]
  const variables = names.map((n) => `$${n}: Nrql!`).join(', ')
  // A cold scope's split may be cut: `otherResult` tells (src/resources/metrics/cold-scope.ts).
  const selection = extra.members ? pagedNrqlFields : facetedNrqlFields
  const fields = names.map((n) => `${n}: nrql(query: $${n}, timeout: $timeout) { ${selection} }`)
  return gql`
    query MetricData($accountId: Int!, $timeout: Seconds, ${variables}) {
      actor {
        account(id: $accountId) {
          ${fields.join('\n          ')}
        }
      }
    }
  `
}

const built = new Map<string, string>([
  ['1 1', build(1, 1)],
  ['1 0', build(1, 0)],
])

/** The metric-data document with `aliases` NRQL data queries, `known` known-names queries, and the
 * `extra` aliases. */
export function metricDataDocument(
  aliases: number,
  known: number,
  extra: ExtraAliases = {}
): string {
  const key = `${aliases} ${known}${extra.others ? ' others' : ''}${extra.members ? ' members' : ''}`
  let document = built.get(key)
  if (!document) built.set(key, (document = build(aliases, known, extra)))
  return document
}

export interface MetricDataData {
  actor: {
    account: Record<string, PagedNrql | null> | null
  }
}

/**
 * @module metrics/documents
 * GraphQL documents of the metric routes (nerdgraph.md §1.6). Metric data sends one NRQL per 2000
 * metric names (the FACET cap) as aliases `q0`, `q1`… of one document, so a v2 call is always one
 * request; the one-alias document, by far the usual, is built at module load, others on first use.
 * Metric names use the shared one-query document (src/nrql-document.ts).
 */
import { gql } from 'graphql-request'

export {
  nrqlDocument as metricNamesDocument,
  type NrqlData as MetricNamesData,
} from '../nrql-document'

/** `timeout: 30` stays inside NerdGraph's 5–120 s clamp (nerdgraph.md §4). */
function build(aliases: number): string {
  const indexes = Array.from({ length: aliases }, (_, i) => i)
  const variables = indexes.map((i) => `$q${i}: Nrql!`).join(', ')
  const fields = indexes.map((i) => `q${i}: nrql(query: $q${i}, timeout: 30) { results }`)
  return gql`
    query MetricData($accountId: Int!, ${variables}) {
      actor {
        account(id: $accountId) {
          ${fields.join('\n          ')}
        }
      }
    }
  `
}

const built = new Map<number, string>([[1, build(1)]])

/** The metric-data document with `aliases` NRQL queries. */
export function metricDataDocument(aliases: number): string {
  let document = built.get(aliases)
  if (!document) built.set(aliases, (document = build(aliases)))
  return document
}

export interface MetricDataData {
  actor: {
    account: Record<string, { results: Record<string, unknown>[] | null } | null> | null
  }
}

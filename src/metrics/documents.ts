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

/** `timeout: 30` stays inside NerdGraph's 5–120 s clamp (nerdgraph.md §4). With `known`, each data
 * alias `qN` has a twin `kN` asking which of its names the scope has reported (src/metrics/plan.ts);
 * with `members`, alias `members` lists the application's hosts and instances
 * (src/metrics/cold-scope.ts). */
function build(aliases: number, known: boolean, members = false): string {
  const indexes = Array.from({ length: aliases }, (_, i) => i)
  const prefixes = known ? ['q', 'k'] : ['q']
  const names = [
    ...prefixes.flatMap((p) => indexes.map((i) => `${p}${i}`)),
    ...(members ? ['members'] : []),
  ]
  const variables = names.map((n) => `$${n}: Nrql!`).join(', ')
  const fields = names.map((n) => `${n}: nrql(query: $${n}, timeout: 30) { results }`)
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

const built = new Map<string, string>([
  ['1 true', build(1, true)],
  ['1 false', build(1, false)],
])

/** The metric-data document with `aliases` NRQL data queries, their known-names twins, and the
 * application's members. */
export function metricDataDocument(aliases: number, known: boolean, members = false): string {
  const key = `${aliases} ${known}${members ? ' members' : ''}`
  let document = built.get(key)
  if (!document) built.set(key, (document = build(aliases, known, members)))
  return document
}

export interface MetricDataData {
  actor: {
    account: Record<string, { results: Record<string, unknown>[] | null } | null> | null
  }
}

/**
 * @module upstream/nrql-document
 * The plain one-query NRQL document (schema `Account.nrql`). `timeout` 30 s stays inside NerdGraph's
 * 5–120 s clamp (newrelic/docs-website PR #17898).
 */
import { gql } from 'graphql-request'

export const nrqlDocument = gql`
  query Nrql($accountId: Int!, $nrql: Nrql!) {
    actor {
      account(id: $accountId) {
        nrql(query: $nrql, timeout: 30) {
          results
          metadata {
            facets
            timeWindow {
              begin
              end
            }
          }
        }
      }
    }
  }
`

export interface NrqlData {
  actor: {
    account: {
      nrql: {
        results: Record<string, unknown>[]
        metadata?: { facets?: string[] | null; timeWindow?: { begin: number; end: number } }
      } | null
    } | null
  }
}

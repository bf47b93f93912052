/**
 * @module resources/key-transactions/documents
 * GraphQL of key transactions (D-migrate: entity search `type = 'KEY_TRANSACTION'`): the search page,
 * the fields only the entity has (`KeyTransactionEntity`: metric name, apdex targets, application),
 * and the summary NRQL.
 */
import { gql } from 'graphql-request'
import { searchPageDocument } from '../../entities/search-pages'
import type { DetailsPart } from '../../entities/entity-details'
import { facetedNrqlFields, type FacetedNrql } from '../../upstream/nrql-rows'

export const outlineFields = 'guid name accountId reporting alertSeverity'

export const detailSelection =
  'guid ... on KeyTransactionEntity { apdexTarget browserApdexTarget metricName ' +
  'application { guid entity { guid ... on ApmApplicationEntityOutline { applicationId } } } }'

export const listKeyTransactionsDocument = searchPageDocument('ListKeyTransactions', outlineFields)

/** A show: the entity, its summary and, when its application is known (`last`), when that
 * application last reported. */
const showDocument = (last: boolean) => gql`
  query ShowKeyTransaction($guid: EntityGuid!, $accountId: Int!, $summary: Nrql!${last ? ', $last: Nrql!, $lastEvent: Nrql!' : ''}) {
    actor {
      entity(guid: $guid) { ${outlineFields} ${detailSelection} }
      account(id: $accountId) {
        summary: nrql(query: $summary, timeout: 30) { ${facetedNrqlFields} }
        ${last ? `last: nrql(query: $last, timeout: 30) { ${facetedNrqlFields} }` : ''}
        ${last ? `lastEvent: nrql(query: $lastEvent, timeout: 30) { ${facetedNrqlFields} }` : ''}
      }
    }
  }
`

export const showKeyTransactionDocument = showDocument(false)
export const showKeyTransactionWithLastDocument = showDocument(true)

const built = new Map<string, string>()

/** Details of the GUIDs in `details`, and `accounts` NRQL queries, each an account and its query
 * (`$a0`, `$q0`…): summaries of key transactions, last reports of their applications. */
export function pageExtrasDocument(details: DetailsPart, accounts: number): string {
  const key = `${details.vars}|${accounts}`
  let doc = built.get(key)
  if (doc) return doc
  const idx = Array.from({ length: accounts }, (_, i) => i)
  const vars = details.vars + idx.map((i) => `, $a${i}: Int!, $q${i}: Nrql!`).join('')
  const nrql = idx.map(
    (i) =>
      `a${i}: account(id: $a${i}) { summary: nrql(query: $q${i}, timeout: 30) { ${facetedNrqlFields} } }`
  )
  doc = gql`
    query KeyTransactionDetails(${vars.slice(2)}) {
      actor {
        ${details.fields}
        ${nrql.join('\n')}
      }
    }
  `
  built.set(key, doc)
  return doc
}

export interface KeyTransactionOutline {
  guid: string
  name: string
  accountId: number
  reporting: boolean | null
  alertSeverity: string | null
}

export interface KeyTransactionDetails {
  guid: string
  apdexTarget: number | null
  browserApdexTarget: number | null
  metricName: string | null
  application: { guid: string; entity: { applicationId?: number | null } | null } | null
}

export type NrqlResults = FacetedNrql | null

export interface ListKeyTransactionsData {
  actor: {
    entitySearch: {
      count: number
      results: { nextCursor: string | null; entities: KeyTransactionOutline[] }
    } | null
  }
}

export interface ShowKeyTransactionData {
  actor: {
    entity: (KeyTransactionOutline & KeyTransactionDetails) | null
    account: { summary: NrqlResults; last?: NrqlResults; lastEvent?: NrqlResults } | null
  }
}

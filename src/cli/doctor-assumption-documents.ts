/**
 * @module cli/doctor-assumption-documents
 * The read-only documents of doctor's assumption probes (src/cli/doctor-assumptions.ts): the caller's
 * user (its keys are searched with v2bridge's own document, src/entities/accounts.ts), an account outside the key's, `apmSummary.errorRate`, and NRQL with the `timeout:`
 * argument (schema `Account.nrql`). NRQL itself goes through the shared one-query document, or
 * through `identicalNrqlDocument` for the rate-limit probe.
 */
import { gql } from 'graphql-request'

export const doctorUserDocument = gql`
  query DoctorUser {
    actor {
      user {
        id
      }
    }
  }
`

/** One page of the unnarrowed user-key search, beside the caller's user (schema
 * `ApiAccessActorStitchedFields.keySearch`). */
export const doctorKeySearchDocument = gql`
  query DoctorKeySearch {
    actor {
      user {
        id
      }
      apiAccess {
        keySearch(query: { types: [USER] }) {
          count
          keys {
            key
            ... on ApiAccessUserKey {
              userId
            }
          }
        }
      }
    }
  }
`

/** One page of an entity search, each entity with `selection`. */
const searchDocument = (name: string, selection: string) => gql`
  query ${name}($query: String!) {
    actor {
      entitySearch(query: $query) {
        results {
          entities {
            ${selection}
          }
        }
      }
    }
  }
`

/** The tags of the entities a search finds: how the write probe reads its tag back. */
export const doctorTagsDocument = searchDocument('DoctorTags', 'guid tags { key values }')

export interface TagsData {
  actor: {
    entitySearch: {
      results: { entities: { guid: string; tags: { key: string; values: string[] }[] | null }[] }
    } | null
  }
}

export const doctorOtherAccountDocument = gql`
  query DoctorOtherAccount($accountId: Int!) {
    actor {
      account(id: $accountId) {
        id
      }
    }
  }
`

export const doctorErrorRateDocument = searchDocument(
  'DoctorErrorRate',
  'guid accountId ... on ApmApplicationEntityOutline { apmSummary { errorRate } }'
)

export const doctorTimeoutDocument = gql`
  query DoctorTimeout($accountId: Int!, $nrql: Nrql!) {
    actor {
      account(id: $accountId) {
        nrql(query: $nrql, timeout: 120) {
          results
        }
      }
    }
  }
`

/** `count` aliases of one NRQL query in one request: NerdGraph runs each `nrql` field as a query. */
export function identicalNrqlDocument(count: number): string {
  const fields = Array.from({ length: count }, (_, i) => `q${i}: nrql(query: $nrql) { results }`)
  return `query DoctorIdentical($accountId: Int!, $nrql: Nrql!) { actor { account(id: $accountId) { ${fields.join(' ')} } } }`
}

export interface UserData {
  actor: { user: { id: number } | null }
}

export interface KeySearchData extends UserData {
  actor: UserData['actor'] & {
    apiAccess: {
      keySearch: {
        count: number | null
        keys: ({ key: string | null; userId?: number | null } | null)[] | null
      } | null
    } | null
  }
}

export interface ErrorRateData {
  actor: {
    entitySearch: {
      results: {
        entities: { guid: string; accountId: number; apmSummary?: { errorRate?: number | null } }[]
      }
    } | null
  }
}

export const doctorAssumptionDocuments = {
  doctorUserDocument,
  doctorKeySearchDocument,
  doctorTagsDocument,
  doctorOtherAccountDocument,
  doctorErrorRateDocument,
  doctorTimeoutDocument,
  doctorIdenticalDocument: identicalNrqlDocument(3),
}

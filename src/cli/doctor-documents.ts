/**
 * @module cli/doctor-documents
 * The read-only documents `v2bridge doctor` sends (none can change state): the accounts the key
 * sees, APM applications, and the mutation fields of the schema (introspection, GraphQL spec
 * "Schema Introspection"). Timeslice NRQL goes through the shared one-query document.
 */
import { gql } from 'graphql-request'

export const doctorAccountsDocument = gql`
  query DoctorAccounts {
    actor {
      accounts {
        id
        name
      }
    }
  }
`

export const doctorApplicationsDocument = gql`
  query DoctorApplications($query: String!) {
    actor {
      entitySearch(query: $query) {
        count
        results {
          entities {
            guid
            name
            accountId
            ... on ApmApplicationEntityOutline {
              applicationId
            }
          }
        }
      }
    }
  }
`

export const doctorMutationsDocument = gql`
  query DoctorMutations {
    __schema {
      mutationType {
        fields {
          name
        }
      }
    }
  }
`

export interface AccountsData {
  actor: { accounts: { id: number; name: string }[] | null }
}

export interface ApplicationsData {
  actor: {
    entitySearch: {
      count: number
      results: {
        entities: { guid: string; name: string; accountId: number; applicationId?: number }[]
      }
    } | null
  }
}

export interface MutationsData {
  __schema: { mutationType: { fields: { name: string }[] } | null }
}

export const doctorDocuments = {
  doctorAccountsDocument,
  doctorApplicationsDocument,
  doctorMutationsDocument,
}

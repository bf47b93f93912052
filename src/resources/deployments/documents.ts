/**
 * @module resources/deployments/documents
 * Change-tracking documents (schema `changeTrackingCreateDeployment`, `deploymentSearch`), built
 * once. Deployments are read with `deploymentSearch` rather than NRQL on `Deployment,
 * ChangeTrackingEvent`: it is typed, ordered by timestamp DESC as v2 lists them, and carries the
 * `deploymentId` that v2 IDs are minted from.
 */
import { gql } from 'graphql-request'

const deploymentFields = `deploymentId version changelog description user timestamp`

export const listDeploymentsDocument = gql`
  query ListDeployments($guid: EntityGuid!, $filter: ChangeTrackingSearchFilter) {
    actor {
      entity(guid: $guid) {
        ... on ApmApplicationEntity {
          applicationId
          deploymentSearch(filter: $filter) { results { ${deploymentFields} } }
        }
      }
    }
  }
`

/** One v2 page: the deployments of a window and, in the same request, how many the window holds
 * (NRQL `count(*) FROM Deployment`, New Relic docs "Query your change tracking data"), which tells the
 * last page. */
export const deploymentsPageDocument = gql`
  query DeploymentsPage(
    $guid: EntityGuid!
    $filter: ChangeTrackingSearchFilter
    $accountId: Int!
    $count: Nrql!
  ) {
    actor {
      entity(guid: $guid) {
        ... on ApmApplicationEntity {
          applicationId
          deploymentSearch(filter: $filter) { results { ${deploymentFields} } }
        }
      }
      account(id: $accountId) { count: nrql(query: $count, timeout: 30) { results } }
    }
  }
`

export const createDeploymentDocument = gql`
  mutation CreateDeployment($deployment: ChangeTrackingDeploymentInput!) {
    changeTrackingCreateDeployment(deployment: $deployment) { ${deploymentFields} }
  }
`

/** `ChangeTrackingDeployment`, the fields v2 shows. */
export interface NgDeployment {
  deploymentId: string | null
  version: string
  changelog: string | null
  description: string | null
  user: string | null
  timestamp: number
}

export interface ListDeploymentsData {
  actor: {
    entity: {
      applicationId?: number
      deploymentSearch?: { results: (NgDeployment | null)[] | null } | null
    } | null
  }
}

export interface DeploymentsPageData extends ListDeploymentsData {
  actor: ListDeploymentsData['actor'] & {
    account: { count: { results: Record<string, unknown>[] } | null } | null
  }
}

export interface CreateDeploymentData {
  changeTrackingCreateDeployment: NgDeployment | null
}

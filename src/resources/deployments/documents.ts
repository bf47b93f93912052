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

export interface CreateDeploymentData {
  changeTrackingCreateDeployment: NgDeployment | null
}

/** @module simulator/graphql/schema-deployments — change tracking: deployment search and creation (April 2025 schema). */

/** Joined into SCHEMA_SDL (schema.ts); every name and type exists in the real schema. */
export const DEPLOYMENTS_SDL = /* GraphQL */ `
  type RootMutationType {
    changeTrackingCreateDeployment(
      dataHandlingRules: ChangeTrackingDataHandlingRules
      deployment: ChangeTrackingDeploymentInput!
    ): ChangeTrackingDeployment
  }

  extend type ApmApplicationEntity {
    deploymentSearch(filter: ChangeTrackingSearchFilter): ChangeTrackingDeploymentSearchResult
    deployments(timeWindow: TimeWindowInput): [ApmApplicationDeployment]
  }

  input TimeWindowInput {
    endTime: EpochMilliseconds!
    startTime: EpochMilliseconds!
  }

  input ChangeTrackingSearchFilter {
    limit: Int
    query: String
    timeWindow: ChangeTrackingTimeWindowInputWithDefaults
  }

  input ChangeTrackingTimeWindowInputWithDefaults {
    endTime: EpochMilliseconds
    startTime: EpochMilliseconds
  }

  input ChangeTrackingDataHandlingRules {
    validationFlags: [ChangeTrackingValidationFlag!]
  }

  enum ChangeTrackingValidationFlag {
    FAIL_ON_FIELD_LENGTH
    FAIL_ON_REST_API_FAILURES
  }

  enum ChangeTrackingDeploymentType {
    BASIC
    BLUE_GREEN
    CANARY
    OTHER
    ROLLING
    SHADOW
  }

  input ChangeTrackingDeploymentInput {
    changelog: String
    commit: String
    deepLink: String
    deploymentType: ChangeTrackingDeploymentType
    description: String
    entityGuid: EntityGuid!
    groupId: String
    timestamp: EpochMilliseconds
    user: String
    version: String!
  }

  type ChangeTrackingDeployment {
    changelog: String
    commit: String
    deepLink: String
    deploymentId: String
    deploymentType: ChangeTrackingDeploymentType
    description: String
    entityGuid: EntityGuid!
    groupId: String
    timestamp: EpochMilliseconds!
    user: String
    version: String!
  }

  type ChangeTrackingDeploymentSearchResult {
    results: [ChangeTrackingDeployment]
  }

  type ApmApplicationDeployment {
    changelog: String
    description: String
    permalink: String
    revision: String
    timestamp: EpochMilliseconds
    user: String
  }
`

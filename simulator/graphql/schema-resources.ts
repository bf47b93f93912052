/**
 * @module simulator/graphql/schema-resources
 * SDL of key transactions, browser and mobile applications, users (user management), tags and
 * their mutations; joined into SCHEMA_SDL. Names and types as in the April 2025 NerdGraph schema
 * (test/simulator/schema-subset.test.ts).
 */
export const RESOURCES_SDL = /* GraphQL */ `
  extend enum EntityType {
    KEY_TRANSACTION_ENTITY
  }

  extend type Actor {
    organization: Organization
  }

  type KeyTransactionEntityOutline implements EntityOutline {
    account: AccountOutline
    accountId: Int
    alertSeverity: EntityAlertSeverity
    domain: String
    entityType: EntityType
    guid: EntityGuid
    lastReportingChangeAt: EpochMilliseconds
    name: String
    permalink: String
    reporting: Boolean
    tags: [EntityTag]
    type: String
  }

  type KeyTransactionEntity implements Entity {
    account: AccountOutline
    accountId: Int
    alertSeverity: EntityAlertSeverity
    apdexTarget: Float!
    application: KeyTransactionApplication!
    browserApdexTarget: Float
    domain: String
    entityType: EntityType
    guid: EntityGuid
    lastReportingChangeAt: EpochMilliseconds
    metricName: String!
    name: String
    permalink: String
    reporting: Boolean
    tags: [EntityTag]
    type: String
  }

  type KeyTransactionApplication {
    entity: EntityOutline
    guid: EntityGuid!
  }

  enum BrowserAgentInstallType {
    LITE
    PRO
    PRO_SPA
  }

  type BrowserApplicationSettings {
    apdexTarget: Float
  }

  type BrowserApplicationEntityOutline implements EntityOutline {
    account: AccountOutline
    accountId: Int
    agentInstallType: BrowserAgentInstallType
    alertSeverity: EntityAlertSeverity
    applicationId: Int
    domain: String
    entityType: EntityType
    guid: EntityGuid
    lastReportingChangeAt: EpochMilliseconds
    name: String
    permalink: String
    reporting: Boolean
    servingApmApplicationId: Int
    settings: BrowserApplicationSettings
    tags: [EntityTag]
    type: String
  }

  extend type BrowserApplicationEntity {
    agentInstallType: BrowserAgentInstallType
    browserProperties: AgentApplicationSettingsBrowserProperties
    settings: BrowserApplicationSettings
  }

  scalar AgentApplicationSettingsRawJsConfiguration

  type AgentApplicationSettingsBrowserProperties {
    jsConfig: AgentApplicationSettingsRawJsConfiguration
    jsLoaderScript: String
  }

  type MobileAppSummaryData {
    appLaunchCount: Int
    crashCount: Int
    crashRate: Float
    httpErrorRate: Float
    httpRequestCount: Int
    httpRequestRate: Float
    httpResponseTimeAverage: Seconds
    mobileSessionCount: Int
    networkFailureRate: Float
    usersAffectedCount: Int
  }

  type MobileApplicationEntityOutline implements EntityOutline {
    account: AccountOutline
    accountId: Int
    alertSeverity: EntityAlertSeverity
    applicationId: Int
    domain: String
    entityType: EntityType
    guid: EntityGuid
    lastReportingChangeAt: EpochMilliseconds
    mobileSummary: MobileAppSummaryData
    name: String
    permalink: String
    reporting: Boolean
    tags: [EntityTag]
    type: String
  }

  type Organization {
    id: ID
    name: String
    userManagement: UserManagementOrganizationStitchedFields
  }

  type UserManagementOrganizationStitchedFields {
    authenticationDomains(cursor: String, id: [ID!]): UserManagementAuthenticationDomains
  }

  type UserManagementAuthenticationDomains {
    authenticationDomains: [UserManagementAuthenticationDomain!]!
    nextCursor: String
    totalCount: Int!
  }

  type UserManagementAuthenticationDomain {
    id: ID!
    name: String!
    provisioningType: String!
    users(cursor: String, filter: UserManagementUserFilterInput, id: [ID!]): UserManagementUsers
  }

  input UserManagementUserFilterInput {
    email: UserManagementEmailInput
    id: UserManagementUserIdInput
  }

  input UserManagementEmailInput {
    contains: String
    eq: String
  }

  input UserManagementUserIdInput {
    eq: ID
    in: [ID!]
  }

  type UserManagementUsers {
    nextCursor: String
    totalCount: Int!
    users: [UserManagementUser!]!
  }

  type UserManagementUser {
    email: String
    groups(cursor: String, id: [ID!]): UserManagementUserGroups
    id: ID!
    name: String
    type: UserManagementUserType!
  }

  type UserManagementUserType {
    displayName: String!
    id: ID!
  }

  type UserManagementUserGroups {
    groups: [UserManagementUserGroup!]!
    nextCursor: String
    totalCount: Int!
  }

  type UserManagementUserGroup {
    displayName: String!
    id: ID!
  }

  scalar SecureValue

  enum AgentApplicationBrowserLoader {
    FULL
    LITE
    NONE
    PRO
    SPA
  }

  input AgentApplicationBrowserSettingsInput {
    cookiesEnabled: Boolean
    distributedTracingEnabled: Boolean
    loaderType: AgentApplicationBrowserLoader
  }

  type AgentApplicationBrowserSettings {
    cookiesEnabled: Boolean!
    distributedTracingEnabled: Boolean!
    loaderScript: String
    loaderType: AgentApplicationBrowserLoader!
  }

  type AgentApplicationCreateBrowserResult {
    guid: EntityGuid!
    name: String!
    settings: AgentApplicationBrowserSettings
  }

  type AgentApplicationCreateMobileResult {
    accountId: Int!
    applicationToken: SecureValue!
    entityOutline: EntityOutline
    guid: EntityGuid!
    name: String!
  }

  input TaggingTagInput {
    key: String!
    values: [String]
  }

  input TaggingTagValueInput {
    key: String!
    value: String!
  }

  enum TaggingMutationErrorType {
    INVALID_ENTITY_GUID
    INVALID_KEY
    INVALID_VALUE
    NOT_FOUND
    NOT_PERMITTED
    TOO_MANY_TAG_VALUES
  }

  type TaggingMutationError {
    message: String
    type: TaggingMutationErrorType
  }

  type TaggingMutationResult {
    errors: [TaggingMutationError]
  }
`

/** Mutations, joined by schema.ts into RootMutationType. */
export const RESOURCES_MUTATIONS_SDL = /* GraphQL */ `
  agentApplicationCreateBrowser(
    accountId: Int!
    name: String!
    settings: AgentApplicationBrowserSettingsInput
  ): AgentApplicationCreateBrowserResult
  agentApplicationCreateMobile(accountId: Int!, name: String!): AgentApplicationCreateMobileResult
  taggingAddTagsToEntity(guid: EntityGuid!, tags: [TaggingTagInput!]!): TaggingMutationResult
  taggingDeleteTagFromEntity(guid: EntityGuid!, tagKeys: [String!]!): TaggingMutationResult
  taggingDeleteTagValuesFromEntity(
    guid: EntityGuid!
    tagValues: [TaggingTagValueInput!]!
  ): TaggingMutationResult
`

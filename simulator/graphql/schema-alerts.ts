/** @module simulator/graphql/schema-alerts — the alerts part of the simulated NerdGraph schema (aiIssues, alerts, their mutations). */

/** Every name and type exists in schema/nerdgraph.graphql (test/simulator/schema-subset.test.ts).
 * `TimeWindowInput` is declared in schema-deployments.ts, `SecureValue` in schema-resources.ts. */
export const ALERTS_SDL = /* GraphQL */ `
  extend type Account {
    aiIssues: AiIssuesAccountStitchedFields
    alerts: AlertsAccountStitchedFields
  }

  type AiIssuesAccountStitchedFields {
    incidents(
      cursor: String
      filter: AiIssuesFilterIncidents
      timeWindow: TimeWindowInput
    ): AiIssuesIncidentData
    issues(
      cursor: String
      filter: AiIssuesFilterIssues
      timeWindow: TimeWindowInput
    ): AiIssuesIssueData
  }

  input AiIssuesFilterIssues {
    conditionIds: [Int!]
    entityGuids: [EntityGuid!]
    ids: [ID!]
    isAcknowledged: Boolean
    policyIds: [Int!]
    priority: [String!]
    states: [AiIssuesIssueState!]
  }

  input AiIssuesFilterIncidents {
    entityGuids: [EntityGuid!]
    ids: [ID!]
    priority: [String!]
    states: [AiIssuesIncidentState!]
  }

  enum AiIssuesIssueState {
    ACTIVATED
    CLOSED
    CREATED
    DEACTIVATED
  }

  enum AiIssuesIncidentState {
    CLOSED
    CREATED
  }

  enum AiIssuesPriority {
    CRITICAL
    HIGH
    LOW
    MEDIUM
  }

  type AiIssuesIssueData {
    issues: [AiIssuesIssue!]!
    nextCursor: String
  }

  type AiIssuesIssue {
    accountIds: [Int!]!
    acknowledgedAt: EpochMilliseconds
    acknowledgedBy: String
    activatedAt: EpochMilliseconds
    closedAt: EpochMilliseconds
    closedBy: String
    conditionFamilyId: [Int!]
    conditionName: [String!]
    createdAt: EpochMilliseconds!
    description: [String!]!
    entityGuids: [EntityGuid!]
    entityNames: [String!]
    entityTypes: [String!]
    incidentIds: [String!]
    issueId: ID!
    policyIds: [Int!]
    policyName: [String!]
    priority: AiIssuesPriority!
    state: AiIssuesIssueState!
    title: [String!]!
    totalIncidents: Int!
    updatedAt: EpochMilliseconds!
  }

  type AiIssuesIncidentData {
    incidents: [AiIssuesIIncident!]!
    nextCursor: String
  }

  interface AiIssuesIIncident {
    closedAt: EpochMilliseconds
    createdAt: EpochMilliseconds!
    description: [String!]!
    entityGuids: EntityGuid
    entityNames: String
    entityTypes: String
    incidentId: ID!
    priority: AiIssuesPriority!
    state: AiIssuesIncidentState!
    title: String!
    updatedAt: EpochMilliseconds!
  }

  type AiIssuesNewRelicIncident implements AiIssuesIIncident {
    closedAt: EpochMilliseconds
    conditionFamilyId: String
    createdAt: EpochMilliseconds!
    description: [String!]!
    entityGuids: EntityGuid
    entityNames: String
    entityTypes: String
    incidentId: ID!
    policyIds: String
    priority: AiIssuesPriority!
    state: AiIssuesIncidentState!
    title: String!
    updatedAt: EpochMilliseconds!
  }

  enum AiIssuesIssueUserAction {
    ACK
    CLOSE_BY_MUTING_RULE_ID
    MARK_AS_INVESTIGATING
    RESOLVE
    UNACK
  }

  type AiIssuesIssueUserActionResponse {
    error: String
    result: AiIssuesIssueUserActionResult
  }

  type AiIssuesIssueUserActionResult {
    accountId: Int!
    action: AiIssuesIssueUserAction!
    issueId: ID!
  }

  type AlertsAccountStitchedFields {
    notificationChannel(id: ID!): AlertsNotificationChannel
    notificationChannels(cursor: String): AlertsNotificationChannelsResultSet
    nrqlConditionsSearch(
      cursor: String
      searchCriteria: AlertsNrqlConditionsSearchCriteriaInput
    ): AlertsNrqlConditionsSearchResultSet
    policiesSearch(
      cursor: String
      searchCriteria: AlertsPoliciesSearchCriteriaInput
    ): AlertsPoliciesSearchResultSet
  }

  input AlertsNrqlConditionsSearchCriteriaInput {
    name: String
    nameLike: String
    policyId: ID
    query: String
    queryLike: String
  }

  type AlertsNrqlConditionsSearchResultSet {
    nextCursor: String
    nrqlConditions: [AlertsNrqlCondition!]!
    totalCount: Int!
  }

  type AlertsNrqlConditionQuery {
    query: Nrql!
  }

  interface AlertsNrqlCondition {
    enabled: Boolean!
    id: ID!
    name: String!
    nrql: AlertsNrqlConditionQuery!
    policyId: ID!
  }

  type AlertsNrqlStaticCondition implements AlertsNrqlCondition {
    enabled: Boolean!
    id: ID!
    name: String!
    nrql: AlertsNrqlConditionQuery!
    policyId: ID!
  }

  input AlertsPoliciesSearchCriteriaInput {
    ids: [ID!]
    name: String
    nameLike: String
  }

  type AlertsPoliciesSearchResultSet {
    nextCursor: String
    policies: [AlertsPolicy!]!
    totalCount: Int!
  }

  type AlertsPolicy {
    accountId: Int!
    id: ID!
    incidentPreference: AlertsIncidentPreference!
    name: String!
  }

  enum AlertsIncidentPreference {
    PER_CONDITION
    PER_CONDITION_AND_TARGET
    PER_POLICY
  }

  type AlertsNotificationChannelsResultSet {
    channels: [AlertsNotificationChannel!]!
    nextCursor: String
    totalCount: Int!
  }

  enum AlertsNotificationChannelType {
    CAMPFIRE
    EMAIL
    HIP_CHAT
    OPSGENIE
    PAGERDUTY
    SLACK
    USER
    VICTOROPS
    WEBHOOK
    XMATTERS
  }

  type AlertsNotificationChannelPoliciesResultSet {
    policies: [AlertsNotificationChannelPolicy!]!
    totalCount: Int!
  }

  type AlertsNotificationChannelPolicy {
    id: ID!
    name: String!
  }

  interface AlertsNotificationChannel {
    associatedPolicies: AlertsNotificationChannelPoliciesResultSet!
    id: ID!
    name: String!
    type: AlertsNotificationChannelType!
  }
  ${['Email', 'OpsGenie', 'PagerDuty', 'Slack', 'User', 'VictorOps', 'Webhook', 'XMatters']
    .map(
      (kind) => `
  type Alerts${kind}NotificationChannel implements AlertsNotificationChannel {
    associatedPolicies: AlertsNotificationChannelPoliciesResultSet!
    config: Alerts${kind}NotificationChannelConfig!
    id: ID!
    name: String!
    type: AlertsNotificationChannelType!
  }`
    )
    .join('\n')}

  type AlertsEmailNotificationChannelConfig {
    emails: [String!]!
    includeJson: Boolean!
  }

  type AlertsOpsGenieNotificationChannelConfig {
    apiKey: SecureValue!
    dataCenterRegion: AlertsOpsGenieDataCenterRegion!
    recipients: [String!]
    tags: [String!]
    teams: [String!]
  }

  enum AlertsOpsGenieDataCenterRegion {
    EU
    US
  }

  type AlertsPagerDutyNotificationChannelConfig {
    apiKey: SecureValue!
  }

  type AlertsSlackNotificationChannelConfig {
    teamChannel: String
    url: SecureValue!
  }

  type AlertsUserNotificationChannelConfig {
    userId: String!
  }

  type AlertsVictorOpsNotificationChannelConfig {
    key: SecureValue!
    routeKey: String!
  }

  type AlertsWebhookNotificationChannelConfig {
    baseUrl: String!
    basicAuth: AlertsWebhookBasicAuthInput
    customHttpHeaders: [AlertsWebhookCustomHeaderInput!]
    customPayloadBody: String
    customPayloadType: AlertsWebhookCustomPayloadType
  }

  type AlertsWebhookBasicAuthInput {
    password: SecureValue!
    username: String!
  }

  type AlertsWebhookCustomHeaderInput {
    name: String!
    value: SecureValue!
  }

  enum AlertsWebhookCustomPayloadType {
    FORM
    JSON
  }

  type AlertsXMattersNotificationChannelConfig {
    integrationUrl: SecureValue!
  }

  union AlertsNotificationChannelMutation =
    | AlertsEmailNotificationChannel
    | AlertsOpsGenieNotificationChannel
    | AlertsPagerDutyNotificationChannel
    | AlertsSlackNotificationChannel
    | AlertsVictorOpsNotificationChannel
    | AlertsWebhookNotificationChannel
    | AlertsXMattersNotificationChannel

  input AlertsNotificationChannelCreateConfiguration {
    email: AlertsEmailNotificationChannelCreateInput
    opsGenie: AlertsOpsGenieNotificationChannelCreateInput
    pagerDuty: AlertsPagerDutyNotificationChannelCreateInput
    slack: AlertsSlackNotificationChannelCreateInput
    victorOps: AlertsVictorOpsNotificationChannelCreateInput
    webhook: AlertsWebhookNotificationChannelCreateInput
    xMatters: AlertsXMattersNotificationChannelCreateInput
  }

  input AlertsEmailNotificationChannelCreateInput {
    emails: [String!]!
    includeJson: Boolean!
    name: String!
  }

  input AlertsOpsGenieNotificationChannelCreateInput {
    apiKey: SecureValue!
    dataCenterRegion: AlertsOpsGenieDataCenterRegion!
    name: String!
    recipients: [String!]
    tags: [String!]
    teams: [String!]
  }

  input AlertsPagerDutyNotificationChannelCreateInput {
    apiKey: SecureValue!
    name: String!
  }

  input AlertsSlackNotificationChannelCreateInput {
    name: String!
    teamChannel: String
    url: SecureValue!
  }

  input AlertsVictorOpsNotificationChannelCreateInput {
    key: SecureValue!
    name: String!
    routeKey: String!
  }

  input AlertsWebhookNotificationChannelCreateInput {
    baseUrl: String!
    basicAuth: AlertsWebhookBasicAuthMutationInput
    customHttpHeaders: [AlertsWebhookCustomHeaderMutationInput!]
    customPayloadBody: String
    customPayloadType: AlertsWebhookCustomPayloadType
    name: String!
  }

  input AlertsWebhookBasicAuthMutationInput {
    password: SecureValue!
    username: String!
  }

  input AlertsWebhookCustomHeaderMutationInput {
    name: String!
    value: SecureValue!
  }

  input AlertsXMattersNotificationChannelCreateInput {
    integrationUrl: SecureValue!
    name: String!
  }

  type AlertsNotificationChannelCreateResponse {
    error: AlertsNotificationChannelCreateError
    notificationChannel: AlertsNotificationChannelMutation
  }

  type AlertsNotificationChannelCreateError {
    description: String!
    errorType: AlertsNotificationChannelCreateErrorType!
  }

  enum AlertsNotificationChannelCreateErrorType {
    BAD_USER_INPUT
    FORBIDDEN_ERROR
    SERVER_ERROR
    TOO_MANY_REQUESTS_ERROR
  }

  type AlertsNotificationChannelDeleteResponse {
    error: AlertsNotificationChannelDeleteError
    id: ID!
  }

  type AlertsNotificationChannelDeleteError {
    description: String!
    errorType: AlertsNotificationChannelDeleteErrorType!
    notificationChannelId: ID!
  }

  enum AlertsNotificationChannelDeleteErrorType {
    BAD_USER_INPUT
    FORBIDDEN_ERROR
    NOT_FOUND_ERROR
    SERVER_ERROR
    TOO_MANY_REQUESTS_ERROR
  }

  type AlertsNotificationChannelId {
    id: ID!
  }
  ${['AddToPolicy', 'RemoveFromPolicy']
    .map(
      (op) => `
  type AlertsNotificationChannels${op}Response {
    errors: [AlertsNotificationChannels${op}Error!]!
    notificationChannels: [AlertsNotificationChannelId!]!
    policyId: ID!
  }

  type AlertsNotificationChannels${op}Error {
    description: String!
    errorType: AlertsNotificationChannels${op}ErrorType!
    notificationChannelId: ID!
  }

  enum AlertsNotificationChannels${op}ErrorType {
    BAD_USER_INPUT
    FORBIDDEN_ERROR
    NOT_FOUND_ERROR
    SERVER_ERROR
    TOO_MANY_REQUESTS_ERROR
  }`
    )
    .join('\n')}
`

/** The alerts mutations, as fields of RootMutationType. */
export const ALERTS_MUTATIONS_SDL = /* GraphQL */ `
  aiIssuesAckIssue(accountId: Int!, issueId: ID!): AiIssuesIssueUserActionResponse!
  aiIssuesResolveIssue(accountId: Int!, issueId: ID!): AiIssuesIssueUserActionResponse!
  alertsNotificationChannelCreate(
    accountId: Int!
    notificationChannel: AlertsNotificationChannelCreateConfiguration!
  ): AlertsNotificationChannelCreateResponse
  alertsNotificationChannelDelete(accountId: Int!, id: ID!): AlertsNotificationChannelDeleteResponse
  alertsNotificationChannelsAddToPolicy(
    accountId: Int!
    notificationChannelIds: [ID!]!
    policyId: ID!
  ): AlertsNotificationChannelsAddToPolicyResponse
  alertsNotificationChannelsRemoveFromPolicy(
    accountId: Int!
    notificationChannelIds: [ID!]!
    policyId: ID!
  ): AlertsNotificationChannelsRemoveFromPolicyResponse
`

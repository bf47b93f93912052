/** @module simulator/graphql/schema — the NerdGraph SDL subset the simulator executes (names and types from the April 2025 schema). */
import { API_ACCESS_SDL } from './schema-api-access'
import { APP_WRITES_SDL } from './schema-app-writes'
import { DEPLOYMENTS_SDL } from './schema-deployments'
import { RELATIONSHIPS_SDL } from './schema-relationships'
import { RESOURCES_MUTATIONS_SDL, RESOURCES_SDL } from './schema-resources'
import { ALERTS_MUTATIONS_SDL, ALERTS_SDL } from './schema-alerts'

/**
 * Every type, field, argument and enum value here exists with the same type in
 * schema/nerdgraph.graphql (checked by test/simulator/schema-subset.test.ts).
 * Interfaces list only the implemented interfaces that are part of the subset.
 */
export const SCHEMA_SDL = /* GraphQL */ `
  schema {
    query: RootQueryType
    mutation: RootMutationType
  }

  scalar EntityGuid
  scalar EpochMilliseconds
  scalar NrdbResult
  scalar Nrql
  scalar Seconds

  type RootQueryType {
    actor: Actor
    requestContext: RequestContext
  }

  type RequestContext {
    apiKey: String
    userId: ID
  }

  type Actor {
    account(id: Int!): Account
    accounts(scope: RegionScope = IN_REGION): [AccountOutline]
    entities(guids: [EntityGuid]!): [Entity]
    entity(guid: EntityGuid!): Entity
    entitySearch(
      options: EntitySearchOptions
      query: String
      sortBy: [EntitySearchSortCriteria] = [NAME]
      sortByWithDirection: [SortCriterionWithDirection]
    ): EntitySearch
    user: User
  }

  type User {
    email: String
    id: Int
    name: String
  }

  enum RegionScope {
    GLOBAL
    IN_REGION
  }

  type AccountOutline {
    id: Int
    name: String
  }

  type Account {
    id: Int
    name: String
    nrql(
      async: Boolean = false
      options: NrqlQueryOptions
      query: Nrql!
      timeout: Seconds
    ): NrdbResultContainer
  }

  input NrqlQueryOptions {
    eventNamespaces: [String!]
  }

  type NrdbResultContainer {
    metadata: NrdbMetadata
    nrql: Nrql
    otherResult: NrdbResult
    results: [NrdbResult]
    totalResult: NrdbResult
  }

  type NrdbMetadata {
    eventTypes: [String]
    facets: [String]
    messages: [String]
    timeWindow: NrdbMetadataTimeWindow
  }

  type NrdbMetadataTimeWindow {
    begin: EpochMilliseconds
    compareWith: String
    end: EpochMilliseconds
    since: String
    until: String
  }

  type EntitySearch {
    count: Int
    query: String
    results(cursor: String): EntitySearchResult
  }

  type EntitySearchResult {
    entities: [EntityOutline]
    nextCursor: String
  }

  enum EntitySearchSortCriteria {
    ALERT_SEVERITY
    DOMAIN
    MOST_RELEVANT
    NAME
    REPORTING
    TYPE
  }

  enum SortBy {
    ASC
    DESC
  }

  input SortCriterionWithDirection {
    attribute: EntitySearchSortCriteria
    direction: SortBy = ASC
    tag: String
  }

  input EntitySearchOptions {
    caseSensitiveTagMatching: Boolean
    limit: Int
    tagFilter: [String!]
  }

  enum EntityAlertSeverity {
    CRITICAL
    NOT_ALERTING
    NOT_CONFIGURED
    WARNING
  }

  enum EntityType {
    APM_APPLICATION_ENTITY
    BROWSER_APPLICATION_ENTITY
    MOBILE_APPLICATION_ENTITY
  }

  type EntityTag {
    key: String
    values: [String]
  }

  interface EntityOutline {
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

  interface Entity {
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

  type ApmApplicationEntityOutline implements EntityOutline {
    account: AccountOutline
    accountId: Int
    alertSeverity: EntityAlertSeverity
    apmBrowserSummary: ApmBrowserApplicationSummaryData
    apmSummary: ApmApplicationSummaryData
    applicationId: Int
    domain: String
    entityType: EntityType
    guid: EntityGuid
    language: String
    lastReportingChangeAt: EpochMilliseconds
    name: String
    permalink: String
    reporting: Boolean
    runningAgentVersions: ApmApplicationRunningAgentVersions
    settings: ApmApplicationSettings
    tags: [EntityTag]
    type: String
  }

  type ApmApplicationEntity implements Entity {
    account: AccountOutline
    accountId: Int
    alertSeverity: EntityAlertSeverity
    apmBrowserSummary: ApmBrowserApplicationSummaryData
    apmSettings: AgentApplicationSettingsApmBase
    apmSummary: ApmApplicationSummaryData
    applicationId: Int
    applicationInstances(
      endTime: EpochMilliseconds
      host: String
      startTime: EpochMilliseconds
    ): [AgentEnvironmentApplicationInstance!]
    applicationInstancesV2(cursor: String): AgentEnvironmentApplicationInstancesResult!
    domain: String
    entityType: EntityType
    guid: EntityGuid
    language: String
    lastReportingChangeAt: EpochMilliseconds
    name: String
    permalink: String
    reporting: Boolean
    runningAgentVersions: ApmApplicationRunningAgentVersions
    settings: ApmApplicationSettings
    tags: [EntityTag]
    type: String
  }

  type BrowserApplicationEntity implements Entity {
    account: AccountOutline
    accountId: Int
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
    tags: [EntityTag]
    type: String
  }

  type MobileApplicationEntity implements Entity {
    account: AccountOutline
    accountId: Int
    alertSeverity: EntityAlertSeverity
    applicationId: Int
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

  type ApmApplicationSummaryData {
    apdexScore: Float
    errorRate: Float
    hostCount: Int
    instanceCount: Int
    nonWebResponseTimeAverage: Seconds
    nonWebThroughput: Float
    responseTimeAverage: Seconds
    throughput: Float
    webResponseTimeAverage: Seconds
    webThroughput: Float
  }

  type ApmBrowserApplicationSummaryData {
    ajaxRequestThroughput: Float
    ajaxResponseTimeAverage: Seconds
    jsErrorRate: Float
    pageLoadThroughput: Float
    pageLoadTimeAverage: Float
  }

  type ApmApplicationSettings {
    apdexTarget: Float
    serverSideConfig: Boolean
  }

  type AgentApplicationSettingsApmBase {
    alias: String
    apmConfig: AgentApplicationSettingsApmConfig!
    originalName: String
  }

  type AgentApplicationSettingsApmConfig {
    apdexTarget: Float
    useServerSideConfig: Boolean
  }

  type ApmApplicationRunningAgentVersions {
    maxVersion: String
    minVersion: String
  }

  type AgentEnvironmentApplicationInstance {
    details: AgentEnvironmentApplicationInstanceDetails!
  }

  type AgentEnvironmentApplicationInstanceDetails {
    host: String!
    hostDisplayName: String!
    id: ID!
    instanceName: String!
    language: String!
    name: String!
  }

  type AgentEnvironmentApplicationInstancesResult {
    applicationInstances: [AgentEnvironmentApplicationInstance!]
    nextCursor: String
  }
  ${DEPLOYMENTS_SDL}
  ${RELATIONSHIPS_SDL}
  ${APP_WRITES_SDL}
  ${RESOURCES_SDL}
  extend type RootMutationType {
    ${RESOURCES_MUTATIONS_SDL}
  }

  ${ALERTS_SDL}

  ${API_ACCESS_SDL}

  extend type RootMutationType {
    ${ALERTS_MUTATIONS_SDL}
  }
`

/** @module simulator/graphql/schema-app-writes — APM application settings update and delete (April 2025 schema). */

/** Joined into SCHEMA_SDL (schema.ts); every name and type exists in the real schema. */
export const APP_WRITES_SDL = /* GraphQL */ `
  extend type RootMutationType {
    agentApplicationDelete(guid: EntityGuid!): AgentApplicationDeleteResult
    agentApplicationSettingsUpdate(
      guid: EntityGuid!
      settings: AgentApplicationSettingsUpdateInput!
    ): AgentApplicationSettingsUpdateResult
  }

  type AgentApplicationDeleteResult {
    success: Boolean!
  }

  input AgentApplicationSettingsUpdateInput {
    alias: String
    apmConfig: AgentApplicationSettingsApmConfigInput
    browserConfig: AgentApplicationSettingsBrowserConfigInput
    browserMonitoring: AgentApplicationSettingsBrowserMonitoringInput
    name: String
  }

  input AgentApplicationSettingsBrowserMonitoringInput {
    loader: AgentApplicationSettingsBrowserLoaderInput
  }

  enum AgentApplicationSettingsBrowserLoaderInput {
    FULL
    LITE
    NONE
    PRO
    SPA
  }

  input AgentApplicationSettingsApmConfigInput {
    apdexTarget: Float
    useServerSideConfig: Boolean
  }

  input AgentApplicationSettingsBrowserConfigInput {
    apdexTarget: Float
  }

  type AgentApplicationSettingsUpdateResult {
    alias: String
    apmSettings: AgentApplicationSettingsApmBase
    browserSettings: AgentApplicationSettingsBrowserBase
    errors: [AgentApplicationSettingsUpdateError]
    guid: EntityGuid!
    name: String
  }

  type AgentApplicationSettingsBrowserBase {
    browserConfig: AgentApplicationSettingsBrowserConfig!
    browserMonitoring: AgentApplicationSettingsBrowserMonitoring!
  }

  type AgentApplicationSettingsBrowserMonitoring {
    loader: AgentApplicationSettingsBrowserLoader!
  }

  enum AgentApplicationSettingsBrowserLoader {
    FULL
    LITE
    NONE
    PRO
    RUM
    SPA
  }

  type AgentApplicationSettingsBrowserConfig {
    apdexTarget: Float
  }

  type AgentApplicationSettingsUpdateError {
    description: String
    errorClass: AgentApplicationSettingsUpdateErrorClass
    field: String
  }

  enum AgentApplicationSettingsUpdateErrorClass {
    ACCESS_DENIED
    INVALID_INPUT
    NOT_FOUND
  }
`

/**
 * @module mappings/application-settings
 * v2 application settings (PUT /v2/applications/{id}: `application[name]`, `application[settings][…]`;
 * New Relic docs "Change the alias for your application (v2)") ↔ `AgentApplicationSettingsUpdateInput`
 * (New Relic docs "Migrate from REST API v2 to NerdGraph": agentApplicationSettingsUpdate). `name` is
 * sent as `alias`, NerdGraph's non-deprecated spelling.
 */
export const applicationSettings = {
  name: { path: ['alias'], field: 'alias', kind: 'text' },
  app_apdex_threshold: {
    path: ['apmConfig', 'apdexTarget'],
    field: 'apmConfig.apdexTarget',
    kind: 'seconds',
  },
  end_user_apdex_threshold: {
    path: ['browserConfig', 'apdexTarget'],
    field: 'browserConfig.apdexTarget',
    kind: 'seconds',
  },
  enable_real_user_monitoring: {
    path: ['browserMonitoring', 'loader'],
    field: 'browserMonitoring.loader',
    kind: 'boolean',
  },
} as const satisfies Record<string, { path: readonly string[]; field: string; kind: string }>

/** `enable_real_user_monitoring` → browser agent loader (schema enum
 * `AgentApplicationSettingsBrowserLoaderInput`): Pro+SPA is the agent enabling browser monitoring
 * installs by default, NONE removes it. Sent only when it changes what v2 shows
 * (src/resources/applications/writes.ts), so enabling never downgrades or swaps a loader already in place. */
export const realUserMonitoringLoader = { true: 'SPA', false: 'NONE' } as const

export type V2Setting = keyof typeof applicationSettings

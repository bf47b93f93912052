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
  enable_real_user_monitoring: { path: [], field: '', kind: 'boolean' },
} as const satisfies Record<string, { path: readonly string[]; field: string; kind: string }>

export type V2Setting = keyof typeof applicationSettings

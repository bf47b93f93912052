/**
 * @module mappings/health-status
 * NerdGraph `alertSeverity` → v2 `health_status` (contract §3.2 [INFERRED]; v2 uses `orange`, never
 * `yellow`, and `unknown` without an alert policy: contract §2.1, D-health).
 */
export const healthStatusBySeverity = {
  CRITICAL: 'red',
  WARNING: 'orange',
  NOT_ALERTING: 'green',
  NOT_CONFIGURED: 'unknown',
} as const satisfies Record<string, 'red' | 'orange' | 'green' | 'unknown'>

/** A non-reporting application is `gray` whatever its severity (contract §2.1). */
export const notReportingHealthStatus = 'gray'

export type AlertSeverity = keyof typeof healthStatusBySeverity
export type HealthStatus = (typeof healthStatusBySeverity)[AlertSeverity] | 'gray'

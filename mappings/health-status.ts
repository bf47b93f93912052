/**
 * @module mappings/health-status
 * NerdGraph `alertSeverity` → v2 `health_status` ([INFERRED] from the colours; v2 uses `orange`, never
 * `yellow`, and `unknown` without an alert policy: New Relic docs "Application reporting and health
 * status (v2)").
 */
export const healthStatusBySeverity = {
  CRITICAL: 'red',
  WARNING: 'orange',
  NOT_ALERTING: 'green',
  NOT_CONFIGURED: 'unknown',
} as const satisfies Record<string, 'red' | 'orange' | 'green' | 'unknown'>

/** A non-reporting application is `gray` whatever its severity (D-names shows a `gray` app; PGN fixture). */
export const notReportingHealthStatus = 'gray'

export type AlertSeverity = keyof typeof healthStatusBySeverity
export type HealthStatus = (typeof healthStatusBySeverity)[AlertSeverity] | 'gray'

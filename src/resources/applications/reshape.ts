/**
 * @module resources/applications/reshape
 * NerdGraph APM entity (+ its hosts and instances) → v2 application record (D-summary, D-health;
 * fixtures of GO and MRF `_testing/application_list.json`), pure.
 */
import {
  healthStatusBySeverity,
  notReportingHealthStatus,
  type AlertSeverity,
  type HealthStatus,
} from '../../../mappings/health-status'
import { round2, round3 } from '../../core/numbers'
import { formatTime } from '../../core/time-range'
import type { Topology } from '../../entities/topology'
import { lastReportedAt } from '../../entities/last-report'
import type { BrowserSummary, WindowFigures } from './browser'
import type { ApmApplication, ApmSummary } from './documents'

/** Browser apdex T when no EndUser/Apdex timeslice says otherwise: New Relic's default of 7 s
 * (D-summary and D-health examples show `end_user_apdex_threshold: 7`). */
export const defaultEndUserApdexT = 7

export function healthStatus(e: ApmApplication): HealthStatus {
  if (e.reporting !== true) return notReportingHealthStatus
  return healthStatusBySeverity[e.alertSeverity as AlertSeverity] ?? 'unknown'
}

/** The browser application an APM application serves, with its apdex T as set: what a PUT of
 * `end_user_apdex_threshold` changed, while timeslices still carry the old T. */
export interface Served {
  apdexT: number | undefined
}

/** From the SERVES relationship of GET show; a list page finds it by entity search (members.ts). */
function servedOf(e: ApmApplication): Served | undefined {
  const result = e.relatedEntities?.results[0]
  if (!result) return undefined
  const t = result.target.entity?.settings?.apdexTarget
  return { apdexT: typeof t === 'number' ? t : undefined }
}

/** `application_summary`'s figures from `apmSummary` (seconds → ms, per minute), when no timeslice
 * row came: web transactions' for an application that has them (as browser.ts `WindowFigures`). */
function apmFigures(s: ApmSummary): WindowFigures {
  const web = (s.webThroughput ?? 0) > 0
  const time = web ? s.webResponseTimeAverage : s.responseTimeAverage
  return {
    response_time: round3((time ?? 0) * 1000),
    throughput: round3((web ? s.webThroughput : s.throughput) ?? 0),
    error_rate: round3(s.errorRate ?? 0), // percent (schema); whether 0–100 or 0–1 is unknown
    apdex_score: round2(s.apdexScore ?? 0),
  }
}

const emptyTopology: Topology = { hosts: new Map(), instances: new Map(), lastReported: undefined }

/** The v2 record, keys in the order of D-health's example. */
export function toV2Application(
  e: ApmApplication,
  topology: Topology = emptyTopology,
  browser: BrowserSummary | undefined = undefined,
  served: Served | undefined = servedOf(e),
  alertPolicy: number | undefined = undefined,
  lastEvent: number | undefined = undefined
): Record<string, unknown> {
  const reporting = e.reporting === true
  const apdexTarget = e.settings?.apdexTarget ?? 0.5
  const servedT = served?.apdexT
  const record: Record<string, unknown> = {
    id: e.applicationId,
    name: e.name,
    language: e.language ?? 'unknown',
    health_status: healthStatus(e),
    reporting,
  }
  // Omitted when not reporting (D-health); to the second from the newest event, else the start of
  // the last timeslice minute (src/entities/last-report.ts)
  const last = lastReportedAt(topology.lastReported, lastEvent)
  if (reporting && last !== undefined) record['last_reported_at'] = formatTime(last)
  const s = e.apmSummary
  if (reporting && s) {
    const instances = s.instanceCount ?? topology.instances.size
    // v2's window from the timeslices (browser.ts); `apmSummary`, over NerdGraph's own window, only
    // without a row
    const w = browser?.application ?? apmFigures(s)
    record['application_summary'] = {
      response_time: w.response_time,
      throughput: w.throughput,
      error_rate: w.error_rate,
      apdex_target: round2(apdexTarget),
      apdex_score: w.apdex_score,
      host_count: s.hostCount ?? topology.hosts.size,
      instance_count: instances,
      // The instances that reported in the summary window, last (newrelic-client-go
      // pkg/apm/applications_test.go shows it on a web application; v2 explorer AppSummaryResponse);
      // NerdGraph's `instanceCount` ("The number of instances of this application running").
      concurrent_instance_count: instances,
    }
    // only when browser data exists (PGN and HUBOT fixtures omit it otherwise)
    if (e.apmBrowserSummary && browser?.summary) {
      record['end_user_summary'] =
        servedT === undefined
          ? browser.summary
          : { ...browser.summary, apdex_target: round2(servedT) }
    }
  }
  record['settings'] = {
    app_apdex_threshold: apdexTarget,
    end_user_apdex_threshold: servedT ?? browser?.apdexT ?? defaultEndUserApdexT,
    // A setting ("Whether end user monitoring is enabled", v2 explorer AppSettingsResponse),
    // reporting or not: browser data now, else, for an app that does not report, a browser app
    // it serves.
    enable_real_user_monitoring: e.apmBrowserSummary != null || (!reporting && served != null),
    use_server_side_config: e.settings?.serverSideConfig ?? false,
  }
  record['links'] = {
    application_instances: [...topology.instances.keys()].sort((a, b) => a - b),
    // only when a policy's conditions target the application, in D-health's key order
    ...(alertPolicy === undefined ? {} : { alert_policy: alertPolicy }),
    servers: [], // the Servers product is retired (GO fixture still shows `servers: []`)
    application_hosts: [...topology.hosts.values()].sort((a, b) => a - b),
  }
  return record
}

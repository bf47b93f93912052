/**
 * @module mappings/xml
 * XML naming data (real v2 XML in tonsser/slack-bot `app/NewRelic.hs`, read by the Sensu plugin
 * metrics-newrelic): the singular of each array container, and the fields whose
 * numbers are integers (printed without `.0`).
 */

/** Container → item element. Rails `singularize` [CONFIRMED by those samples for metrics,
 * timeslices, applications; INFERRED for the rest]. */
export const singulars = {
  applications: 'application', // CONFIRMED SENSU, PYPROV
  application_instances: 'application_instance', // INFERRED
  application_hosts: 'application_host', // INFERRED
  servers: 'server', // CONFIRMED PSM
  metrics: 'metric', // CONFIRMED TONS
  timeslices: 'timeslice', // CONFIRMED TONS
  values: 'value', // INFERRED (metric names' value list)
  metrics_found: 'metrics_found', // INFERRED: singularize keeps "found"
  metrics_not_found: 'metrics_not_found', // INFERRED
  messages: 'message', // INFERRED (error messages)
} as const satisfies Record<string, string>

/** Singular for containers not in the table: Rails' common rules (…ies → …y, …s → …). */
export function singular(name: string): string {
  const known = (singulars as Record<string, string>)[name]
  if (known) return known
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`
  if (name.endsWith('ses') || name.endsWith('xes')) return name.slice(0, -2)
  if (name.endsWith('s') && !name.endsWith('ss')) return name.slice(0, -1)
  return name
}

/** Fields whose values are whole numbers in v2 (ids, counts, ports): no `.0` in XML (TONS sample). */
export const integerFields = new Set([
  'id',
  'application',
  'application_host',
  'application_instance',
  'application_instances',
  'application_hosts',
  'alert_policy',
  'server',
  'servers',
  'port',
  'host_count',
  'instance_count',
  'concurrent_instance_count',
  'call_count',
  'error_count',
  'count',
  's',
  't',
  'f',
  'launch_count', // metric value counts (mappings/value-types.ts `count: true`)
  'active_users', // mobile_summary and crash_summary counts (v2 explorer MobileSummaryDataResponse)
  'crash_count',
  'unresolved_crash_count',
  'applications', // label links and health buckets: application IDs (GO labels_test.go)
  'green',
  'orange',
  'red',
  'gray',
  'apm',
  'agents',
  'synthetics',
  // alerts (v2 explorer alerts models: integers and epoch-ms times)
  'timestamp',
  'opened_at',
  'closed_at',
  'duration',
  'group_id',
  'entity_id',
  'entity_group_id',
  'incident_id',
  'policy_id',
  'condition_id',
  'violation',
  'channel_id',
])

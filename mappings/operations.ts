/**
 * @module mappings/operations
 * Every operation of New Relic's REST API v2 (the 84 of its API explorer, v2 definitions.json of
 * 2018, public copy: burck1/go-newrelic branch `swagger`, swaggerGen/definitions-1.1/) plus the few
 * that exist outside the explorer, one row each, with how v2bridge answers it:
 *
 * - `served`: translated to NerdGraph by a route of v2bridge (`nerdgraph` names what it uses);
 * - `forwarded`: kept alive by New Relic after the end of life, passed unchanged to the real v2;
 * - `retired`: New Relic retired it; v2bridge answers 410 with `title`, as v2 does for retired APIs
 *   (ambitioninc/newrelic-api issue #31 records such a 410 body);
 * - `unsupported`: nothing in NerdGraph can answer it; 501 with a title naming it.
 *
 * Routing, 404/405 with `Allow`, the 410 and 501 answers, the README's table of operations and the
 * tests all read this table (src/http/operations.ts); none keeps its own list.
 */

export const answers = ['served', 'forwarded', 'retired', 'unsupported'] as const
export type Answer = (typeof answers)[number]

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface OperationRow {
  readonly method: HttpMethod
  /** The v2 path without `.{format}`, parameters in braces as the explorer spells them. */
  readonly path: string
  /** The explorer's resource (definitions.json), which groups rows in the README and explorer. */
  readonly resource: string
  readonly summary: string
  readonly answer: Answer
  /** NerdGraph fields and mutations a served row uses. */
  readonly nerdgraph?: readonly string[]
  /** v2 also reads this list or data path by POST with the parameters in the body (clients in
   * production did: ansible `newrelic_deployment` and statianzo/hubot-newrelic2 POST
   * `applications.json` with `filter[name]`; a browser extension POSTs `metrics/data.json`). */
  readonly postReads?: true
  /** The largest request body the row reads, in KiB, when not the default (src/http/body.ts
   * `bodyLimitOf`: 64 for a read, 16 for a write). */
  readonly maxBodyKiB?: number
  /** 410 title of a retired row. */
  readonly title?: string
  /** Where the row's facts come from, when not the explorer. */
  readonly source?: string
}

const pluginsGone =
  'The plugins API is retired: New Relic plugins reached end of life. Use New Relic integrations and NerdGraph instead.'
const dashboardsGone =
  'The dashboards API is retired. Use NerdGraph dashboards (actor.entitySearch, dashboardCreate, dashboardUpdate) instead.'
/** v2's own 410 title, recorded by ambitioninc/newrelic-api issue #31. */
const alertPoliciesGone =
  "The alert policies API is deprecated. Please see 'alerts.newrelic.com' for the new alerting infrastructure."
const multiLocation =
  'New Relic docs "REST API calls for alert conditions" (multi-location synthetics)'
const usagesGone =
  'The usages API is retired. Query usage with NRQL (FROM NrConsumption) through NerdGraph instead.'

const entity = ['actor.entitySearch', 'actor.entity', 'actor.account.nrql'] as const
const nrql = ['actor.account.nrql'] as const
const conditions = 'actor.account.alerts.nrqlConditionsSearch' // `links.alert_policy`
const deployments = ['actor.entity.deploymentSearch'] as const
const users = ['actor.organization.userManagement.authenticationDomains'] as const
const keyCheck = ['actor.user'] as const
const incidents = ['actor.account.aiIssues.incidents', 'actor.account.aiIssues.issues'] as const

/** What a row states besides its method, path, summary and answer. */
type More = Pick<OperationRow, 'nerdgraph' | 'postReads' | 'maxBodyKiB' | 'title' | 'source'>

/** One v2 operation: `[method, path, summary, answer, more]`. */
type Row = readonly [HttpMethod, string, string, Answer, More?]

/** The rows by the explorer's resource (`resource` of each row), in the explorer's order; a row is
 * `[method, path, summary, answer, more]`. */
// prettier-ignore
const rowsByResource: Readonly<Record<string, readonly Row[]>> = {
  // applications (New Relic docs "List your app ID and metric data")
  applications: [
    ['GET', '/v2/applications', 'List applications', 'served', { nerdgraph: [...entity, conditions], postReads: true }],
    ['GET', '/v2/applications/{id}', 'Show application', 'served', { nerdgraph: [...entity, conditions] }],
    ['PUT', '/v2/applications/{id}', 'Update application', 'served', { nerdgraph: ['agentApplicationSettingsUpdate', ...entity] }],
    ['DELETE', '/v2/applications/{id}', 'Delete application', 'served', { nerdgraph: [...entity, 'agentApplicationDelete'] }],
    ['GET', '/v2/applications/{application_id}/metrics', 'Metric names', 'served', { nerdgraph: nrql, postReads: true }],
    ['GET', '/v2/applications/{application_id}/metrics/data', 'Metric data', 'served', { nerdgraph: nrql, postReads: true }],
  ],
  application_hosts: [
    ['GET', '/v2/applications/{application_id}/hosts', 'List application hosts', 'served', { nerdgraph: nrql, postReads: true }],
    ['GET', '/v2/applications/{application_id}/hosts/{id}', 'Show application host', 'served', { nerdgraph: nrql }],
    ['GET', '/v2/applications/{application_id}/hosts/{host_id}/metrics', 'Host metric names', 'served', { nerdgraph: nrql, postReads: true }],
    ['GET', '/v2/applications/{application_id}/hosts/{host_id}/metrics/data', 'Host metric data', 'served', { nerdgraph: nrql, postReads: true }],
  ],
  application_instances: [
    ['GET', '/v2/applications/{application_id}/instances', 'List application instances', 'served', { nerdgraph: nrql, postReads: true }],
    ['GET', '/v2/applications/{application_id}/instances/{id}', 'Show application instance', 'served', { nerdgraph: nrql }],
    ['GET', '/v2/applications/{application_id}/instances/{instance_id}/metrics', 'Instance metric names', 'served', { nerdgraph: nrql, postReads: true }],
    ['GET', '/v2/applications/{application_id}/instances/{instance_id}/metrics/data', 'Instance metric data', 'served', { nerdgraph: nrql, postReads: true }],
  ],
  application_deployments: [
    ['GET', '/v2/applications/{application_id}/deployments', 'List deployments', 'served', { nerdgraph: deployments }],
    ['POST', '/v2/applications/{application_id}/deployments', 'Create deployment', 'served', { nerdgraph: ['changeTrackingCreateDeployment'], maxBodyKiB: 1024 }],
    ['DELETE', '/v2/applications/{application_id}/deployments/{id}', 'Delete deployment', 'served', { nerdgraph: deployments }], // answers 409: NerdGraph deployments are immutable
    ['POST', '/deployments', 'Record deployment (legacy API v0)', 'served', { nerdgraph: ['actor.entitySearch', 'changeTrackingCreateDeployment'], source: 'New Relic docs "Legacy deployments API v0"; newrelic_api README', maxBodyKiB: 1024 }],
  ],
  key_transactions: [
    ['GET', '/v2/key_transactions', 'List key transactions', 'served', { nerdgraph: ['actor.entitySearch', 'actor.entities', 'actor.account.nrql'], postReads: true }],
    ['GET', '/v2/key_transactions/{id}', 'Show key transaction', 'served', { nerdgraph: entity }],
  ],
  browser_applications: [
    ['GET', '/v2/browser_applications', 'List browser applications', 'served', { nerdgraph: ['actor.entitySearch', 'actor.entities'] }],
    ['POST', '/v2/browser_applications', 'Create browser application', 'served', { nerdgraph: ['agentApplicationCreateBrowser', 'actor.accounts'] }],
  ],
  mobile_applications: [
    ['GET', '/v2/mobile_applications', 'List mobile applications', 'served', { nerdgraph: ['actor.entitySearch'] }],
    ['GET', '/v2/mobile_applications/{id}', 'Show mobile application', 'served', { nerdgraph: ['actor.entitySearch'] }],
    ['GET', '/v2/mobile_applications/{mobile_application_id}/metrics', 'Mobile metric names', 'served', { nerdgraph: ['actor.entitySearch', 'actor.account.nrql'], postReads: true }],
    ['GET', '/v2/mobile_applications/{mobile_application_id}/metrics/data', 'Mobile metric data', 'served', { nerdgraph: ['actor.entitySearch', 'actor.account.nrql'], postReads: true }],
    ['POST', '/v2/mobile_applications', 'Create mobile application', 'served', { nerdgraph: ['agentApplicationCreateMobile', 'actor.accounts'], source: 'New Relic docs "Migrate from REST API v2 to NerdGraph" (agentApplicationCreateMobile)' }],
  ],
  users: [
    ['GET', '/v2/users', 'List users', 'served', { nerdgraph: users, postReads: true }],
    ['GET', '/v2/users/{id}', 'Show user', 'served', { nerdgraph: users }],
    ['POST', '/v2/users/{id}/reset_password', 'Reset password', 'unsupported'],
  ],
  // servers (product retired 2018-05-15): served as an empty list, every ID 404 (src/resources/servers/servers.ts)
  servers: [
    ['GET', '/v2/servers', 'List servers', 'served', { nerdgraph: keyCheck, postReads: true }],
    ['GET', '/v2/servers/{id}', 'Show server', 'served', { nerdgraph: keyCheck }],
    ['PUT', '/v2/servers/{id}', 'Update server', 'served', { nerdgraph: keyCheck }],
    ['DELETE', '/v2/servers/{id}', 'Delete server', 'served', { nerdgraph: keyCheck }],
    ['GET', '/v2/servers/{server_id}/metrics', 'Server metric names', 'served', { nerdgraph: keyCheck, postReads: true }],
    ['GET', '/v2/servers/{server_id}/metrics/data', 'Server metric data', 'served', { nerdgraph: keyCheck, postReads: true }],
  ],
  // labels (New Relic docs "Labels and rollups": end of life 31 March 2020; entity tags replace them)
  labels: [
    ['GET', '/v2/labels', 'List labels', 'served', { nerdgraph: ['actor.entitySearch'] }],
    ['PUT', '/v2/labels', 'Create label', 'served', { nerdgraph: ['actor.entities', 'taggingAddTagsToEntity'], maxBodyKiB: 64 }],
    ['DELETE', '/v2/labels/{key}', 'Delete label', 'served', { nerdgraph: ['actor.entitySearch', 'taggingDeleteTagValuesFromEntity'] }],
  ],
  // plugins and components (retired; newrelic-client-go documents their 410)
  plugins: [
    ['GET', '/v2/plugins', 'List plugins', 'retired', { title: pluginsGone }],
    ['GET', '/v2/plugins/{id}', 'Show plugin', 'retired', { title: pluginsGone }],
  ],
  components: [
    ['GET', '/v2/components', 'List components', 'retired', { title: pluginsGone }],
    ['GET', '/v2/components/{id}', 'Show component', 'retired', { title: pluginsGone }],
    ['GET', '/v2/components/{component_id}/metrics', 'Component metric names', 'retired', { title: pluginsGone }],
    ['GET', '/v2/components/{component_id}/metrics/data', 'Component metric data', 'retired', { title: pluginsGone }],
  ],
  // dashboards (retired 2022 in favour of NerdGraph dashboards)
  dashboards: [
    ['GET', '/v2/dashboards', 'List dashboards', 'retired', { title: dashboardsGone }],
    ['GET', '/v2/dashboards/{id}', 'Show dashboard', 'retired', { title: dashboardsGone }],
    ['POST', '/v2/dashboards', 'Create dashboard', 'retired', { title: dashboardsGone }],
    ['PUT', '/v2/dashboards/{id}', 'Update dashboard', 'retired', { title: dashboardsGone }],
    ['DELETE', '/v2/dashboards/{id}', 'Delete dashboard', 'retired', { title: dashboardsGone }],
  ],
  usages: [
    ['GET', '/v2/usages/{product}', 'List usages', 'retired', { title: usagesGone }],
  ],
  // alerts_events, alerts_incidents, alerts_violations, alerts_channels, alerts_policy_channels: retired with v2
  alerts_events: [
    ['GET', '/v2/alerts_events', 'List alert events', 'served', { nerdgraph: [...incidents, 'actor.account.nrql'] }],
  ],
  alerts_incidents: [
    ['GET', '/v2/alerts_incidents', 'List incidents', 'served', { nerdgraph: ['actor.account.aiIssues.issues', 'actor.account.alerts.policiesSearch'] }],
    ['PUT', '/v2/alerts_incidents/{id}/acknowledge', 'Acknowledge incident', 'served', { nerdgraph: ['aiIssuesAckIssue', 'actor.account.aiIssues.issues'], source: 'newrelic-client-go pkg/alerts/incidents.go' }],
    ['PUT', '/v2/alerts_incidents/{id}/close', 'Close incident', 'served', { nerdgraph: ['aiIssuesResolveIssue', 'actor.account.aiIssues.issues'], source: 'newrelic-client-go pkg/alerts/incidents.go' }],
  ],
  alerts_violations: [
    ['GET', '/v2/alerts_violations', 'List violations', 'served', { nerdgraph: incidents }],
  ],
  alerts_channels: [
    ['GET', '/v2/alerts_channels', 'List channels', 'served', { nerdgraph: ['actor.account.alerts.notificationChannels'] }],
    ['POST', '/v2/alerts_channels', 'Create channel', 'served', { nerdgraph: ['alertsNotificationChannelCreate', 'alertsNotificationChannelsAddToPolicy', 'alertsNotificationChannelDelete'], maxBodyKiB: 64 }],
    ['DELETE', '/v2/alerts_channels/{channel_id}', 'Delete channel', 'served', { nerdgraph: ['actor.account.alerts.notificationChannel', 'alertsNotificationChannelDelete'] }],
  ],
  alerts_policy_channels: [
    ['PUT', '/v2/alerts_policy_channels', 'Add channels to a policy', 'served', { nerdgraph: ['alertsNotificationChannelsAddToPolicy'] }],
    ['DELETE', '/v2/alerts_policy_channels', 'Remove a channel from a policy', 'served', { nerdgraph: ['actor.account.alerts.notificationChannel', 'alertsNotificationChannelsRemoveFromPolicy'] }],
  ],
  // kept by New Relic after 31 July 2027 (New Relic docs "REST API v2 end of life"): forwarded
  alerts_policies: [
    ['GET', '/v2/alerts_policies', 'List policies', 'forwarded'],
    ['POST', '/v2/alerts_policies', 'Create policy', 'forwarded'],
    ['PUT', '/v2/alerts_policies/{id}', 'Update policy', 'forwarded'],
    ['DELETE', '/v2/alerts_policies/{policy_id}', 'Delete policy', 'forwarded'],
  ],
  alerts_conditions: [
    ['GET', '/v2/alerts_conditions', 'List conditions', 'forwarded'],
    ['POST', '/v2/alerts_conditions/policies/{policy_id}', 'Create condition', 'forwarded'],
    ['PUT', '/v2/alerts_conditions/{id}', 'Update condition', 'forwarded'],
    ['DELETE', '/v2/alerts_conditions/{condition_id}', 'Delete condition', 'forwarded'],
  ],
  alerts_nrql_conditions: [
    ['GET', '/v2/alerts_nrql_conditions', 'List NRQL conditions', 'forwarded'],
    ['POST', '/v2/alerts_nrql_conditions/policies/{policy_id}', 'Create NRQL condition', 'forwarded'],
    ['PUT', '/v2/alerts_nrql_conditions/{id}', 'Update NRQL condition', 'forwarded'],
    ['DELETE', '/v2/alerts_nrql_conditions/{condition_id}', 'Delete NRQL condition', 'forwarded'],
  ],
  alerts_external_service_conditions: [
    ['GET', '/v2/alerts_external_service_conditions', 'List external service conditions', 'forwarded'],
    ['POST', '/v2/alerts_external_service_conditions/policies/{policy_id}', 'Create external service condition', 'forwarded'],
    ['PUT', '/v2/alerts_external_service_conditions/{id}', 'Update external service condition', 'forwarded'],
    ['DELETE', '/v2/alerts_external_service_conditions/{condition_id}', 'Delete external service condition', 'forwarded'],
  ],
  alerts_synthetics_conditions: [
    ['GET', '/v2/alerts_synthetics_conditions', 'List synthetics conditions', 'forwarded'],
    ['POST', '/v2/alerts_synthetics_conditions/policies/{policy_id}', 'Create synthetics condition', 'forwarded'],
    ['PUT', '/v2/alerts_synthetics_conditions/{id}', 'Update synthetics condition', 'forwarded'],
    ['DELETE', '/v2/alerts_synthetics_conditions/{condition_id}', 'Delete synthetics condition', 'forwarded'],
  ],
  alerts_entity_conditions: [
    ['GET', '/v2/alerts_entity_conditions/{entity_id}', 'List conditions of an entity', 'forwarded'],
    ['PUT', '/v2/alerts_entity_conditions/{entity_id}', 'Add an entity to a condition', 'forwarded'],
    ['DELETE', '/v2/alerts_entity_conditions/{entity_id}', 'Remove an entity from a condition', 'forwarded'],
  ],
  alerts_location_failure_conditions: [
    ['GET', '/v2/alerts_location_failure_conditions/policies/{policy_id}', 'List location failure conditions', 'forwarded', { source: multiLocation }],
    ['POST', '/v2/alerts_location_failure_conditions/policies/{policy_id}', 'Create location failure condition', 'forwarded', { source: multiLocation }],
    ['PUT', '/v2/alerts_location_failure_conditions/{id}', 'Update location failure condition', 'forwarded', { source: multiLocation }],
    ['DELETE', '/v2/alerts_location_failure_conditions/{id}', 'Delete location failure condition', 'forwarded', { source: multiLocation }],
  ],
  // alerts_plugins_conditions: plugins are retired, so are their conditions
  alerts_plugins_conditions: [
    ['GET', '/v2/alerts_plugins_conditions', 'List plugins conditions', 'retired', { title: pluginsGone }],
    ['POST', '/v2/alerts_plugins_conditions/policies/{policy_id}', 'Create plugins condition', 'retired', { title: pluginsGone }],
    ['PUT', '/v2/alerts_plugins_conditions/{id}', 'Update plugins condition', 'retired', { title: pluginsGone }],
    ['DELETE', '/v2/alerts_plugins_conditions/{condition_id}', 'Delete plugins condition', 'retired', { title: pluginsGone }],
  ],
  // alert_policies: the pre-2016 alerts API, outside the explorer; v2 answered it 410
  alert_policies: [
    ['GET', '/v2/alert_policies', 'List legacy alert policies', 'retired', { title: alertPoliciesGone, source: 'ambitioninc/newrelic-api issue #31 (recorded 410 body)' }],
    ['GET', '/v2/alert_policies/{id}', 'Show legacy alert policy', 'retired', { title: alertPoliciesGone, source: 'ambitioninc/newrelic-api issue #31 (recorded 410 body of the list)' }],
  ],
}

/** One row per v2 operation; order follows the explorer's resources. */
export const operations: readonly OperationRow[] = Object.entries(rowsByResource).flatMap(
  ([resource, rows]) =>
    rows.map(([method, path, summary, answer, more]) => ({
      method,
      path,
      resource,
      summary,
      answer,
      ...more,
    }))
)

/** Paths that have a create (a POST row): a POST there is never a read. */
const creates = new Set(operations.filter((r) => r.method === 'POST').map((r) => r.path))

/**
 * Whether a POST on `row`'s path reads as its GET: where the row says so (`postReads`), and on every
 * served read path without a create (hubot-newrelic2 sends every call as POST with a form body).
 * Routing (src/http/operations.ts) and the README's table both read it here.
 */
export function readsByPost(
  row: OperationRow,
  createPaths: ReadonlySet<string> = creates
): boolean {
  if ('postReads' in row && row.postReads) return true
  return row.method === 'GET' && row.answer === 'served' && !createPaths.has(row.path)
}

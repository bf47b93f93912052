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
const usagesGone =
  'The usages API is retired. Query usage with NRQL (FROM NrConsumption) through NerdGraph instead.'

const entity = ['actor.entitySearch', 'actor.entity', 'actor.account.nrql'] as const
const nrql = ['actor.account.nrql'] as const
const deployments = ['actor.entity.deploymentSearch'] as const
const users = ['actor.organization.userManagement.authenticationDomains'] as const
const keyCheck = ['actor.user'] as const
const incidents = ['actor.account.aiIssues.incidents', 'actor.account.aiIssues.issues'] as const

/** One row per v2 operation; order follows the explorer's resources. */
// prettier-ignore
export const operations = [
  // applications (New Relic docs "List your app ID and metric data")
  { method: 'GET', path: '/v2/applications', resource: 'applications', summary: 'List applications', answer: 'served', nerdgraph: entity, postReads: true },
  { method: 'GET', path: '/v2/applications/{id}', resource: 'applications', summary: 'Show application', answer: 'served', nerdgraph: entity },
  { method: 'PUT', path: '/v2/applications/{id}', resource: 'applications', summary: 'Update application', answer: 'served', nerdgraph: ['agentApplicationSettingsUpdate', ...entity] },
  { method: 'DELETE', path: '/v2/applications/{id}', resource: 'applications', summary: 'Delete application', answer: 'served', nerdgraph: [...entity, 'agentApplicationDelete'] },
  { method: 'GET', path: '/v2/applications/{application_id}/metrics', resource: 'applications', summary: 'Metric names', answer: 'served', nerdgraph: nrql, postReads: true },
  { method: 'GET', path: '/v2/applications/{application_id}/metrics/data', resource: 'applications', summary: 'Metric data', answer: 'served', nerdgraph: nrql, postReads: true },
  // application_hosts
  { method: 'GET', path: '/v2/applications/{application_id}/hosts', resource: 'application_hosts', summary: 'List application hosts', answer: 'served', nerdgraph: nrql, postReads: true },
  { method: 'GET', path: '/v2/applications/{application_id}/hosts/{id}', resource: 'application_hosts', summary: 'Show application host', answer: 'served', nerdgraph: nrql },
  { method: 'GET', path: '/v2/applications/{application_id}/hosts/{host_id}/metrics', resource: 'application_hosts', summary: 'Host metric names', answer: 'served', nerdgraph: nrql, postReads: true },
  { method: 'GET', path: '/v2/applications/{application_id}/hosts/{host_id}/metrics/data', resource: 'application_hosts', summary: 'Host metric data', answer: 'served', nerdgraph: nrql, postReads: true },
  // application_instances
  { method: 'GET', path: '/v2/applications/{application_id}/instances', resource: 'application_instances', summary: 'List application instances', answer: 'served', nerdgraph: nrql, postReads: true },
  { method: 'GET', path: '/v2/applications/{application_id}/instances/{id}', resource: 'application_instances', summary: 'Show application instance', answer: 'served', nerdgraph: nrql },
  { method: 'GET', path: '/v2/applications/{application_id}/instances/{instance_id}/metrics', resource: 'application_instances', summary: 'Instance metric names', answer: 'served', nerdgraph: nrql, postReads: true },
  { method: 'GET', path: '/v2/applications/{application_id}/instances/{instance_id}/metrics/data', resource: 'application_instances', summary: 'Instance metric data', answer: 'served', nerdgraph: nrql, postReads: true },
  // application_deployments
  { method: 'GET', path: '/v2/applications/{application_id}/deployments', resource: 'application_deployments', summary: 'List deployments', answer: 'served', nerdgraph: deployments },
  { method: 'POST', path: '/v2/applications/{application_id}/deployments', resource: 'application_deployments', summary: 'Create deployment', answer: 'served', nerdgraph: ['changeTrackingCreateDeployment'], maxBodyKiB: 1024 },
  { method: 'DELETE', path: '/v2/applications/{application_id}/deployments/{id}', resource: 'application_deployments', summary: 'Delete deployment', answer: 'served', nerdgraph: deployments }, // answers 409: NerdGraph deployments are immutable
  { method: 'POST', path: '/deployments', resource: 'application_deployments', summary: 'Record deployment (legacy API v0)', answer: 'served', nerdgraph: ['actor.entitySearch', 'changeTrackingCreateDeployment'], source: 'New Relic docs "Legacy deployments API v0"; newrelic_api README', maxBodyKiB: 1024 },
  // key_transactions
  { method: 'GET', path: '/v2/key_transactions', resource: 'key_transactions', summary: 'List key transactions', answer: 'served', nerdgraph: ['actor.entitySearch', 'actor.entities', 'actor.account.nrql'], postReads: true },
  { method: 'GET', path: '/v2/key_transactions/{id}', resource: 'key_transactions', summary: 'Show key transaction', answer: 'served', nerdgraph: entity },
  // browser_applications
  { method: 'GET', path: '/v2/browser_applications', resource: 'browser_applications', summary: 'List browser applications', answer: 'served', nerdgraph: ['actor.entitySearch', 'actor.entities'] },
  { method: 'POST', path: '/v2/browser_applications', resource: 'browser_applications', summary: 'Create browser application', answer: 'served', nerdgraph: ['agentApplicationCreateBrowser', 'actor.accounts'] },
  // mobile_applications
  { method: 'GET', path: '/v2/mobile_applications', resource: 'mobile_applications', summary: 'List mobile applications', answer: 'served', nerdgraph: ['actor.entitySearch'] },
  { method: 'GET', path: '/v2/mobile_applications/{id}', resource: 'mobile_applications', summary: 'Show mobile application', answer: 'served', nerdgraph: ['actor.entitySearch'] },
  { method: 'GET', path: '/v2/mobile_applications/{mobile_application_id}/metrics', resource: 'mobile_applications', summary: 'Mobile metric names', answer: 'served', nerdgraph: ['actor.entitySearch', 'actor.account.nrql'], postReads: true },
  { method: 'GET', path: '/v2/mobile_applications/{mobile_application_id}/metrics/data', resource: 'mobile_applications', summary: 'Mobile metric data', answer: 'served', nerdgraph: ['actor.entitySearch', 'actor.account.nrql'], postReads: true },
  { method: 'POST', path: '/v2/mobile_applications', resource: 'mobile_applications', summary: 'Create mobile application', answer: 'served', nerdgraph: ['agentApplicationCreateMobile', 'actor.accounts'], source: 'New Relic docs "Migrate from REST API v2 to NerdGraph" (agentApplicationCreateMobile)' },
  // users
  { method: 'GET', path: '/v2/users', resource: 'users', summary: 'List users', answer: 'served', nerdgraph: users, postReads: true },
  { method: 'GET', path: '/v2/users/{id}', resource: 'users', summary: 'Show user', answer: 'served', nerdgraph: users },
  { method: 'POST', path: '/v2/users/{id}/reset_password', resource: 'users', summary: 'Reset password', answer: 'unsupported' },
  // servers (product retired 2018-05-15): served as an empty list, every ID 404 (src/resources/servers/servers.ts)
  { method: 'GET', path: '/v2/servers', resource: 'servers', summary: 'List servers', answer: 'served', nerdgraph: keyCheck, postReads: true },
  { method: 'GET', path: '/v2/servers/{id}', resource: 'servers', summary: 'Show server', answer: 'served', nerdgraph: keyCheck },
  { method: 'PUT', path: '/v2/servers/{id}', resource: 'servers', summary: 'Update server', answer: 'served', nerdgraph: keyCheck },
  { method: 'DELETE', path: '/v2/servers/{id}', resource: 'servers', summary: 'Delete server', answer: 'served', nerdgraph: keyCheck },
  { method: 'GET', path: '/v2/servers/{server_id}/metrics', resource: 'servers', summary: 'Server metric names', answer: 'served', nerdgraph: keyCheck, postReads: true },
  { method: 'GET', path: '/v2/servers/{server_id}/metrics/data', resource: 'servers', summary: 'Server metric data', answer: 'served', nerdgraph: keyCheck, postReads: true },
  // labels (New Relic docs "Labels and rollups": end of life 31 March 2020; entity tags replace them)
  { method: 'GET', path: '/v2/labels', resource: 'labels', summary: 'List labels', answer: 'served', nerdgraph: ['actor.entitySearch'] },
  { method: 'PUT', path: '/v2/labels', resource: 'labels', summary: 'Create label', answer: 'served', nerdgraph: ['actor.entities', 'taggingAddTagsToEntity'], maxBodyKiB: 64 },
  { method: 'DELETE', path: '/v2/labels/{key}', resource: 'labels', summary: 'Delete label', answer: 'served', nerdgraph: ['actor.entitySearch', 'taggingDeleteTagValuesFromEntity'] },
  // plugins and components (retired; newrelic-client-go documents their 410)
  { method: 'GET', path: '/v2/plugins', resource: 'plugins', summary: 'List plugins', answer: 'retired', title: pluginsGone },
  { method: 'GET', path: '/v2/plugins/{id}', resource: 'plugins', summary: 'Show plugin', answer: 'retired', title: pluginsGone },
  { method: 'GET', path: '/v2/components', resource: 'components', summary: 'List components', answer: 'retired', title: pluginsGone },
  { method: 'GET', path: '/v2/components/{id}', resource: 'components', summary: 'Show component', answer: 'retired', title: pluginsGone },
  { method: 'GET', path: '/v2/components/{component_id}/metrics', resource: 'components', summary: 'Component metric names', answer: 'retired', title: pluginsGone },
  { method: 'GET', path: '/v2/components/{component_id}/metrics/data', resource: 'components', summary: 'Component metric data', answer: 'retired', title: pluginsGone },
  // dashboards (retired 2022 in favour of NerdGraph dashboards)
  { method: 'GET', path: '/v2/dashboards', resource: 'dashboards', summary: 'List dashboards', answer: 'retired', title: dashboardsGone },
  { method: 'GET', path: '/v2/dashboards/{id}', resource: 'dashboards', summary: 'Show dashboard', answer: 'retired', title: dashboardsGone },
  { method: 'POST', path: '/v2/dashboards', resource: 'dashboards', summary: 'Create dashboard', answer: 'retired', title: dashboardsGone },
  { method: 'PUT', path: '/v2/dashboards/{id}', resource: 'dashboards', summary: 'Update dashboard', answer: 'retired', title: dashboardsGone },
  { method: 'DELETE', path: '/v2/dashboards/{id}', resource: 'dashboards', summary: 'Delete dashboard', answer: 'retired', title: dashboardsGone },
  // usages
  { method: 'GET', path: '/v2/usages/{product}', resource: 'usages', summary: 'List usages', answer: 'retired', title: usagesGone },
  // alerts_events, alerts_incidents, alerts_violations, alerts_channels, alerts_policy_channels: retired with v2
  { method: 'GET', path: '/v2/alerts_events', resource: 'alerts_events', summary: 'List alert events', answer: 'served', nerdgraph: incidents },
  { method: 'GET', path: '/v2/alerts_incidents', resource: 'alerts_incidents', summary: 'List incidents', answer: 'served', nerdgraph: ['actor.account.aiIssues.issues', 'actor.account.alerts.policiesSearch'] },
  { method: 'PUT', path: '/v2/alerts_incidents/{id}/acknowledge', resource: 'alerts_incidents', summary: 'Acknowledge incident', answer: 'served', nerdgraph: ['aiIssuesAckIssue', 'actor.account.aiIssues.issues'], source: 'newrelic-client-go pkg/alerts/incidents.go' },
  { method: 'PUT', path: '/v2/alerts_incidents/{id}/close', resource: 'alerts_incidents', summary: 'Close incident', answer: 'served', nerdgraph: ['aiIssuesResolveIssue', 'actor.account.aiIssues.issues'], source: 'newrelic-client-go pkg/alerts/incidents.go' },
  { method: 'GET', path: '/v2/alerts_violations', resource: 'alerts_violations', summary: 'List violations', answer: 'served', nerdgraph: incidents },
  { method: 'GET', path: '/v2/alerts_channels', resource: 'alerts_channels', summary: 'List channels', answer: 'served', nerdgraph: ['actor.account.alerts.notificationChannels'] },
  { method: 'POST', path: '/v2/alerts_channels', resource: 'alerts_channels', summary: 'Create channel', answer: 'served', nerdgraph: ['alertsNotificationChannelCreate', 'alertsNotificationChannelsAddToPolicy', 'alertsNotificationChannelDelete'], maxBodyKiB: 64 },
  { method: 'DELETE', path: '/v2/alerts_channels/{channel_id}', resource: 'alerts_channels', summary: 'Delete channel', answer: 'served', nerdgraph: ['actor.account.alerts.notificationChannel', 'alertsNotificationChannelDelete'] },
  { method: 'PUT', path: '/v2/alerts_policy_channels', resource: 'alerts_policy_channels', summary: 'Add channels to a policy', answer: 'served', nerdgraph: ['alertsNotificationChannelsAddToPolicy'] },
  { method: 'DELETE', path: '/v2/alerts_policy_channels', resource: 'alerts_policy_channels', summary: 'Remove a channel from a policy', answer: 'served', nerdgraph: ['actor.account.alerts.notificationChannel', 'alertsNotificationChannelsRemoveFromPolicy'] },
  // kept by New Relic after 31 July 2027 (New Relic docs "REST API v2 end of life"): forwarded
  { method: 'GET', path: '/v2/alerts_policies', resource: 'alerts_policies', summary: 'List policies', answer: 'forwarded' },
  { method: 'POST', path: '/v2/alerts_policies', resource: 'alerts_policies', summary: 'Create policy', answer: 'forwarded' },
  { method: 'PUT', path: '/v2/alerts_policies/{id}', resource: 'alerts_policies', summary: 'Update policy', answer: 'forwarded' },
  { method: 'DELETE', path: '/v2/alerts_policies/{policy_id}', resource: 'alerts_policies', summary: 'Delete policy', answer: 'forwarded' },
  { method: 'GET', path: '/v2/alerts_conditions', resource: 'alerts_conditions', summary: 'List conditions', answer: 'forwarded' },
  { method: 'POST', path: '/v2/alerts_conditions/policies/{policy_id}', resource: 'alerts_conditions', summary: 'Create condition', answer: 'forwarded' },
  { method: 'PUT', path: '/v2/alerts_conditions/{id}', resource: 'alerts_conditions', summary: 'Update condition', answer: 'forwarded' },
  { method: 'DELETE', path: '/v2/alerts_conditions/{condition_id}', resource: 'alerts_conditions', summary: 'Delete condition', answer: 'forwarded' },
  { method: 'GET', path: '/v2/alerts_nrql_conditions', resource: 'alerts_nrql_conditions', summary: 'List NRQL conditions', answer: 'forwarded' },
  { method: 'POST', path: '/v2/alerts_nrql_conditions/policies/{policy_id}', resource: 'alerts_nrql_conditions', summary: 'Create NRQL condition', answer: 'forwarded' },
  { method: 'PUT', path: '/v2/alerts_nrql_conditions/{id}', resource: 'alerts_nrql_conditions', summary: 'Update NRQL condition', answer: 'forwarded' },
  { method: 'DELETE', path: '/v2/alerts_nrql_conditions/{condition_id}', resource: 'alerts_nrql_conditions', summary: 'Delete NRQL condition', answer: 'forwarded' },
  { method: 'GET', path: '/v2/alerts_external_service_conditions', resource: 'alerts_external_service_conditions', summary: 'List external service conditions', answer: 'forwarded' },
  { method: 'POST', path: '/v2/alerts_external_service_conditions/policies/{policy_id}', resource: 'alerts_external_service_conditions', summary: 'Create external service condition', answer: 'forwarded' },
  { method: 'PUT', path: '/v2/alerts_external_service_conditions/{id}', resource: 'alerts_external_service_conditions', summary: 'Update external service condition', answer: 'forwarded' },
  { method: 'DELETE', path: '/v2/alerts_external_service_conditions/{condition_id}', resource: 'alerts_external_service_conditions', summary: 'Delete external service condition', answer: 'forwarded' },
  { method: 'GET', path: '/v2/alerts_synthetics_conditions', resource: 'alerts_synthetics_conditions', summary: 'List synthetics conditions', answer: 'forwarded' },
  { method: 'POST', path: '/v2/alerts_synthetics_conditions/policies/{policy_id}', resource: 'alerts_synthetics_conditions', summary: 'Create synthetics condition', answer: 'forwarded' },
  { method: 'PUT', path: '/v2/alerts_synthetics_conditions/{id}', resource: 'alerts_synthetics_conditions', summary: 'Update synthetics condition', answer: 'forwarded' },
  { method: 'DELETE', path: '/v2/alerts_synthetics_conditions/{condition_id}', resource: 'alerts_synthetics_conditions', summary: 'Delete synthetics condition', answer: 'forwarded' },
  { method: 'GET', path: '/v2/alerts_entity_conditions/{entity_id}', resource: 'alerts_entity_conditions', summary: 'List conditions of an entity', answer: 'forwarded' },
  { method: 'PUT', path: '/v2/alerts_entity_conditions/{entity_id}', resource: 'alerts_entity_conditions', summary: 'Add an entity to a condition', answer: 'forwarded' },
  { method: 'DELETE', path: '/v2/alerts_entity_conditions/{entity_id}', resource: 'alerts_entity_conditions', summary: 'Remove an entity from a condition', answer: 'forwarded' },
  { method: 'GET', path: '/v2/alerts_location_failure_conditions/policies/{policy_id}', resource: 'alerts_location_failure_conditions', summary: 'List location failure conditions', answer: 'forwarded', source: 'New Relic docs "REST API calls for alert conditions" (multi-location synthetics)' },
  { method: 'POST', path: '/v2/alerts_location_failure_conditions/policies/{policy_id}', resource: 'alerts_location_failure_conditions', summary: 'Create location failure condition', answer: 'forwarded', source: 'New Relic docs "REST API calls for alert conditions" (multi-location synthetics)' },
  { method: 'PUT', path: '/v2/alerts_location_failure_conditions/{id}', resource: 'alerts_location_failure_conditions', summary: 'Update location failure condition', answer: 'forwarded', source: 'New Relic docs "REST API calls for alert conditions" (multi-location synthetics)' },
  { method: 'DELETE', path: '/v2/alerts_location_failure_conditions/{id}', resource: 'alerts_location_failure_conditions', summary: 'Delete location failure condition', answer: 'forwarded', source: 'New Relic docs "REST API calls for alert conditions" (multi-location synthetics)' },
  // alerts_plugins_conditions: plugins are retired, so are their conditions
  { method: 'GET', path: '/v2/alerts_plugins_conditions', resource: 'alerts_plugins_conditions', summary: 'List plugins conditions', answer: 'retired', title: pluginsGone },
  { method: 'POST', path: '/v2/alerts_plugins_conditions/policies/{policy_id}', resource: 'alerts_plugins_conditions', summary: 'Create plugins condition', answer: 'retired', title: pluginsGone },
  { method: 'PUT', path: '/v2/alerts_plugins_conditions/{id}', resource: 'alerts_plugins_conditions', summary: 'Update plugins condition', answer: 'retired', title: pluginsGone },
  { method: 'DELETE', path: '/v2/alerts_plugins_conditions/{condition_id}', resource: 'alerts_plugins_conditions', summary: 'Delete plugins condition', answer: 'retired', title: pluginsGone },
  // alert_policies: the pre-2016 alerts API, outside the explorer; v2 answered it 410
  { method: 'GET', path: '/v2/alert_policies', resource: 'alert_policies', summary: 'List legacy alert policies', answer: 'retired', title: alertPoliciesGone, source: 'ambitioninc/newrelic-api issue #31 (recorded 410 body)' },
  { method: 'GET', path: '/v2/alert_policies/{id}', resource: 'alert_policies', summary: 'Show legacy alert policy', answer: 'retired', title: alertPoliciesGone, source: 'ambitioninc/newrelic-api issue #31 (recorded 410 body of the list)' },
] as const satisfies readonly OperationRow[]

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

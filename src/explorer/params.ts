/**
 * @module explorer/params
 * What the explorer page offers for each v2 operation, keyed `METHOD path`: its parameters (path,
 * query and body) with the type and description New Relic's v2 API explorer gave them (definitions
 * of 2018, public copy: burck1/go-newrelic branch `swagger`, swaggerGen/definitions-1.1/), plus the
 * spellings real clients send (marked); example bodies of writes, shown as placeholders and never
 * sent unless typed; and the v2 documentation page of each resource.
 */

/** How the form asks for a parameter; `body` is the JSON body's model. */
export type ParamKind = 'text' | 'list' | 'time' | 'bool' | 'number' | 'body'

/** `[name, kind, explorer type, explorer description]`; an `Array` type is sent as `name[]`. */
export type ParamSpec = readonly [name: string, kind: ParamKind, type: string, description: string]

const page: ParamSpec = ['page', 'number', 'Integer', 'Pagination index']
const applicationId: ParamSpec = ['application_id', 'number', 'Integer', 'Application ID']
const policyId: ParamSpec = ['policy_id', 'number', 'Integer', 'Alerts policy ID']
const policy: ParamSpec = ['policy_id', 'number', 'Integer', 'Policy ID']
const conditionId: ParamSpec = ['condition_id', 'number', 'Integer', 'Alerts condition ID']
const conditionToUpdate: ParamSpec = ['id', 'number', 'Integer', 'Alerts condition ID to update']
const entityType: ParamSpec = ['entity_type', 'text', 'String', 'Entity Type']
const application: ParamSpec = ['id', 'number', 'Integer', 'Application ID']
const dashboard: ParamSpec = ['id', 'number', 'Integer', 'Dashboard ID']
const server: ParamSpec = ['id', 'number', 'Integer', 'Server ID']
const filterName: ParamSpec = ['filter[name]', 'text', 'String', 'Filter by name']
const metricNames: readonly ParamSpec[] = [
  ['name', 'text', 'String', 'Filter metrics by name'],
  ['page', 'number', 'Integer', 'Pagination index (will be deprecated)'],
  ['cursor', 'text', 'String', 'Cursor for next page (replacing page param)'],
]
const metricData: readonly ParamSpec[] = [
  ['names[]', 'list', 'Array', 'Retrieve specific metrics by name'],
  ['values[]', 'list', 'Array', 'Retrieve specific metric values'],
  ['from', 'time', 'Time', 'Retrieve metrics after this time'],
  ['to', 'time', 'Time', 'Retrieve metrics before this time'],
  ['period', 'number', 'Integer', 'Period of timeslices in seconds'],
  ['summarize', 'bool', 'Boolean', 'Summarize the data'],
  ['raw', 'bool', 'Boolean', 'Return unformatted raw values'],
]

/** Parameters by `METHOD path` (path without `.{format}`), in the explorer's order; operations
 * not listed take none. */
// prettier-ignore
export const explorerParams: Readonly<Record<string, readonly ParamSpec[]>> = {
  'GET /v2/alerts_channels': [page],
  'POST /v2/alerts_channels': [['channel', 'body', 'Channel', 'channel schema'], ['policy_ids[]', 'list', 'Array', 'Policy IDs to associate with channel']],
  'DELETE /v2/alerts_channels/{channel_id}': [['channel_id', 'number', 'Integer', 'Channel ID']],
  'POST /v2/alerts_conditions/policies/{policy_id}': [policyId, ['condition', 'body', 'Condition', 'Condition schema']],
  'PUT /v2/alerts_conditions/{id}': [conditionToUpdate, ['condition', 'body', 'Condition', 'Condition schema']],
  'DELETE /v2/alerts_conditions/{condition_id}': [conditionId],
  'GET /v2/alerts_conditions': [policyId, page],
  'GET /v2/alerts_entity_conditions/{entity_id}': [['entity_id', 'number', 'Integer', 'Entity ID'], entityType],
  'PUT /v2/alerts_entity_conditions/{entity_id}': [['entity_id', 'number', 'Integer', 'Entity id to add'], entityType, conditionId],
  'DELETE /v2/alerts_entity_conditions/{entity_id}': [['entity_id', 'number', 'Integer', 'Entity id to remove'], entityType, conditionId],
  'GET /v2/alerts_events': [['filter[product]', 'text', 'String', 'Filter by New Relic product'], ['filter[entity_type]', 'text', 'String', 'Filter by entity type'], ['filter[entity_group_id]', 'number', 'Integer', 'Filter by entity group ID'], ['filter[entity_id]', 'number', 'Integer', 'Filter by entity ID'], ['filter[event_type]', 'text', 'String', 'Filter by event type'], ['filter[incident_id]', 'number', 'Integer', 'Filter by incident id'], page],
  'POST /v2/alerts_external_service_conditions/policies/{policy_id}': [policyId, ['external_service_condition', 'body', 'ExternalServiceCondition', 'Condition schema']],
  'PUT /v2/alerts_external_service_conditions/{id}': [conditionToUpdate, ['external_service_condition', 'body', 'ExternalServiceCondition', 'Condition schema']],
  'DELETE /v2/alerts_external_service_conditions/{condition_id}': [conditionId],
  'GET /v2/alerts_external_service_conditions': [policyId, page],
  'GET /v2/alerts_incidents': [page, ['only_open', 'bool', 'Boolean', 'Filter by open incidents'], ['exclude_violations', 'bool', 'Boolean', 'Leave out the links to violations']], // exclude_violations: newrelic-client-go pkg/alerts incidents
  'POST /v2/alerts_nrql_conditions/policies/{policy_id}': [policyId, ['nrql_condition', 'body', 'NrqlCondition', 'Condition schema']],
  'PUT /v2/alerts_nrql_conditions/{id}': [conditionToUpdate, ['nrql_condition', 'body', 'NrqlCondition', 'Condition schema']],
  'DELETE /v2/alerts_nrql_conditions/{condition_id}': [conditionId],
  'GET /v2/alerts_nrql_conditions': [policyId, page],
  'POST /v2/alerts_plugins_conditions/policies/{policy_id}': [policyId, ['plugins_condition', 'body', 'PluginsCondition', 'Condition schema']],
  'PUT /v2/alerts_plugins_conditions/{id}': [conditionToUpdate, ['plugins_condition', 'body', 'PluginsCondition', 'Condition schema']],
  'DELETE /v2/alerts_plugins_conditions/{condition_id}': [conditionId],
  'GET /v2/alerts_plugins_conditions': [policyId, page],
  'GET /v2/alerts_policies': [['filter[name]', 'text', 'String', 'Name (must be exact match)'], ['filter[exact_match]', 'bool', 'Boolean', 'Match the name exactly'], page], // exact_match: sent by clients, not in the explorer
  'POST /v2/alerts_policies': [['policy', 'body', 'Policy', 'Policy Schema']],
  'PUT /v2/alerts_policies/{id}': [['id', 'number', 'Integer', 'Policy ID'], ['policy', 'body', 'Policy', 'Policy Schema']],
  'DELETE /v2/alerts_policies/{policy_id}': [policy],
  'PUT /v2/alerts_policy_channels': [policy, ['channel_ids', 'text', 'List', 'Channel IDs']],
  'DELETE /v2/alerts_policy_channels': [policy, ['channel_id', 'number', 'Integer', 'Channel ID']],
  'POST /v2/alerts_synthetics_conditions/policies/{policy_id}': [policyId, ['synthetics_condition', 'body', 'SyntheticsCondition', 'Condition schema']],
  'PUT /v2/alerts_synthetics_conditions/{id}': [conditionToUpdate, ['synthetics_condition', 'body', 'SyntheticsCondition', 'Condition schema']],
  'DELETE /v2/alerts_synthetics_conditions/{condition_id}': [conditionId],
  'GET /v2/alerts_synthetics_conditions': [policyId, page],
  'GET /v2/alerts_violations': [page, ['start_date', 'time', 'Time', 'Retrieve violations created after this time'], ['end_date', 'time', 'Time', 'Retrieve violations created before this time'], ['only_open', 'bool', 'Boolean', 'Filter by open violations']],
  'GET /v2/applications/{application_id}/deployments': [applicationId, page],
  'POST /v2/applications/{application_id}/deployments': [applicationId, ['deployment', 'body', 'Deployment', 'Deployment schema']],
  'DELETE /v2/applications/{application_id}/deployments/{id}': [applicationId, ['id', 'number', 'Integer', 'Deployment ID']],
  'GET /v2/applications/{application_id}/hosts': [applicationId, ['filter[hostname]', 'text', 'String', 'Filter by server hostname'], ['filter[ids]', 'text', 'List', 'Filter by application host ids'], page],
  'GET /v2/applications/{application_id}/hosts/{id}': [applicationId, ['id', 'number', 'Integer', 'Application host ID']],
  'GET /v2/applications/{application_id}/hosts/{host_id}/metrics': [applicationId, ['host_id', 'number', 'Integer', 'Application Host ID'], ...metricNames],
  'GET /v2/applications/{application_id}/hosts/{host_id}/metrics/data': [applicationId, ['host_id', 'number', 'Integer', 'Application Host ID'], ...metricData],
  'GET /v2/applications/{application_id}/instances': [applicationId, ['filter[hostname]', 'text', 'String', 'Filter by server hostname'], ['filter[ids]', 'text', 'List', 'Filter by application instance ids'], page],
  'GET /v2/applications/{application_id}/instances/{id}': [applicationId, ['id', 'number', 'Integer', 'Application instance ID']],
  'GET /v2/applications/{application_id}/instances/{instance_id}/metrics': [applicationId, ['instance_id', 'number', 'Integer', 'Application Instance ID'], ...metricNames],
  'GET /v2/applications/{application_id}/instances/{instance_id}/metrics/data': [applicationId, ['instance_id', 'number', 'Integer', 'Application Instance ID'], ...metricData],
  'GET /v2/applications': [['filter[name]', 'text', 'String', 'Filter by application name'], ['filter[host]', 'text', 'String', 'Filter by application host'], ['filter[ids]', 'text', 'List', 'Filter by application ids'], ['filter[language]', 'text', 'String', 'Filter by application language'], ['exclude_links', 'bool', 'Boolean', 'Exclude links section from the response'], page],
  'GET /v2/applications/{id}': [application],
  'PUT /v2/applications/{id}': [application, ['application', 'body', 'Application', 'Application schema']],
  'DELETE /v2/applications/{id}': [application],
  'GET /v2/applications/{application_id}/metrics': [applicationId, ...metricNames],
  'GET /v2/applications/{application_id}/metrics/data': [applicationId, ...metricData],
  'GET /v2/browser_applications': [['filter[name]', 'text', 'String', 'Filter by application name'], ['filter[ids]', 'text', 'List', 'Filter by application ids'], page],
  'POST /v2/browser_applications': [['browser_application', 'body', 'BrowserApplication', 'Browser Application Schema']],
  'GET /v2/components': [['filter[name]', 'text', 'String', 'Filter components by name'], ['filter[ids]', 'text', 'List', 'Filter components by ids'], ['filter[plugin_id]', 'number', 'Integer', 'Filter components by the plugin'], ['health_status', 'bool', 'Boolean', 'Include component health status'], page],
  'GET /v2/components/{id}': [['id', 'number', 'Integer', 'Plugin ID']],
  'GET /v2/components/{component_id}/metrics': [['component_id', 'number', 'Integer', 'Component ID'], ...metricNames],
  'GET /v2/components/{component_id}/metrics/data': [['component_id', 'number', 'Integer', 'Component ID'], ...metricData],
  'GET /v2/dashboards': [['filter[title]', 'text', 'String', 'Contains title'], ['filter[owner_email]', 'text', 'String', 'Contains owner email'], ['filter[category]', 'text', 'String', "Category is one of ('all' | 'favorite' | 'mine')"], ['filter[created_before]', 'time', 'Time', 'Created before given date'], ['filter[created_after]', 'time', 'Time', 'Created after given date'], ['filter[updated_before]', 'time', 'Time', 'Updated before given date'], ['filter[updated_after]', 'time', 'Time', 'Updated after given date'], ['sort', 'text', 'String', "Sort is one of ('name' | 'recently viewed' | 'last edited')"], page, ['per_page', 'number', 'Integer', 'Number of items per page']],
  'GET /v2/dashboards/{id}': [dashboard],
  'POST /v2/dashboards': [['dashboard', 'body', 'Dashboard', 'Dashboard schema']],
  'PUT /v2/dashboards/{id}': [dashboard, ['dashboard', 'body', 'Dashboard', 'Dashboard schema']],
  'DELETE /v2/dashboards/{id}': [dashboard],
  'GET /v2/key_transactions': [['filter[name]', 'text', 'String', 'Filter by name'], ['filter[ids]', 'text', 'List', 'Filter by policy IDs'], page],
  'GET /v2/key_transactions/{id}': [['id', 'number', 'Integer', 'Key transaction ID']],
  'GET /v2/labels': [page],
  'PUT /v2/labels': [['label', 'body', 'Label', 'Label schema']],
  'DELETE /v2/labels/{key}': [['key', 'text', 'String', "Label key. Example: 'Language:Java'"]],
  'GET /v2/mobile_applications': [filterName, ['filter[ids]', 'text', 'List', 'Filter by mobile application IDs'], page], // not in the 2018 explorer; clients send them
  'GET /v2/mobile_applications/{id}': [['id', 'number', 'Integer', 'Mobile Application ID']],
  'GET /v2/mobile_applications/{mobile_application_id}/metrics': [['mobile_application_id', 'number', 'Integer', 'Mobile application ID'], ...metricNames],
  'GET /v2/mobile_applications/{mobile_application_id}/metrics/data': [['mobile_application_id', 'number', 'Integer', 'Mobile application ID'], ['name', 'text', 'String', 'One metric name (an alias of names[] some clients send)'], ...metricData],
  'GET /v2/plugins': [['filter[guid]', 'text', 'String', 'Filter plugin by guid'], ['filter[ids]', 'text', 'List', 'Filter plugin by ids'], page, ['detailed', 'bool', 'Boolean', 'Include all data about a plugin']],
  'GET /v2/plugins/{id}': [['id', 'number', 'Integer', 'Plugin ID'], ['detailed', 'bool', 'Boolean', 'Include all data about a plugin']],
  'GET /v2/servers': [['filter[name]', 'text', 'String', 'Filter by name'], ['filter[host]', 'text', 'String', 'Filter by host'], ['filter[ids]', 'text', 'List', 'Filter by server IDs'], ['filter[labels]', 'text', 'String', 'Filter by server labels (beta)'], ['filter[reported]', 'bool', 'Boolean', 'Filter by reported in last 10 hours'], page],
  'GET /v2/servers/{id}': [server],
  'PUT /v2/servers/{id}': [server, ['server', 'body', 'Server', 'New name of the server']],
  'DELETE /v2/servers/{id}': [server],
  'GET /v2/servers/{server_id}/metrics': [['server_id', 'number', 'Integer', 'Server ID'], ...metricNames],
  'GET /v2/servers/{server_id}/metrics/data': [['server_id', 'number', 'Integer', 'Server ID'], ...metricData],
  'GET /v2/usages/{product}': [['product', 'text', 'String', 'Available: apm, browser, mobile.'], ['start_date', 'text', 'Date', 'Format: YYYY-MM-DD'], ['end_date', 'text', 'Date', 'Format: YYYY-MM-DD'], ['include_subaccounts', 'bool', 'Boolean', 'Include subaccounts usage? (default: false)']],
  'GET /v2/users': [['filter[ids]', 'text', 'List', 'Filter by user IDs'], ['filter[email]', 'text', 'String', 'Filter by user email'], ['page', 'number', 'Integer', '']],
  'GET /v2/users/{id}': [['id', 'number', 'Integer', 'User ID']],
  'POST /v2/users/{id}/reset_password': [['id', 'number', 'Integer', 'User ID']],
}

/** Example bodies of writes, by `METHOD path` (shapes from New Relic's v2 API explorer models). The
 * page shows them as placeholders: a write is never prefilled, so one click sends nothing made up. */
export const explorerBodies: Readonly<Record<string, unknown>> = {
  'POST /v2/applications/{application_id}/deployments': {
    deployment: {
      revision: '1.2.3',
      changelog: 'Fixed the cart',
      description: 'Release',
      user: 'ci',
    },
  },
  'PUT /v2/applications/{id}': {
    application: { name: 'Checkout Service (java)', settings: { app_apdex_threshold: 0.5 } },
  },
  'POST /v2/browser_applications': { browser_application: { name: 'My site' } },
  'POST /v2/mobile_applications': { mobile_application: { name: 'My app' } },
  'PUT /v2/labels': {
    label: { category: 'Team', name: 'Checkout', links: { applications: [], servers: [] } },
  },
  'POST /v2/alerts_policies': { policy: { incident_preference: 'PER_POLICY', name: 'My policy' } },
  'POST /v2/alerts_channels': {
    channel: { name: 'Ops mail', type: 'email', configuration: { recipients: 'ops@example.com' } },
  },
}

const docs = 'https://docs.newrelic.com/docs/'
const v2Docs = `${docs}apis/rest-api-v2/`

/** The v2 documentation of each resource (New Relic docs pages, listed in docs/sources.md); the
 * rest take the REST API v2 introduction. Metric paths take "Extract metric timeslice data". */
export const docsLinks = {
  default: `${v2Docs}get-started/introduction-new-relic-rest-api-v2`,
  metrics: `${v2Docs}basic-functions/extract-metric-timeslice-data`,
  applications: `${v2Docs}get-started/list-application-id-host-id-instance-id`,
  application_hosts: `${v2Docs}application-examples-v2/list-apps-host-ids-instance-ids`,
  application_instances: `${v2Docs}application-examples-v2/list-apps-host-ids-instance-ids`,
  application_deployments: `${docs}apm/apm-ui-pages/events/record-deployments`,
  browser_applications: `${v2Docs}browser-examples-v2/add-or-list-browser-apps-api-v2`,
  mobile_applications: `${v2Docs}mobile-examples-v2/mobile-crash-count-crash-rate-example-v2`,
  users: `${v2Docs}account-examples-v2/listing-users-your-account`,
  labels: `${v2Docs}labels-examples-v2/create-labels-apps-v2`,
  alerts: `${docs}alerts/scale-automate/rest-api/rest-api-calls-alerts`,
} as const

/** The v2 documentation page of an operation. */
export function docsLink(resource: string, path: string): string {
  if (/\/metrics(\/data)?$/.test(path)) return docsLinks.metrics
  if (resource.startsWith('alerts_')) return docsLinks.alerts
  return docsLinks[resource as keyof typeof docsLinks] ?? docsLinks.default
}

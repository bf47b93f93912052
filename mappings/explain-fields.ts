/**
 * @module mappings/explain-fields
 * For each served v2 operation, where each field of its answer comes from in NerdGraph: the entity
 * field, the NRQL column or the rule v2bridge applies. Explain (`X-V2bridge-Explain: 1`) and the
 * migration report show these rows beside the documents a call sends.
 *
 * Serving a new operation? Add its row here, keyed `'METHOD /v2/path'` exactly as in
 * mappings/operations.ts: `test/explain/fields.test.ts` fails for a served operation without one.
 * Field paths use `[]` for "each element"; values say the NerdGraph field (`entity.name`), the NRQL
 * (`FROM Metric … AS 'calls'`) or the rule (`minted from host name`).
 */

type FieldRows = Readonly<Record<string, string>>

/** The application record (src/resources/applications/reshape.ts), shared by the list and show answers. */
const application = {
  id: 'entity.applicationId',
  name: 'entity.name',
  language: "entity.language ('unknown' when absent)",
  health_status:
    'entity.alertSeverity (NOT_ALERTING → green, WARNING → orange, CRITICAL → red; not reporting → gray)',
  reporting: 'entity.reporting',
  last_reported_at:
    "NRQL max(timestamp) FROM Transaction FACET appId over 10 minutes, to the second; else max(timestamp) FROM Metric of the application's members",
  'application_summary.response_time':
    'NRQL sum/count of HttpDispatcher (else OtherTransaction/all) over the last 3 whole minutes × 1000 (s → ms)',
  'application_summary.throughput':
    'NRQL count of HttpDispatcher (else OtherTransaction/all) over the last 3 whole minutes / 3',
  'application_summary.error_rate':
    'NRQL 100 × Errors/all count / HttpDispatcher + OtherTransaction/all count, last 3 whole minutes',
  'application_summary.apdex_target': 'entity.settings.apdexTarget',
  'application_summary.apdex_score':
    'NRQL Apdex (s + t/2) / (s + t + f) over the last 3 whole minutes',
  'application_summary.host_count': 'entity.apmSummary.hostCount',
  'application_summary.instance_count': 'entity.apmSummary.instanceCount',
  end_user_summary: "NRQL FROM Metric WHERE metricTimesliceName IN ('EndUser', 'EndUser/Apdex')",
  'settings.app_apdex_threshold': 'entity.settings.apdexTarget',
  'settings.end_user_apdex_threshold':
    'GET show: the served browser app (relatedEntities SERVES) settings.apdexTarget; else, and in lists, the EndUser/Apdex timeslice threshold (7 when none)',
  'settings.enable_real_user_monitoring': 'entity.apmBrowserSummary is present',
  'settings.use_server_side_config': 'entity.settings.serverSideConfig',
  'links.application_hosts':
    'NRQL uniques(host) FROM Metric of the application; IDs minted from host names',
  'links.application_instances':
    'NRQL uniques(instanceName) FROM Metric; IDs minted from host and instance',
  'links.alert_policy':
    'alerts.nrqlConditionsSearch: policyId of the oldest NRQL condition naming the app (appName, appId, entity.guid)',
} as const satisfies FieldRows

const prefixed = (prefix: string, rows: FieldRows): FieldRows =>
  Object.fromEntries(Object.entries(rows).map(([k, v]) => [`${prefix}.${k}`, v]))

/** Host and instance records (src/resources/applications/hosts/reshape.ts). */
const member = {
  application_name: 'entity.name',
  language: 'entity.language',
  health_status: 'entity.alertSeverity, as for applications',
  application_summary:
    "NRQL FROM Metric per instanceName over the last minutes: AS 'calls', 'time', apdex and errors",
  'links.application': 'entity.applicationId',
} as const satisfies FieldRows

const host = {
  id: 'minted from the host name (src/core/ids.ts)',
  host: 'NRQL uniques(host) FROM Metric WHERE entity.guid = …',
  ...member,
  'links.application_instances': 'instances on that host (NRQL uniques(instanceName))',
} as const satisfies FieldRows

const instance = {
  id: 'minted from host and instanceName (src/core/ids.ts)',
  host: 'NRQL host of the instanceName',
  port: 'the port in instanceName (host:port), else 0',
  ...member,
  'links.application_host': 'ID minted from the host name',
} as const satisfies FieldRows

const metricNames = {
  'metrics[].name':
    "NRQL SELECT uniques(metricTimesliceName) FROM Metric WHERE entity.guid = … (name filter as LIKE '%…%')",
  'metrics[].values': 'the value types of the metric family (mappings/metric-families.ts)',
} as const satisfies FieldRows

const metricData = {
  'metric_data.from': 'the from/to/period window (src/core/time-range.ts), the NRQL SINCE',
  'metric_data.to': 'the NRQL UNTIL',
  'metric_data.metrics_not_found': 'requested names with no FACET row',
  'metric_data.metrics_found': 'FACET metricTimesliceName rows',
  'metric_data.metrics[].name': 'FACET metricTimesliceName',
  'metric_data.metrics[].timeslices[].from':
    'TIMESERIES bucket beginTimeSeconds (one bucket when summarize=true)',
  'metric_data.metrics[].timeslices[].to': 'TIMESERIES bucket endTimeSeconds',
  'metric_data.metrics[].timeslices[].values.<value>':
    'the NRQL of each value type over newrelic.timeslice.value (mappings/value-types.ts; a trailing constant factor such as * 1000 is applied by v2bridge), or a formula of its inputs',
} as const satisfies FieldRows

/** A deployment record (src/resources/deployments/reshape.ts). */
const deployment = {
  id: 'minted from deploymentSearch.results[].deploymentId (a UUID; src/core/ids.ts)',
  revision: 'version',
  changelog: 'changelog (null when absent)',
  description: 'description (null when absent)',
  user: 'user (null when absent)',
  timestamp: 'timestamp (epoch ms → +00:00)',
  'links.application': 'the path application ID',
} as const satisfies FieldRows

/** Key transactions (src/resources/key-transactions/reshape.ts). */
const keyTransaction = {
  id: 'the domain ID of entity.guid (acct|EXT|KEY_TRANSACTION|id)',
  name: 'entity.name',
  transaction_name: 'KeyTransactionEntity.metricName without WebTransaction/<category>/',
  health_status: 'entity.alertSeverity, as for applications',
  reporting: 'entity.reporting',
  last_reported_at:
    "the application's: NRQL max(timestamp) FROM Transaction FACET appId over 10 minutes, to the second; else max(timestamp) FROM Metric of its last hour",
  application_summary:
    "NRQL FROM Metric WHERE entity.guid IN (…) FACET entity.guid over 10 minutes: 'calls', 'duration', 'errors', Apdex s/t/f",
  'application_summary.apdex_target': 'KeyTransactionEntity.apdexTarget',
  end_user_summary:
    "the same NRQL: EndUser and EndUser/Apdex rows ('pageViews', 'pageLoad', 'bs', 'bt', 'bf')",
  'end_user_summary.apdex_target': 'KeyTransactionEntity.browserApdexTarget',
  'links.application': 'KeyTransactionEntity.application.entity.applicationId',
} as const satisfies FieldRows

const user = {
  id: 'UserManagementUser.id',
  first_name: 'UserManagementUser.name before its first space',
  last_name: 'UserManagementUser.name after its first space',
  email: 'UserManagementUser.email',
  role: "groups[].displayName through mappings/user-roles.ts ('user' otherwise)",
} as const satisfies FieldRows

const noServer = {
  error: 'the Servers product is retired: no server exists (actor.user checks the key)',
}

const browserApplication = {
  id: 'the domain ID of entity.guid (acct|BROWSER|APPLICATION|id)',
  name: 'entity.name',
  browser_monitoring_key: 'BrowserApplicationEntity.browserProperties.jsConfig.licenseKey',
  loader_script: 'BrowserApplicationEntity.browserProperties.jsLoaderScript',
} as const satisfies FieldRows

const mobileApplication = {
  id: 'the domain ID of entity.guid (acct|MOBILE|APPLICATION|id)',
  name: 'entity.name',
  health_status: 'entity.alertSeverity, as for applications',
  reporting: 'entity.reporting',
  'mobile_summary.active_users': 'mobileSummary.mobileSessionCount',
  'mobile_summary.launch_count': 'mobileSummary.appLaunchCount',
  'mobile_summary.throughput': 'mobileSummary.httpRequestCount (a count, not a rate)',
  'mobile_summary.response_time': 'mobileSummary.httpResponseTimeAverage',
  'mobile_summary.calls_per_session': 'mobileSummary.httpRequestCount / mobileSessionCount',
  'mobile_summary.failed_call_rate': 'mobileSummary.httpErrorRate',
  'mobile_summary.remote_error_rate': 'mobileSummary.networkFailureRate',
  'crash_summary.crash_count': 'mobileSummary.crashCount',
  'crash_summary.crash_rate': 'mobileSummary.crashRate',
} as const satisfies FieldRows

const label = {
  key: "tag key ':' tag value",
  category: 'tag key',
  name: 'tag value',
  application_health_status: 'alertSeverity of each tagged application (mappings/labels.ts)',
  'links.applications': 'applicationId of each APM application carrying the tag',
} as const satisfies FieldRows

/** Rows keyed by the operation's method and path (mappings/operations.ts). */
/** v2 alerts records (src/resources/alerts/reshape.ts, channels.ts): the field comments there say more. */
const incident = {
  id: 'minted from issue.issueId',
  opened_at: 'issue.createdAt',
  closed_at: 'issue.closedAt',
  incident_preference: 'policy.incidentPreference',
  links: 'issue.incidentIds, policyIds',
} as const satisfies FieldRows

const violation = {
  id: 'incident.incidentId',
  label: 'incident.title',
  duration: 'incident.closedAt − createdAt',
  'policy_name, condition_name': 'the holding issue',
  priority: 'incident.priority',
  'opened_at, closed_at': 'incident.createdAt, closedAt',
  entity: 'incident.entityGuids, entityNames',
  links: 'incident.policyIds, conditionFamilyId',
} as const satisfies FieldRows

const recentEvent = {
  event_type: 'incident.createdAt, closedAt',
  '*': 'as violations',
} as const satisfies FieldRows

const channel = {
  '*': 'channel.id, name, type, config',
  'links.policy_ids': 'channel.associatedPolicies',
} as const satisfies FieldRows

export const explainFields: Readonly<Record<string, FieldRows>> = {
  'PUT /v2/applications/{id}': {
    ...prefixed('application', application),
    'settings (sent)':
      'name → alias, app_apdex_threshold → apmConfig.apdexTarget, end_user_apdex_threshold → browserConfig.apdexTarget (agentApplicationSettingsUpdate)',
  },
  'DELETE /v2/applications/{id}': {
    ...prefixed('application', application),
    'error.title': '409 when agentApplicationDelete refuses an application that is still reporting',
  },
  'GET /v2/applications': prefixed('applications[]', application),
  'GET /v2/applications/{id}': prefixed('application', application),
  'GET /v2/applications/{application_id}/metrics': metricNames,
  'GET /v2/applications/{application_id}/metrics/data': metricData,
  'GET /v2/applications/{application_id}/hosts': prefixed('application_hosts[]', host),
  'GET /v2/applications/{application_id}/hosts/{id}': prefixed('application_host', host),
  'GET /v2/applications/{application_id}/hosts/{host_id}/metrics': metricNames,
  'GET /v2/applications/{application_id}/hosts/{host_id}/metrics/data': metricData,
  'GET /v2/applications/{application_id}/instances': prefixed('application_instances[]', instance),
  'GET /v2/applications/{application_id}/instances/{id}': prefixed(
    'application_instance',
    instance
  ),
  'GET /v2/applications/{application_id}/instances/{instance_id}/metrics': metricNames,
  'GET /v2/applications/{application_id}/instances/{instance_id}/metrics/data': metricData,
  'GET /v2/applications/{application_id}/deployments': prefixed('deployments[]', deployment),
  'POST /v2/applications/{application_id}/deployments': prefixed('deployment', {
    ...deployment,
    id: 'minted from changeTrackingCreateDeployment.deploymentId (src/core/ids.ts)',
  }),
  'POST /deployments': {
    'deployment.account-id': 'entity accountId (pinned or from entity search)',
    'deployment.agent-id': "the application ID (by ID, or entity search name = '…')",
    'deployment.id': 'minted from changeTrackingCreateDeployment.deploymentId (src/core/ids.ts)',
    'deployment.revision': "version ('Unknown' when v0 sent none)",
    'deployment.timestamp': 'timestamp (epoch ms → +00:00)',
    'deployment.avg-*': 'nil: NerdGraph has no per-deployment averages',
  },
  'DELETE /v2/applications/{application_id}/deployments/{id}': {
    'error.title':
      '404 when no listed deployment has the minted ID; else 409: NerdGraph has no deployment delete',
  },
  'GET /v2/key_transactions': prefixed('key_transactions[]', keyTransaction),
  'GET /v2/key_transactions/{id}': prefixed('key_transaction', keyTransaction),
  'GET /v2/users': prefixed('users[]', user),
  'GET /v2/users/{id}': prefixed('user', user),
  'GET /v2/servers': { servers: 'always empty: the Servers product is retired' },
  'GET /v2/servers/{id}': noServer,
  'PUT /v2/servers/{id}': noServer,
  'DELETE /v2/servers/{id}': noServer,
  'GET /v2/servers/{server_id}/metrics': noServer,
  'GET /v2/servers/{server_id}/metrics/data': noServer,
  'GET /v2/browser_applications': prefixed('browser_applications[]', browserApplication),
  'POST /v2/browser_applications': {
    ...prefixed('browser_application', browserApplication),
    'browser_application.loader_script':
      'agentApplicationCreateBrowser.settings.loaderScript (Lite)',
    'browser_application.browser_monitoring_key': 'the licenseKey in that loader script',
  },
  'GET /v2/mobile_applications': prefixed('applications[]', mobileApplication),
  'GET /v2/mobile_applications/{id}': prefixed('application', mobileApplication),
  'GET /v2/mobile_applications/{mobile_application_id}/metrics': metricNames,
  'GET /v2/mobile_applications/{mobile_application_id}/metrics/data': metricData,
  'POST /v2/mobile_applications': {
    'application.id': 'the domain ID of agentApplicationCreateMobile.guid',
    'application.name': 'agentApplicationCreateMobile.name',
    'application.application_token': 'agentApplicationCreateMobile.applicationToken',
  },
  'GET /v2/labels': prefixed('labels[]', label),
  'PUT /v2/labels': prefixed('label', label),
  'DELETE /v2/labels/{key}': prefixed('label', label),
  'GET /v2/alerts_events': prefixed('recent_events[]', recentEvent),
  'GET /v2/alerts_incidents': prefixed('incidents[]', incident),
  'PUT /v2/alerts_incidents/{id}/acknowledge': prefixed('incident', incident),
  'PUT /v2/alerts_incidents/{id}/close': prefixed('incident', incident),
  'GET /v2/alerts_violations': prefixed('violations[]', violation),
  'GET /v2/alerts_channels': prefixed('channels[]', channel),
  'POST /v2/alerts_channels': prefixed('channels[]', channel),
  'DELETE /v2/alerts_channels/{channel_id}': prefixed('channel', channel),
  'PUT /v2/alerts_policy_channels': { policy: 'policy_id, notificationChannels[].id' },
  'DELETE /v2/alerts_policy_channels': prefixed('channel', channel),
}

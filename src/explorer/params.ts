/**
 * @module explorer/params
 * The parameters the explorer page offers for each v2 path, as New Relic's v2 API explorer listed
 * them (definitions of 2018, public copy: burck1/go-newrelic branch `swagger`) plus the spellings
 * real clients send (`filter[exact_match]` on policies). Path parameters come from the path itself.
 */

export type ParamKind = 'text' | 'list' | 'time' | 'bool' | 'number'

/** `[name, kind]`: the form shows a field of that kind. */
export type ParamSpec = readonly [name: string, kind: ParamKind]

const page: ParamSpec = ['page', 'number']
const ids: ParamSpec = ['filter[ids]', 'text']
const name: ParamSpec = ['filter[name]', 'text']
const metricNames: readonly ParamSpec[] = [['name', 'text'], page]
const metricData: readonly ParamSpec[] = [
  ['names[]', 'list'],
  ['values[]', 'list'],
  ['from', 'time'],
  ['to', 'time'],
  ['period', 'number'],
  ['summarize', 'bool'],
  ['raw', 'bool'],
]
const hostFilters: readonly ParamSpec[] = [['filter[hostname]', 'text'], ids, page]
const byPolicy: readonly ParamSpec[] = [['policy_id', 'number'], page]

/** Query parameters by path (without `.{format}`); paths not listed take none. */
export const explorerParams: Readonly<Record<string, readonly ParamSpec[]>> = {
  '/v2/applications': [name, ['filter[host]', 'text'], ids, ['filter[language]', 'text'], page],
  '/v2/applications/{application_id}/metrics': metricNames,
  '/v2/applications/{application_id}/metrics/data': metricData,
  '/v2/applications/{application_id}/hosts': hostFilters,
  '/v2/applications/{application_id}/hosts/{host_id}/metrics': metricNames,
  '/v2/applications/{application_id}/hosts/{host_id}/metrics/data': metricData,
  '/v2/applications/{application_id}/instances': hostFilters,
  '/v2/applications/{application_id}/instances/{instance_id}/metrics': metricNames,
  '/v2/applications/{application_id}/instances/{instance_id}/metrics/data': metricData,
  '/v2/applications/{application_id}/deployments': [page],
  '/v2/key_transactions': [name, ids, page],
  '/v2/browser_applications': [name, ids, page],
  '/v2/mobile_applications': [name, ids, page],
  '/v2/mobile_applications/{mobile_application_id}/metrics': metricNames,
  '/v2/mobile_applications/{mobile_application_id}/metrics/data': [['name', 'text'], ...metricData],
  '/v2/users': [['filter[email]', 'text'], ids, page],
  '/v2/servers': [name, ['filter[host]', 'text'], ids, page],
  '/v2/labels': [page],
  '/v2/alerts_events': [
    ['filter[product]', 'text'],
    ['filter[entity_type]', 'text'],
    ['filter[entity_group_id]', 'number'],
    ['filter[entity_id]', 'number'],
    ['filter[event_type]', 'text'],
    ['filter[incident_id]', 'number'],
    page,
  ],
  '/v2/alerts_incidents': [['only_open', 'bool'], ['exclude_violations', 'bool'], page],
  '/v2/alerts_violations': [
    ['start_date', 'time'],
    ['end_date', 'time'],
    ['only_open', 'bool'],
    page,
  ],
  '/v2/alerts_channels': [page],
  '/v2/alerts_policies': [name, ['filter[exact_match]', 'bool'], page],
  '/v2/alerts_conditions': byPolicy,
  '/v2/alerts_nrql_conditions': byPolicy,
  '/v2/alerts_external_service_conditions': byPolicy,
  '/v2/alerts_synthetics_conditions': byPolicy,
  '/v2/alerts_entity_conditions/{entity_id}': [['entity_type', 'text']],
  '/v2/alerts_policy_channels': [
    ['policy_id', 'number'],
    ['channel_ids', 'text'],
    ['channel_id', 'number'],
  ],
}

/** Example bodies of writes, by `METHOD path` (shapes from New Relic's v2 API explorer models). */
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

/**
 * @module mappings/link-templates
 * Top-level `links` template maps, verbatim from real responses including the `/v2/application/`
 * typo and the missing suffix (fixtures of mrf/newrelic_exporter `_testing/*.json` and
 * ambitioninc/newrelic-api `newrelic_api/tests/*`).
 */
export const applicationLinkTemplates = {
  'application.servers': '/v2/servers?ids={server_ids}',
  'application.server': '/v2/servers/{server_id}',
  'application.application_hosts': '/v2/application/{application_id}/hosts?ids={host_ids}',
  'application.application_host': '/v2/application/{application_id}/hosts/{host_id}',
  'application.application_instances':
    '/v2/application/{application_id}/instances?ids={instance_ids}',
  'application.application_instance': '/v2/application/{application_id}/instances/{instance_id}',
  'application.alert_policy': '/v2/alert_policies/{alert_policy_id}',
} as const

export const applicationHostLinkTemplates = {
  'application_host.application': '/v2/applications/{application_id}',
  'application_host.application_instances':
    '/v2/application/{application_id}/instances?ids={instance_ids}',
  'application_host.application_instance':
    '/v2/application/{application_id}/instances/{instance_id}',
  'application_host.server': '/v2/servers/{server_id}',
} as const

export const applicationInstanceLinkTemplates = {
  'application_instance.application': '/v2/applications/{application_id}',
  'application_instance.application_host': '/v2/application/{application_id}/hosts/{instance_id}', // sic, AMB
  'application_instance.server': '/v2/servers/{server_id}',
} as const

/** New Relic docs "Record and view deployments" (D-deploy), verbatim. */
export const deploymentLinkTemplates = {
  'deployment.agent': '/v2/applications/{application_id}',
} as const

/**
 * @module mappings/alerts
 * NerdGraph alerts values → v2 alerts values (v2 explorer alerts models, newrelic-client-go
 * pkg/alerts fixtures; New Relic docs
 * "Migrate from REST API v2 to NerdGraph": incidents and violations → aiIssues, channels → notification
 * channels). Each row says where the fact comes from.
 */

/** AiIssuesPriority → v2 violation `priority` (capitalised: nr1-command-center reads "Critical" /
 * "Warning"). NerdGraph writes a v2 "warning" threshold as HIGH (New Relic docs "Alert condition
 * thresholds"); MEDIUM and LOW have no v2 counterpart and read as Warning [INFERRED]. */
export const violationPriority = {
  CRITICAL: 'Critical',
  HIGH: 'Warning',
  MEDIUM: 'Warning',
  LOW: 'Warning',
} as const satisfies Record<string, string>

/** Event `priority` is lower case in the swagger example (`"critical"`) [UNCONFIRMED casing]. */
export const eventPriority = {
  CRITICAL: 'critical',
  HIGH: 'warning',
  MEDIUM: 'warning',
  LOW: 'warning',
} as const satisfies Record<string, string>

/** Entity GUID `domain|type` → v2 `product` (violations; events upper-case it) and `entity_type`
 * (swagger alerts_events: "Application, Server, KeyTransaction, MobileApplication,
 * BrowserApplication, Monitor"; violations' "Apm" casing is [UNCONFIRMED], no recorded answer shows it). */
export const alertEntities = {
  'APM|APPLICATION': { product: 'Apm', type: 'Application' },
  'APM|KEY_TRANSACTION': { product: 'Apm', type: 'KeyTransaction' },
  'BROWSER|APPLICATION': { product: 'Browser', type: 'BrowserApplication' },
  'MOBILE|APPLICATION': { product: 'Mobile', type: 'MobileApplication' },
  'SYNTH|MONITOR': { product: 'Synthetics', type: 'Monitor' },
  'INFRA|HOST': { product: 'Infrastructure', type: 'Server' },
} as const satisfies Record<string, { product: string; type: string }>

/** AlertsNotificationChannelType → v2 channel `type` (client-go pkg/alerts/channels.go ChannelTypes;
 * hipchat and campfire from the swagger text). XMATTERS has no v2 name: its lower case [INFERRED]. */
export const channelTypes = {
  EMAIL: 'email',
  OPSGENIE: 'opsgenie',
  PAGERDUTY: 'pagerduty',
  SLACK: 'slack',
  USER: 'user',
  VICTOROPS: 'victorops',
  WEBHOOK: 'webhook',
  HIP_CHAT: 'hipchat',
  CAMPFIRE: 'campfire',
  XMATTERS: 'xmatters',
} as const satisfies Record<string, string>

/** v2 channel `type` → the key of NerdGraph's AlertsNotificationChannelCreateConfiguration. `user`,
 * `hipchat` and `campfire` have none: v2bridge answers 422 `Invalid channel type` (client-go
 * channels_test.go shows that title for an invalid type). */
export const channelCreateInputs = {
  email: 'email',
  opsgenie: 'opsGenie',
  pagerduty: 'pagerDuty',
  slack: 'slack',
  victorops: 'victorOps',
  webhook: 'webhook',
  xmatters: 'xMatters',
} as const satisfies Record<string, string>

/** v2 webhook `payload_type` ↔ AlertsWebhookCustomPayloadType (New Relic docs "REST API calls for
 * alerts", webhook channel: `application/json` or `application/x-www-form-urlencoded`). */
export const webhookPayloadTypes = {
  JSON: 'application/json',
  FORM: 'application/x-www-form-urlencoded',
} as const satisfies Record<string, string>

/** v2 `incident_preference` when a policy is not on the page fetched beside the issues: New Relic's
 * default for a new policy (New Relic docs "Alert policies: incident preference") [INFERRED]. */
export const defaultIncidentPreference = 'PER_POLICY'

/** Open AiIssuesIssueState values (v2 `only_open=true`): CREATED before activation, ACTIVATED after. */
export const openIssueStates = ['CREATED', 'ACTIVATED'] as const

/**
 * @module mappings/labels
 * v2 labels became entity tags (New Relic docs "Labels and rollups": REST labels end of life 31 March
 * 2020; label `Category:Name` = tag key `Category`, value `Name`). Tags New Relic sets itself are
 * not labels and are never listed, created or deleted as labels.
 */
export const systemTagKeys = [
  'account', // set by New Relic on every entity
  'accountId',
  'trustedAccountId',
  'guid',
  'language', // APM agent language
  'agentName',
  'agentVersion',
] as const

/** Health bucket of an application in a label (`application_health_status`): v2 had four. */
export const labelHealthBucket = {
  CRITICAL: 'red',
  WARNING: 'orange',
  NOT_ALERTING: 'green',
  NOT_CONFIGURED: 'gray', // no alert policy: v2 showed no colour [INFERRED]
} as const

export const notReportingBucket = 'gray'

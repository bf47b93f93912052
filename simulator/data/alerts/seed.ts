/** @module simulator/data/alerts/seed — the seed of the alerts dataset: policies, NRQL conditions, channels, issues. */
import { apmGuid } from '../apm/applications'
import { PRODUCTION, STAGING } from '../catalog'
import { hashString, unit } from '../prng'

export type IncidentPreference = 'PER_CONDITION' | 'PER_CONDITION_AND_TARGET' | 'PER_POLICY'
export type Priority = 'CRITICAL' | 'HIGH' | 'LOW' | 'MEDIUM'

export interface SimPolicy {
  id: number
  accountId: number
  name: string
  incidentPreference: IncidentPreference
  createdAt: number
  updatedAt: number
}

export interface SimNrqlCondition {
  id: number
  accountId: number
  policyId: number
  name: string
  enabled: boolean
  query: string
  operator: 'ABOVE' | 'BELOW' | 'EQUALS'
  threshold: number
  /** Seconds. */
  thresholdDuration: number
  priority: Priority
  runbookUrl: string | null
  createdAt: number
  /** The applications the condition targets: those its query names in its WHERE clause
   * (`appName = '…'`); none for a condition over the whole account. */
  appIds: number[]
}

export interface SimChannel {
  id: number
  accountId: number
  name: string
  /** AlertsNotificationChannelType. */
  type: string
  /** The `config` object of the channel's NerdGraph type. */
  config: Record<string, unknown>
  policyIds: number[]
}

export interface SimIncident {
  incidentId: string
  accountId: number
  issueId: string
  policyId: number
  conditionId: number
  title: string
  priority: Priority
  entityGuid: string
  entityName: string
  createdAt: number
  closedAt: number | null
}

export interface SimIssue {
  issueId: string
  accountId: number
  policyId: number
  conditionId: number
  priority: Priority
  createdAt: number
  closedAt: number | null
  acknowledgedAt: number | null
  acknowledgedBy: string | null
  closedBy: string | null
  incidentIds: string[]
}

const HOUR = 3_600_000

/** Policies: id, account, name, incident preference. */
const policies: [number, number, string, IncidentPreference][] = [
  [5101101, PRODUCTION.id, 'Production apps', 'PER_CONDITION_AND_TARGET'],
  [5101102, PRODUCTION.id, 'Checkout SLOs', 'PER_CONDITION'],
  [5101103, PRODUCTION.id, 'Billing Portal', 'PER_POLICY'],
  [5201101, STAGING.id, 'Staging smoke', 'PER_POLICY'],
]

/** The applications each NRQL condition's query names (`appName = '…'`), by condition ID. */
const targets: Record<number, number[]> = { 7101201: [9045822], 7101301: [9045893] }

/** NRQL conditions: id, policy, name, query, threshold, minutes, priority. */
const conditions: [number, number, string, string, number, number, Priority][] = [
  [
    7101101,
    5101101,
    'High error rate',
    'SELECT percentage(count(*), WHERE error IS true) FROM Transaction',
    5,
    5,
    'CRITICAL',
  ],
  [
    7101102,
    5101101,
    'Slow web transactions',
    'SELECT average(duration) FROM Transaction',
    1.5,
    10,
    'HIGH',
  ],
  [
    7101201,
    5101102,
    'Checkout Apdex',
    "SELECT apdex(duration, t: 0.5) FROM Transaction WHERE appName = 'Checkout Service (java)'",
    0.85,
    5,
    'CRITICAL',
  ],
  [
    7101301,
    5101103,
    'Billing queue time',
    "SELECT average(queueDuration) FROM Transaction WHERE appName = 'Billing Portal (dotnet)'",
    0.2,
    15,
    'HIGH',
  ],
  [7201101, 5201101, 'Staging errors', 'SELECT count(*) FROM TransactionError', 50, 5, 'HIGH'],
]

/** Issues: app id, condition id, hours ago opened, hours open (null = still open), incidents. */
const history: [number, number, number, number | null, number][] = [
  [9045822, 7101101, 3, null, 2],
  [9045822, 7101201, 5, null, 1],
  [9045837, 7101102, 7, null, 1],
  [9045893, 7101301, 2, null, 1],
  [9045866, 7101101, 26, 1, 1],
  [9045851, 7101102, 50, 2, 2],
  [9045822, 7101201, 75, 0.5, 1],
  [9702201, 7201101, 30, 3, 1],
]

/** Issues older than the newest 30 days (same columns): one still open after 45 days, and closed
 * ones 40 and 75 days old, so lists that page back in time windows have something to find. */
const older: typeof history = [
  [9045837, 7101201, 45 * 24, null, 1],
  [9045866, 7101102, 40 * 24, 4, 2],
  [9045851, 7101301, 75 * 24, 1, 1],
]

/** A deterministic RFC 4122-shaped UUID (the shape of AiIssuesIssue.issueId). */
function uuid(seed: string): string {
  const hex = [0, 1, 2, 3]
    .map((i) => hashString(`${seed}/${i}`).toString(16).padStart(8, '0'))
    .join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

export interface AlertsSeed {
  policies: SimPolicy[]
  conditions: SimNrqlCondition[]
  channels: SimChannel[]
  issues: SimIssue[]
  incidents: SimIncident[]
}

/** The alerts dataset as of `anchor` (epoch ms); generated closed issues fill the last 20 days. */
export function alertsSeed(seed: number, anchor: number, appName: (id: number) => string) {
  const created = anchor - 90 * 24 * HOUR
  const out: AlertsSeed = {
    policies: policies.map(([id, accountId, name, incidentPreference]) => ({
      ...{ id, accountId, name, incidentPreference },
      ...{ createdAt: created + id, updatedAt: created + id + HOUR },
    })),
    conditions: conditions.map(([id, policyId, name, query, threshold, minutes, priority]) => ({
      ...{ id, policyId, name, query, threshold, priority, enabled: true, operator: 'ABOVE' },
      ...{ accountId: policyId > 5200000 ? STAGING.id : PRODUCTION.id, runbookUrl: null },
      ...{ thresholdDuration: minutes * 60, createdAt: created + id, appIds: targets[id] ?? [] },
    })),
    channels: [
      [
        2932511,
        'ops@example.com',
        'EMAIL',
        { emails: ['ops@example.com'], includeJson: true },
        [5101101],
      ],
      [
        2932512,
        '#checkout-alerts',
        'SLACK',
        { url: 'https://hooks.slack.com/services/T0/B0/redacted', teamChannel: '#checkout-alerts' },
        [5101102],
      ],
      [
        2932513,
        'Incident webhook',
        'WEBHOOK',
        {
          baseUrl: 'https://hooks.example.com/newrelic',
          customPayloadType: 'JSON',
          customPayloadBody: null,
          customHttpHeaders: null,
          basicAuth: null,
        },
        [5101101, 5101103],
      ],
      [2932514, 'Primary on-call', 'PAGERDUTY', { apiKey: 'redacted' }, [5101102]],
      [2803426, 'Dana Ops', 'USER', { userId: '2680539' }, []],
      [
        2932601,
        'staging@example.com',
        'EMAIL',
        { emails: ['staging@example.com'], includeJson: false },
        [5201101],
      ],
    ].map(([id, name, type, config, policyIds]) => ({
      ...{ id, name, type, config, policyIds },
      accountId: (id as number) === 2932601 ? STAGING.id : PRODUCTION.id,
    })) as SimChannel[],
    issues: [],
    incidents: [],
  }
  const generated: typeof history = []
  for (let n = 0; n < 40; n++) {
    const r = unit(hashString(`issue/${seed}/${n}`))
    const app = [9045822, 9045837, 9045851, 9045866, 9045893][n % 5]!
    const condition = [7101101, 7101102, 7101201, 7101301][Math.floor(r * 4)]!
    generated.push([app, condition, 80 + n * 11 + Math.floor(r * 6), 0.25 + r * 4, 1 + (n % 3)])
  }
  let next = 31_000_001
  for (const [appId, conditionId, hoursAgo, hoursOpen, count] of [
    ...history,
    ...generated,
    ...older,
  ]) {
    const condition = out.conditions.find((c) => c.id === conditionId)!
    const issueId = uuid(`${seed}/${appId}/${conditionId}/${hoursAgo}`)
    const createdAt = anchor - hoursAgo * HOUR
    const closedAt = hoursOpen === null ? null : Math.round(createdAt + hoursOpen * HOUR)
    const incidentIds: string[] = []
    for (let i = 0; i < count; i++) {
      const incidentId = String((next += 7))
      incidentIds.push(incidentId)
      out.incidents.push({
        ...{
          incidentId,
          issueId,
          conditionId,
          closedAt,
          title: `${condition.name} on '${appName(appId)}'`,
        },
        ...{
          accountId: condition.accountId,
          policyId: condition.policyId,
          priority: condition.priority,
        },
        ...{ entityGuid: apmGuid(condition.accountId, appId), entityName: appName(appId) },
        createdAt: createdAt + i * 60_000,
      })
    }
    out.issues.push({
      ...{ issueId, conditionId, createdAt, closedAt, incidentIds, acknowledgedAt: null },
      ...{
        accountId: condition.accountId,
        policyId: condition.policyId,
        priority: condition.priority,
      },
      ...{ acknowledgedBy: null, closedBy: closedAt === null ? null : 'system' },
    })
  }
  return out
}

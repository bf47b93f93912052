/**
 * @module resources/alerts/reshape
 * NerdGraph issues and incidents → v2 incidents, violations and events (pure). Each v2 field says
 * where it comes from; times stay epoch ms as v2 wrote them (v2 explorer alerts models; GO pkg/alerts
 * fixtures; opsmatters/newrelic-api reads them as `Long`).
 */
import {
  alertEntities,
  defaultIncidentPreference,
  eventPriority,
  violationPriority,
} from '../../../mappings/alerts'
import { decodeGuid } from '../../core/identity'
import { eventId, incidentId, numericId } from './ids'

export interface NgIssue {
  issueId: string
  createdAt: number
  closedAt: number | null
  acknowledgedAt?: number | null
  state: string
  priority: string
  title: string[]
  incidentIds: string[] | null
  policyIds: number[] | null
  policyName: string[] | null
  conditionFamilyId: number[] | null
  conditionName: string[] | null
  entityGuids: string[] | null
  entityNames: string[] | null
}

export interface NgIncident {
  incidentId: string
  title: string
  priority: string
  createdAt: number
  closedAt: number | null
  entityGuids: string | null
  entityNames: string | null
  conditionFamilyId?: string | null
  policyIds?: string | null
}

/**
 * v2 incident ← AI issue: `id` minted from `issueId` (v2 IDs are integers, issue IDs UUIDs);
 * `opened_at` ← `createdAt`; `closed_at` ← `closedAt`, absent while open (client-go omitempty);
 * `incident_preference` ← the issue's policy (AlertsPolicy.incidentPreference; NerdGraph issues do
 * not carry it); `links.violations` ← `incidentIds` (the v2 violation IDs, numeric in NerdGraph too),
 * dropped with `exclude_violations`; `links.policy_id` ← `policyIds[0]`.
 */
export function toV2Incident(
  issue: NgIssue,
  preferences: ReadonlyMap<number, string>,
  excludeViolations = false
) {
  const policyId = issue.policyIds?.[0] ?? null
  const links: Record<string, unknown> = {}
  if (!excludeViolations)
    links['violations'] = (issue.incidentIds ?? []).flatMap((id) => numericId(id) ?? [])
  if (policyId !== null) links['policy_id'] = policyId
  return {
    id: incidentId(issue.issueId),
    opened_at: issue.createdAt,
    ...(issue.closedAt != null ? { closed_at: issue.closedAt } : {}),
    incident_preference:
      (policyId !== null ? preferences.get(policyId) : undefined) ?? defaultIncidentPreference,
    links,
  }
}

/** v2 `entity` ← the incident's GUID (domain and type decide `product`/`type`, mappings/alerts.ts;
 * `id` and `group_id` ← the GUID's domain ID, as v2's group ID equals the entity ID for all but
 * plugins, swagger alerts_events) and `entityNames`. */
export function entityOf(guid: string | null, name: string | null) {
  const decoded = guid ? decodeGuid(guid) : undefined
  const known = decoded
    ? (alertEntities as Record<string, { product: string; type: string }>)[
        `${decoded.domain}|${decoded.type}`
      ]
    : undefined
  const id = numericId(decoded?.domainId) ?? 0
  return {
    product: known?.product ?? titleCase(decoded?.domain ?? ''),
    type: known?.type ?? titleCase(decoded?.type ?? ''),
    group_id: id,
    id,
    name: name ?? '',
  }
}

const titleCase = (s: string) => s.charAt(0) + s.slice(1).toLowerCase()

/**
 * v2 violation ← AI incident (New Relic docs "Migrate from REST API v2 to NerdGraph": violations →
 * aiIssues.incidents): `id` ← `incidentId`; `label` ← `title`; `duration` ← seconds from `createdAt`
 * to `closedAt` (or to now while open, as v2 counted it); `policy_name`/`condition_name` ← the issue
 * that holds the incident (incidents carry only IDs); `priority` capitalised (mappings/alerts.ts);
 * `opened_at`/`closed_at` ← `createdAt`/`closedAt`; `links.policy_id`/`condition_id` ← the incident's
 * `policyIds`/`conditionFamilyId`, `links.incident_id` ← the issue's v2 ID.
 */
export function toV2Violation(incident: NgIncident, issue: NgIssue | undefined, now: number) {
  const end = incident.closedAt ?? now
  const policyId = numericId(incident.policyIds) ?? issue?.policyIds?.[0] ?? null
  const conditionId = numericId(incident.conditionFamilyId) ?? issue?.conditionFamilyId?.[0] ?? null
  return {
    id: numericId(incident.incidentId) ?? 0,
    label: incident.title,
    duration: Math.max(0, Math.floor((end - incident.createdAt) / 1000)),
    policy_name: issue?.policyName?.[0] ?? '',
    condition_name: issue?.conditionName?.[0] ?? '',
    priority:
      (violationPriority as Record<string, string>)[incident.priority] ?? violationPriority.HIGH,
    opened_at: incident.createdAt,
    ...(incident.closedAt != null ? { closed_at: incident.closedAt } : {}),
    entity: entityOf(incident.entityGuids, incident.entityNames),
    links: {
      ...(policyId !== null ? { policy_id: policyId } : {}),
      ...(conditionId !== null ? { condition_id: conditionId } : {}),
      ...(issue ? { incident_id: incidentId(issue.issueId) } : {}),
    },
  }
}

/** The name of the incident's own policy or condition in the issue's parallel lists (`ids[i]` is
 * named `names[i]`), else the first. */
function nameIn(names: string[] | null, ids: (number | string)[] | null, id: unknown) {
  const at = ids?.findIndex((x) => String(x) === String(id ?? '')) ?? -1
  return names?.[at >= 0 ? at : 0]
}

/**
 * v2 recent events ← AI incidents and the issues holding them: NerdGraph has no alerts events
 * query (the migration guide's events section is empty), so v2bridge emits the events they imply:
 * VIOLATION_OPEN at the incident's `createdAt`, VIOLATION_CLOSE at its `closedAt` (the explorer's
 * alerts_events event types), and, with the issue's first incident (once per issue),
 * INCIDENT_OPEN at the issue's `createdAt` (client-go pkg/alerts records an `INCIDENT_OPEN`
 * event; no record shows an incident's close as an event, so none is made up). `id` is minted
 * from (incident or issue, event type); `product` is the upper-case v2 product; `description` ←
 * "<policy> (<entity> violated <condition>)", the form of client-go's recorded event ("Some Alert
 * Policy (Your Application Name violated Goroutines min count)"), else the incident's title.
 */
export function toV2Events(incident: NgIncident, issue: NgIssue | undefined) {
  const entity = entityOf(incident.entityGuids, incident.entityNames)
  const policy = issue && nameIn(issue.policyName, issue.policyIds, incident.policyIds)
  const condition =
    issue && nameIn(issue.conditionName, issue.conditionFamilyId, incident.conditionFamilyId)
  const description =
    policy && condition && incident.entityNames
      ? `${policy} (${incident.entityNames} violated ${condition})`
      : incident.title
  const opensIssue = issue !== undefined && issue.incidentIds?.[0] === incident.incidentId
  const at: [string, string, number | null | undefined][] = [
    ['VIOLATION_OPEN', incident.incidentId, incident.createdAt],
    ['VIOLATION_CLOSE', incident.incidentId, incident.closedAt],
  ]
  if (opensIssue) at.push(['INCIDENT_OPEN', `issue/${issue.issueId}`, issue.createdAt])
  return at.flatMap(([eventType, source, timestamp]) => {
    if (timestamp == null) return []
    return [
      {
        id: eventId(source, eventType),
        event_type: eventType,
        product: entity.product.toUpperCase(),
        entity_type: entity.type,
        entity_group_id: entity.group_id,
        entity_id: entity.id,
        priority: (eventPriority as Record<string, string>)[incident.priority] ?? 'warning',
        description,
        timestamp,
        ...(issue ? { incident_id: incidentId(issue.issueId) } : {}),
      },
    ]
  })
}

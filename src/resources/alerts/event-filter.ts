/**
 * @module resources/alerts/event-filter
 * `GET /v2/alerts_events` filters (swagger alerts_events: `filter[product|entity_type|entity_group_id|
 * entity_id|event_type|incident_id]`), as a predicate over v2 events. Product and entity type match
 * without regard to case (the swagger lists `APM` but `Application`); `event_type=VIOLATION` matches
 * both violation events [INFERRED].
 */
import type { V2Params } from '../../http/params'

interface V2Event {
  event_type: string
  product: string
  entity_type: string
  entity_group_id: number
  entity_id: number
  incident_id?: number
}

/** The filters as a predicate; `entityOnly` keeps to the entity's (product, type, IDs), which an
 * incident's events share before its issue is known. */
export function eventFilter(p: V2Params, { entityOnly = false } = {}): (e: V2Event) => boolean {
  const given = (name: string) => {
    const v = p.get(`filter[${name}]`)?.trim()
    return v ? v : undefined
  }
  const product = given('product')?.toUpperCase()
  const entityType = given('entity_type')?.toLowerCase()
  const groupId = given('entity_group_id')
  const entityId = given('entity_id')
  const eventType = entityOnly ? undefined : given('event_type')?.toUpperCase()
  const incident = entityOnly ? undefined : given('incident_id')
  return (e) =>
    (product === undefined || e.product === product) &&
    (entityType === undefined || e.entity_type.toLowerCase() === entityType) &&
    (groupId === undefined || String(e.entity_group_id) === groupId) &&
    (entityId === undefined || String(e.entity_id) === entityId) &&
    (eventType === undefined ||
      e.event_type === eventType ||
      (eventType === 'VIOLATION' && e.event_type.startsWith('VIOLATION_'))) &&
    (incident === undefined || String(e.incident_id) === incident)
}

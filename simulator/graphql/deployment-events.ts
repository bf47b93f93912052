/**
 * @module simulator/graphql/deployment-events
 * Change-tracking deployments as NRQL events: `changeTrackingCreateDeployment` stores a `Deployment`
 * event (New Relic docs "Query your change tracking data": `Deployment` holds the deployments made
 * with that mutation and the legacy REST APIs; `ChangeTrackingEvent` those of
 * `changeTrackingCreateEvent`, which the simulator does not offer, so it holds none). Attributes are
 * the fields of `ChangeTrackingDeployment` [schema] plus `entity.guid` and `entity.name`, which the
 * docs' queries filter on. Read from the same store the mutation writes, so a deployment is in the
 * next NRQL; one whose entity is gone (deleted application) has no account and is left out.
 */
import type { Dataset } from '../data/dataset'
import type { EventRow } from '../types'

const FIELDS = [
  'changelog',
  'commit',
  'deepLink',
  'deploymentId',
  'deploymentType',
  'description',
  'groupId',
  'user',
  'version',
] as const

export function deploymentEvents(dataset: Dataset, eventTypes: readonly string[]): EventRow[] {
  if (!eventTypes.includes('Deployment')) return []
  // one lookup per application, not per deployment (entityByGuid scans every entity)
  const entities = new Map<string, ReturnType<Dataset['entityByGuid']>>()
  const entityOf = (guid: string) => {
    if (!entities.has(guid)) entities.set(guid, dataset.entityByGuid(guid))
    return entities.get(guid)
  }
  const { deployments } = dataset
  return deployments.shown(deployments.all()).flatMap((d) => {
    const entity = entityOf(d.entityGuid)
    if (!entity) return []
    const attributes: Record<string, string | number> = {
      'entity.guid': entity.guid,
      'entity.name': entity.name,
    }
    for (const field of FIELDS) {
      const value = d[field]
      if (value !== null) attributes[field] = value
    }
    return [
      { eventType: 'Deployment', accountId: entity.accountId, timestamp: d.timestamp, attributes },
    ]
  })
}

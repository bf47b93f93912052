/**
 * @module resources/alerts/deployment-events
 * The DEPLOYMENT events of `GET /v2/alerts_events` (explorer alerts_events `filter[event_type]`),
 * from the account's `Deployment` events (New Relic docs "Query your change tracking data": the
 * deployments of `changeTrackingCreateDeployment` and the REST APIs), one NRQL query per v2 page for
 * the stretch of time that page stands for (events.ts).
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { isForbiddenAccount } from '../../entities/resolve'
import { nrqlDocument, type NrqlData } from '../../upstream/nrql-document'
import { eventId } from './ids'
import { entityOf } from './reshape'
import type { Window } from './scope'

/** The deployments one query reads at most (its LIMIT). */
export const maxDeployments = 2000

/** The NRQL of the newest `limit` deployments in `[startTime, endTime)`; only numbers v2bridge
 * computed reach it. */
export function deploymentsNrql(span: Window, limit = maxDeployments): string {
  const since = Math.floor(span.startTime)
  const until = Math.floor(span.endTime)
  const rows = Math.min(maxDeployments, Math.max(1, Math.floor(limit)))
  return (
    'SELECT timestamp, entity.guid, entity.name, version, description, deploymentId ' +
    `FROM Deployment SINCE ${since} UNTIL ${until} LIMIT ${rows}`
  )
}

/**
 * v2 DEPLOYMENT event ← one `Deployment` row: the entity from its GUID (as violations'), `id`
 * minted from the deployment ID, `description` ← the deployment's description, else its version
 * [INFERRED: no recorded v2 DEPLOYMENT event]; no `priority` and no `incident_id`, which a
 * deployment does not have [INFERRED].
 */
export function toV2DeploymentEvent(row: Record<string, unknown>) {
  const text = (k: string) => (typeof row[k] === 'string' && row[k] !== '' ? row[k] : undefined)
  const guid = text('entity.guid') ?? null
  const entity = entityOf(guid, text('entity.name') ?? null)
  const timestamp = Number(row['timestamp'])
  const source = `deployment/${text('deploymentId') ?? `${guid}/${timestamp}`}`
  return {
    id: eventId(source, 'DEPLOYMENT'),
    event_type: 'DEPLOYMENT',
    product: entity.product.toUpperCase(),
    entity_type: entity.type,
    entity_group_id: entity.group_id,
    entity_id: entity.id,
    description: text('description') ?? text('version') ?? '',
    timestamp,
  }
}

export type V2DeploymentEvent = ReturnType<typeof toV2DeploymentEvent>

/** The DEPLOYMENT events of one page's span, newest first (NRQL's order of events); none for an
 * account the key cannot see. */
export async function deploymentEvents(
  c: Context<Env>,
  accountId: number,
  span: Window,
  limit = maxDeployments
): Promise<V2DeploymentEvent[]> {
  try {
    const { data } = await c
      .get('nerdgraph')
      .query<NrqlData>(nrqlDocument, { accountId, nrql: deploymentsNrql(span, limit) })
    return (data.actor.account?.nrql?.results ?? []).map(toV2DeploymentEvent)
  } catch (err) {
    if (isForbiddenAccount(err)) return []
    throw err
  }
}

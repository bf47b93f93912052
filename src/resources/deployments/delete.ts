/**
 * @module resources/deployments/delete
 * `DELETE /v2/applications/{id}/deployments/{deployment_id}`: NerdGraph keeps deployments as
 * immutable change-tracking events and has no delete (New Relic docs "Migrate from REST API v2 to
 * NerdGraph"). v2bridge looks the deployment up (one request per 2,000 deployments back) and answers 409, as v2 answers a delete
 * the resource's state refuses (its 409 for a reporting application); never a fake 200.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { V2Error } from '../../core/errors'
import { pathId } from '../../entities/resolve'
import { findDeployment } from './list'

export const deleteTitles = {
  notFound: 'No Deployment found with the given ID', // swagger 1.1 errorResponses, 404
  immutable:
    'Deployments cannot be deleted: NerdGraph keeps them as immutable change tracking events',
} as const

export async function deleteDeployment(c: Context<Env>): Promise<never> {
  const id = pathId(c.req.param('deploymentId'), deleteTitles.notFound)
  if (!(await findDeployment(c, id))) throw new V2Error(404, deleteTitles.notFound)
  throw new V2Error(409, deleteTitles.immutable)
}

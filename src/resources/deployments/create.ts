/**
 * @module resources/deployments/create
 * `POST /v2/applications/{id}/deployments`: one `changeTrackingCreateDeployment` once the account is
 * known, answered 201 (GO deployments test; newrelic-python-agent `newrelic/admin/record_deploy.py`
 * and jenkinsci/newrelic-deployment-notifier-plugin require exactly 201).
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { V2Error, titles } from '../../core/errors'
import type { GraphQLErrorLike } from '../../upstream/nerdgraph'
import { pathId, resolveApplication, type ResolvedApplication } from '../../entities/resolve'
import { errorClassOf, graphqlFault } from '../../upstream/fault'
import { createDeploymentDocument, type CreateDeploymentData, type NgDeployment } from './documents'
import { deploymentInput, deploymentTitles, parseDeployment, type V2Deployment } from './plan'
import { deploymentBody, deploymentIds, toV2Deployment } from './reshape'

/** Records one deployment: what NerdGraph recorded and its v2 ID. */
export async function recordDeployment(
  c: Context<Env>,
  app: ResolvedApplication,
  deployment: V2Deployment
): Promise<{ created: NgDeployment; id: number }> {
  const { data, errors } = await c
    .get('nerdgraph')
    .query<CreateDeploymentData>(createDeploymentDocument, {
      deployment: deploymentInput(app.guid, deployment),
    })
  const created = data.changeTrackingCreateDeployment
  if (!created) throw refusal(errors)
  return { created, id: deploymentIds(app.appId, [created])(created) }
}

/** A refused mutation: an entity NerdGraph does not know (or the key may not see) is v2's 404;
 * invalid input is a validation error; anything else (a timeout…) as every call answers it.
 * NerdGraph's text is not repeated. */
function refusal(errors: readonly GraphQLErrorLike[]): Error {
  const classes = errors.map(errorClassOf)
  if (classes.some((k) => k === 'NOT_FOUND' || k === 'FORBIDDEN')) {
    return new V2Error(404, titles.noApplication)
  }
  if (classes.some((k) => k !== '' && k !== 'INVALID_INPUT')) return graphqlFault(errors).error
  return new V2Error(422, deploymentTitles.invalid, {
    messages: ['NerdGraph change tracking refused the deployment'],
  })
}

export async function createDeployment(c: Context<Env>) {
  const appId = pathId(c.req.param('id'), titles.noApplication)
  const deployment = parseDeployment(c.get('params'), Date.now())
  const app = await resolveApplication(c, appId)
  const { created, id } = await recordDeployment(c, app, deployment)
  return deploymentBody(toV2Deployment(created, id, app.appId))
}

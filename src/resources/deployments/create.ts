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
import {
  pathId,
  queryApplication,
  resolveApplication,
  type ResolvedApplication,
} from '../../entities/resolve'
import { errorClassOf, graphqlFault } from '../../upstream/fault'
import {
  createDeploymentDocument,
  listDeploymentsDocument,
  type CreateDeploymentData,
  type ListDeploymentsData,
  type NgDeployment,
} from './documents'
import {
  deploymentInput,
  deploymentTitles,
  laterSearchFilter,
  parseDeployment,
  type V2Deployment,
} from './plan'
import { recordOwnDeployment, withOwnDeployments } from './own'
import { deploymentBody, deploymentIds, toV2Deployment } from './reshape'

/** Records one deployment: what NerdGraph recorded and its v2 ID. */
export async function recordDeployment(
  c: Context<Env>,
  app: ResolvedApplication,
  deployment: V2Deployment
): Promise<{ created: NgDeployment; id: number }> {
  const sentAt = Date.now()
  let result
  try {
    result = await c.get('nerdgraph').query<CreateDeploymentData>(createDeploymentDocument, {
      deployment: deploymentInput(app.guid, deployment),
    })
  } catch (err) {
    // The answer was lost after the mutation was sent: a CI step would retry and record the
    // deployment twice, so look for it first and answer it when it landed.
    if (!(err instanceof V2Error) || err.title !== titles.writeUnconfirmed) throw err
    const found = await landed(c, app, deployment, sentAt).catch(() => undefined)
    if (!found) throw err
    recordOwnDeployment(c, app, found)
    return { created: found, id: deploymentIds(app.appId, [found])(found) }
  }
  const { data, errors } = result
  const created = data.changeTrackingCreateDeployment
  if (!created) throw refusal(errors)
  recordOwnDeployment(c, app, created)
  return { created, id: deploymentIds(app.appId, [created])(created) }
}

/** How long the read-back after a lost answer may take: its own budget, as the request's may be
 * spent by then. */
const readBackMs = 10_000

/** The deployment as NerdGraph recorded it, if a deployment of this revision and these fields was
 * recorded since `sentAt` (or at the timestamp given). */
async function landed(
  c: Context<Env>,
  app: ResolvedApplication,
  d: V2Deployment,
  sentAt: number
): Promise<NgDeployment | undefined> {
  const startTime = (d.timestamp ?? sentAt) - 60_000
  const endTime = (d.timestamp ?? Date.now()) + 60_000
  const { data } = await c
    .get('nerdgraph')
    .query<ListDeploymentsData>(
      listDeploymentsDocument,
      { guid: app.guid, filter: { limit: 100, timeWindow: { startTime, endTime } } },
      { ownBudgetMs: readBackMs }
    )
  const same = (a: string | null | undefined, b: string | null) => (a ?? null) === b
  return (data.actor.entity?.deploymentSearch?.results ?? []).find(
    (found): found is NgDeployment =>
      found !== null &&
      found.version === d.revision &&
      same(found.changelog, d.changelog) &&
      same(found.description, d.description) &&
      (d.user === null || found.user === d.user) &&
      (d.timestamp === undefined || found.timestamp === d.timestamp)
  )
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

/** v2 refused a `timestamp` that is not after the application's latest deployment (New Relic docs
 * "Record and view deployments"); NerdGraph records it anyway, so one `deploymentSearch` from that
 * time asks first (only when a timestamp is sent). */
async function requireAfterLatest(c: Context<Env>, app: ResolvedApplication, timestamp: number) {
  // a read the write needs: explain mode sends it and shows the mutation after it
  const filter = laterSearchFilter(timestamp, Date.now())
  const { data } = await queryApplication<ListDeploymentsData>(
    c,
    listDeploymentsDocument,
    { guid: app.guid, filter },
    { lookup: true }
  )
  const found = (data.actor.entity?.deploymentSearch?.results ?? []).filter(
    (d): d is NgDeployment => d !== null
  )
  const later = withOwnDeployments(c, app, found, filter.timeWindow)
  if (later.some((d) => d.timestamp >= timestamp)) {
    throw new V2Error(422, deploymentTitles.invalid, { messages: [deploymentTitles.notLatest] })
  }
}

export async function createDeployment(c: Context<Env>) {
  const appId = pathId(c.req.param('id'), titles.noApplication)
  const deployment = parseDeployment(c.get('params'), Date.now())
  const app = await resolveApplication(c, appId)
  if (deployment.timestamp !== undefined) await requireAfterLatest(c, app, deployment.timestamp)
  const { created, id } = await recordDeployment(c, app, deployment)
  return deploymentBody(toV2Deployment(created, id, app.appId))
}

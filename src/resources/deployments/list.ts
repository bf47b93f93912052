/**
 * @module resources/deployments/list
 * `GET /v2/applications/{id}/deployments`: one NerdGraph request (the entity's `deploymentSearch`),
 * newest first (D-deploy example), 200 per page [UNCONFIRMED proposal] with `Link` headers as for
 * applications.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { V2Error, titles } from '../../core/errors'
import { linkHeader } from '../../http/link-header'
import { pageParam } from '../../http/params'
import { pathId, queryApplication, resolveApplication } from '../../entities/resolve'
import { listDeploymentsDocument, type ListDeploymentsData, type NgDeployment } from './documents'
import { deploymentPageSize, searchFilter } from './plan'
import { deploymentIds, deploymentsBody, toV2Deployment } from './reshape'

/** Every listed deployment of the path's application, newest first, with its v2 ID. */
export async function loadDeployments(c: Context<Env>) {
  const app = await resolveApplication(c, pathId(c.req.param('id'), titles.noApplication))
  const { data } = await queryApplication<ListDeploymentsData>(c, listDeploymentsDocument, {
    guid: app.guid,
    filter: searchFilter(Date.now()),
  })
  const entity = data.actor.entity
  if (!entity || entity.applicationId !== app.appId) throw new V2Error(404, titles.noApplication)
  const found = (entity.deploymentSearch?.results ?? []).filter(
    (d): d is NgDeployment => d !== null
  )
  const idOf = deploymentIds(app.appId, found)
  return { app, deployments: found.map((d) => ({ id: idOf(d), deployment: d })) }
}

export async function listDeployments(c: Context<Env>) {
  const { app, deployments } = await loadDeployments(c)
  const p = c.get('params')
  const page = pageParam(p)
  const lastPage = Math.max(1, Math.ceil(deployments.length / deploymentPageSize))
  const shown = deployments.slice((page - 1) * deploymentPageSize, page * deploymentPageSize)
  const body = deploymentsBody(shown.map((d) => toV2Deployment(d.deployment, d.id, app.appId)))
  const link = linkHeader(new URL(c.req.url), c.get('origin'), p.entries(), { page, lastPage })
  return { body, link }
}

/**
 * @module applications/show
 * `GET /v2/applications/{id}`: the record of contract §2.2 from one NerdGraph request.
 */
import type { Context } from 'hono'
import type { Env } from '../env'
import { V2Error, titles } from '../errors'
import { forbiddenAsNotFound, pathId, resolveApplication } from '../resolve'
import {
  membersNrql,
  membershipWindow,
  rememberTopology,
  topologyFrom,
  type MemberRow,
} from '../topology'
import { applicationLinkTemplates } from '../../mappings/link-templates'
import { browserNrql, browserSummaryFrom, summaryWindow } from './browser'
import { showApplicationDocument, type ShowApplicationData } from './documents'
import { toV2Application } from './reshape'

export async function showApplication(c: Context<Env>) {
  const app = await resolveApplication(c, pathId(c.req.param('id'), titles.noApplication))
  const now = Date.now()
  const { data } = await forbiddenAsNotFound(
    c.get('nerdgraph').query<ShowApplicationData>(showApplicationDocument, {
      guid: app.guid,
      accountId: app.accountId,
      members: membersNrql({ guid: app.guid }, membershipWindow(now)),
      browser: browserNrql({ guid: app.guid }, summaryWindow(now)),
    }),
    titles.noApplication
  )
  const entity = data.actor.entity
  if (!entity || entity.applicationId !== app.appId) throw new V2Error(404, titles.noApplication)
  const topology = topologyFrom(
    app.appId,
    (data.actor.account?.members?.results ?? []) as MemberRow[]
  )
  rememberTopology(c, app.appId, topology)
  const browser = browserSummaryFrom(data.actor.account?.browser?.results[0])
  return {
    application: toV2Application(entity, topology, browser),
    links: applicationLinkTemplates,
  }
}

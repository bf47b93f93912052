/**
 * @module resources/applications/load
 * One application's document: resolve the path ID, send the document once, require the entity, and
 * learn its hosts and instances from the `members` NRQL every such document carries (asked again in
 * parts when NRDB cut it, src/entities/topology.ts `completeMembers`).
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { V2Error, titles } from '../../core/errors'
import {
  pathId,
  queryApplication,
  resolveApplication,
  type ResolvedApplication,
} from '../../entities/resolve'
import type { SendNrql } from '../../upstream/nrql-pages'
import {
  completeMembers,
  memberRows,
  membersNrql,
  membershipWindow,
  rememberTopology,
  topologyFrom,
  type Topology,
} from '../../entities/topology'
import type { ApmApplication, NrqlField } from './documents'

type AppDocumentData = {
  actor: { entity: ApmApplication | null; account: ({ members: NrqlField } & object) | null }
}

export async function loadApplication<T extends AppDocumentData>(
  c: Context<Env>,
  document: string,
  extraVariables: (app: ResolvedApplication, now: number) => Record<string, unknown>
): Promise<{ data: T; entity: ApmApplication; topology: Topology }> {
  const app = await resolveApplication(c, pathId(c.req.param('id'), titles.noApplication))
  const now = Date.now()
  const window = membershipWindow(now)
  const { data } = await queryApplication<T>(c, document, {
    guid: app.guid,
    accountId: app.accountId,
    members: membersNrql({ guid: app.guid }, window),
    ...extraVariables(app, now),
  })
  const entity = data.actor.entity
  if (!entity || entity.applicationId !== app.appId) throw new V2Error(404, titles.noApplication)
  const send: SendNrql = (d, v) => queryApplication(c, d, v)
  const members = data.actor.account?.members
  const all = await completeMembers(send, app.accountId, { guid: app.guid }, window, members)
  const topology = topologyFrom(app.appId, memberRows(all))
  rememberTopology(c, app, topology)
  return { data, entity, topology }
}

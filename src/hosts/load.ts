/**
 * @module hosts/load
 * Everything the host and instance endpoints show, from one NerdGraph request: the application
 * entity, its members of the last hour and per-instance sums of the last minutes.
 */
import type { Context } from 'hono'
import { hostsDocument, type ApmApplication, type HostsData } from '../applications/documents'
import { summaryWindow } from '../applications/browser'
import type { Env } from '../env'
import { V2Error, titles } from '../errors'
import { forbiddenAsNotFound, pathId, resolveApplication } from '../resolve'
import {
  membersNrql,
  membershipWindow,
  rememberTopology,
  topologyFrom,
  type MemberRow,
  type Topology,
} from '../topology'
import { instanceSummaryNrql, sumsByInstance, type Sums } from './summary'

export interface HostsView {
  app: ApmApplication
  topology: Topology
  sums: Map<string, Sums>
}

export async function loadHostsView(c: Context<Env>): Promise<HostsView> {
  const resolved = await resolveApplication(c, pathId(c.req.param('id'), titles.noApplication))
  const now = Date.now()
  const { data } = await forbiddenAsNotFound(
    c.get('nerdgraph').query<HostsData>(hostsDocument, {
      guid: resolved.guid,
      accountId: resolved.accountId,
      members: membersNrql({ guid: resolved.guid }, membershipWindow(now)),
      summary: instanceSummaryNrql(resolved.guid, summaryWindow(now)),
    }),
    titles.noApplication
  )
  const app = data.actor.entity
  if (!app || app.applicationId !== resolved.appId) throw new V2Error(404, titles.noApplication)
  const rows = (data.actor.account?.members?.results ?? []) as MemberRow[]
  const topology = topologyFrom(resolved.appId, rows)
  rememberTopology(c, resolved.appId, topology)
  return { app, topology, sums: sumsByInstance(data.actor.account?.summary?.results ?? []) }
}

/**
 * @module resources/applications/hosts/load
 * Everything the host and instance endpoints show, from one NerdGraph request: the application
 * entity, its members of the last hour and per-instance sums of the last minutes.
 */
import type { Context } from 'hono'
import { hostsDocument, type ApmApplication, type HostsData } from '../documents'
import { summaryWindow } from '../browser'
import { loadApplication } from '../load'
import type { Env } from '../../../http/env'
import type { Topology } from '../../../entities/topology'
import { instanceSummaryNrql, sumsByInstance, type Sums } from './summary'

export interface HostsView {
  app: ApmApplication
  topology: Topology
  sums: Map<string, Sums>
}

export async function loadHostsView(c: Context<Env>): Promise<HostsView> {
  const { data, entity, topology } = await loadApplication<HostsData>(
    c,
    hostsDocument,
    (app, now) => ({
      summary: instanceSummaryNrql(app.guid, summaryWindow(now)),
    })
  )
  return { app: entity, topology, sums: sumsByInstance(data.actor.account?.summary) }
}

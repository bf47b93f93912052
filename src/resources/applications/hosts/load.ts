/**
 * @module resources/applications/hosts/load
 * Everything the host and instance endpoints show, from one NerdGraph request: the application
 * entity, its members of the last hour and per-instance sums of the last minutes (more requests only
 * when NRDB cut an answer at its caps, src/upstream/nrql-pages.ts).
 */
import type { Context } from 'hono'
import { hostsDocument, type ApmApplication, type HostsData } from '../documents'
import { summaryWindow } from '../browser'
import { loadApplication } from '../load'
import type { Env } from '../../../http/env'
import type { Topology } from '../../../entities/topology'
import { instanceSummaryNrql, sumsByInstance, type Sums } from './summary'
import { queryApplication } from '../../../entities/resolve'
import { facetedRows } from '../../../upstream/nrql-rows'
import {
  completePages,
  facetsCut,
  mergedFacets,
  rangeClauses,
  runParts,
} from '../../../upstream/nrql-pages'

export interface HostsView {
  app: ApmApplication
  topology: Topology
  sums: Map<string, Sums>
}

export async function loadHostsView(c: Context<Env>): Promise<HostsView> {
  let window: [number, number] = [0, 0]
  const { data, entity, topology } = await loadApplication<HostsData>(
    c,
    hostsDocument,
    (app, now) => ({ summary: instanceSummaryNrql(app.guid, (window = summaryWindow(now))) })
  )
  // Past 5,000 instances NRDB cuts the sums: asked again in halves by host.
  const parts = await completePages({
    first: data.actor.account?.summary,
    cut: facetsCut,
    seen: (field) =>
      facetedRows(field, ['host']).flatMap(({ facet }) =>
        typeof facet.host === 'string' ? [facet.host] : []
      ),
    run: (ranges) =>
      runParts(
        (d, v) => queryApplication(c, d, v),
        entity.accountId,
        ranges.map((r) => instanceSummaryNrql(entity.guid, window, rangeClauses('host', r)))
      ),
  })
  return { app: entity, topology, sums: sumsByInstance(mergedFacets(parts)) }
}

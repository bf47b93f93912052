/**
 * @module resources/metrics/cold-scope
 * A host- or instance-scoped data call whose application's hosts are not cached yet, in one NerdGraph
 * request. v2 host and instance IDs are minted from the application's members (src/core/ids.ts), so the
 * members query rides in the data document (alias `members`), and the data NRQL is split by host (and
 * instance) instead of filtered by it; the ID is resolved from the answer and that member's rows kept.
 * When the split could have hit the FACET cap, the caller asks again with the resolved scope.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { titles, V2Error } from '../../core/errors'
import { resolveId } from '../../core/ids'
import {
  pathId,
  queryApplication,
  resolveApplication,
  type ResolvedApplication,
} from '../../entities/resolve'
import { facetsCut, type SendNrql } from '../../upstream/nrql-pages'
import {
  completeMembers,
  hasTopology,
  memberRows,
  membersNrql,
  membershipWindow,
  rememberTopology,
  titlesNotFound,
  topologyFrom,
  type Topology,
} from '../../entities/topology'
import { metricDataDocument, type MetricDataData } from './documents'
import { namesPerQuery, planMetricData, type MetricDataRequest, type MetricScope } from './plan'
import { readableFor } from './readable'
import { toV2MetricData } from './reshape'
import { facetedRows, type FacetedNrql } from '../../upstream/nrql-rows'

export type Split = 'host' | 'instance'

interface Member {
  host: string
  instanceName?: string
}

/** Per split: the path parameter, the extra FACET attributes, and the member an ID names. */
const splits = {
  host: {
    param: 'hostId',
    notFound: titlesNotFound.host,
    facetBy: ['host'],
    member: (t: Topology, id: number): Member | undefined => {
      const host = resolveId(t.hosts, id)
      return host === undefined ? undefined : { host }
    },
  },
  instance: {
    param: 'instanceId',
    notFound: titlesNotFound.instance,
    facetBy: ['host', 'instanceName'],
    member: (t: Topology, id: number): Member | undefined => t.instances.get(id),
  },
} as const

export interface ColdTarget {
  app: ResolvedApplication
  split: Split
  id: number
}

/** The call's target when its application's hosts are not cached (fresh or stale), else undefined. */
export async function coldTarget(c: Context<Env>, split: Split): Promise<ColdTarget | undefined> {
  const app = await resolveApplication(c, pathId(c.req.param('id'), titles.noApplication))
  const id = pathId(c.req.param(splits[split].param), splits[split].notFound)
  if (hasTopology(c, app)) return undefined
  return { app, split, id }
}

/** The v2 body in one request, or undefined when the split may have been cut at the FACET cap. */
export async function coldMetricData(
  c: Context<Env>,
  request: MetricDataRequest,
  { app, split, id }: ColdTarget
): Promise<Record<string, unknown> | undefined> {
  const scope: MetricScope = {
    accountId: app.accountId,
    guid: app.guid,
    facetBy: splits[split].facetBy,
  }
  readableFor(c, request, scope)
  const plan = planMetricData(request, scope, null)
  const document = metricDataDocument(plan.nrql.length, plan.knownNrql.length, {
    others: plan.othersNrql !== null,
    members: true,
  })
  const window = membershipWindow(Date.now())
  const { data } = await queryApplication<MetricDataData>(c, document, {
    ...plan.variables,
    members: membersNrql({ guid: app.guid }, window),
  })
  const account = data.actor.account
  const send: SendNrql = (d, v) => queryApplication(c, d, v)
  const members = await completeMembers(
    send,
    app.accountId,
    { guid: app.guid },
    window,
    account?.['members']
  )
  const topology = topologyFrom(app.appId, memberRows(members))
  rememberTopology(c, app, topology)
  const member = splits[split].member(topology, id)
  if (!member) throw new V2Error(404, splits[split].notFound)
  // Cut, or so large it may be (the cap of a live NRDB is 5,000 facets: src/upstream/nrql-pages.ts).
  const full = plan.nrql.some((_, i) => {
    const field = account?.[`q${i}`]
    return groups(field?.results) >= namesPerQuery || facetsCut(field)
  })
  return full ? undefined : toV2MetricData(plan, rowsOf(data, member))
}

function groups(rows: Record<string, unknown>[] | null | undefined): number {
  return new Set((rows ?? []).map((r) => JSON.stringify(r['facet']))).size
}

/** Pure: the answer with only `member`'s rows in every alias, `host` and `instanceName` read by
 * their position in each alias's `metadata.facets` (src/upstream/nrql-rows.ts). */
export function rowsOf(data: MetricDataData, member: Member): MetricDataData {
  const account = data.actor.account
  if (!account) return data
  const narrowed = Object.fromEntries(
    Object.entries(account).map(([alias, field]) => [alias, field && narrow(field, member)])
  )
  return { actor: { account: narrowed } }
}

function narrow(field: FacetedNrql, member: Member): FacetedNrql {
  const mine = facetedRows(field, ['host', 'instanceName']).filter(
    ({ facet }) =>
      facet.host === member.host &&
      (member.instanceName === undefined || facet.instanceName === member.instanceName)
  )
  return { results: mine.map(({ row }) => row), metadata: field.metadata ?? null }
}

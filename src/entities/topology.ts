/**
 * @module entities/topology
 * Hosts and instances of an application. NerdGraph has no v2 host or instance IDs (src/core/ids.ts):
 * v2bridge lists (host, instanceName) pairs from timeslice rows of the last hour (v2 lists "any that
 * have reported for approximately the last hour", New Relic docs "List an app's host IDs and
 * instance IDs") and
 * mints IDs from them (src/core/ids.ts).
 */
import type { Context } from 'hono'
import { cachedOrLoad } from './background'
import type { Env } from '../http/env'
import { V2Error } from '../core/errors'
import { instanceKey, mintIds, resolveId } from '../core/ids'
import { quote } from '../core/nrql'
import { confirmApplication, queryApplication, type ResolvedApplication } from './resolve'
import { facetedRows, type FacetedNrql } from '../upstream/nrql-rows'
import {
  completePages,
  facetsCut,
  maxPageQueries,
  mergedFacets,
  rangeClauses,
  rowClauses,
  runParts,
  titleTooLarge,
  uniquesCut,
  type PagedNrql,
  type SendNrql,
} from '../upstream/nrql-pages'
import { presenceMetricNames, membershipWindowMs } from '../../mappings/topology'
import { defineCache } from '../core/cache'

const minute = 60 * 1000

/** per application: hosts and instances; hosts come and go slowly. */
export const topologiesCache = defineCache<Topology>('topologies', {
  freshMs: 5 * minute,
  staleMs: 25 * minute,
  maxBytes: 8 * 2 ** 20,
})

export interface Instance {
  id: number
  host: string
  instanceName: string
}

export interface Topology {
  /** host name → minted host ID */
  hosts: Map<string, number>
  /** minted instance ID → instance */
  instances: Map<number, Instance>
  /** Epoch ms at the start of the last minute any instance reported, if it did in the window. */
  lastReported: number | undefined
}

export const titlesNotFound = {
  host: 'No Application Host found with the given ID', // [UNCONFIRMED] proposal, as for applications
  instance: 'No Application Instance found with the given ID', // [UNCONFIRMED] proposal
} as const

/** [since, until) in epoch ms, both on a minute boundary so equal requests within a minute match. */
export function membershipWindow(now: number): [number, number] {
  const until = Math.floor(now / 60_000) * 60_000
  return [until - membershipWindowMs, until]
}

/** Instance names asked per host: far more than one host runs. */
const instancesAsked = 1000

/** NRQL listing each (host, instanceName) that reported timeslices in the window. `scope` is the
 * entity GUID of one application, or `FACET appId` over the whole account; `clauses` narrow it (a
 * half of a cut answer, src/upstream/nrql-pages.ts). `instanceCount` tells a host's instances cut. */
export function membersNrql(
  scope: MembersScope,
  window: [number, number],
  clauses: readonly string[] = []
): string {
  const names = presenceMetricNames.map((n) => quote(n)).join(', ')
  const where = typeof scope === 'object' ? `entity.guid = ${quote(scope.guid)} AND ` : ''
  const facet = typeof scope === 'object' ? 'host' : 'appId, host'
  return (
    `SELECT uniques(instanceName, ${instancesAsked}) AS 'instances', ` +
    `uniqueCount(instanceName) AS 'instanceCount', max(timestamp) AS 'lastReported' ` +
    `FROM Metric ` +
    `WHERE ${where}scope IS NULL AND metricTimesliceName IN (${names}) ` +
    clauses.map((c) => `AND ${c} `).join('') +
    `FACET ${facet} SINCE ${window[0]} UNTIL ${window[1]} LIMIT MAX`
  )
}

export type MembersScope = { guid: string } | 'account'

/**
 * The whole `membersNrql` answer of `scope`: `first` when NRDB did not cut it; else its halves by
 * host until none is cut, and a host (of an application) whose instances were cut asked alone in
 * halves by instance name (src/upstream/nrql-pages.ts). `send` sends one document.
 */
export async function completeMembers(
  send: SendNrql,
  accountId: number,
  scope: MembersScope,
  window: [number, number],
  first: PagedNrql | null | undefined
): Promise<FacetedNrql | null | undefined> {
  const facets = typeof scope === 'object' ? ['host'] : ['appId', 'host']
  const ask = (clauses: string[][]) =>
    runParts(
      send,
      accountId,
      clauses.map((c) => membersNrql(scope, window, c))
    )
  const parts = await completePages({
    first,
    cut: facetsCut,
    seen: (field) => memberRows(field).flatMap((r) => (typeof r.host === 'string' ? [r.host] : [])),
    run: (ranges) => ask(ranges.map((r) => rangeClauses('host', r))),
  })
  const merged = mergedFacets(parts) ?? first
  if (!merged?.results) return merged
  const rows = facetedRows(merged, facets)
  const cutRows = rows.filter(({ row }) =>
    uniquesCut(row['instances'], row['instanceCount'], instancesAsked)
  )
  if (cutRows.length > maxPageQueries) throw new V2Error(502, titleTooLarge)
  const results: Record<string, unknown>[] = []
  for (const { row, facet } of rows) {
    if (!cutRows.some((r) => r.row === row)) {
      results.push(row)
      continue
    }
    const only = rowClauses(facet)
    if (!only) throw new V2Error(502, titleTooLarge)
    const instances = await completePages({
      first: { results: [row], metadata: merged.metadata ?? null },
      cut: (field) =>
        (field.results ?? []).some((r) =>
          uniquesCut(r['instances'], r['instanceCount'], instancesAsked)
        ),
      seen: instancesOf,
      run: (ranges) => ask(ranges.map((r) => [...only, ...rangeClauses('instanceName', r)])),
    })
    results.push({ ...row, instances: [...new Set(instances.flatMap(instancesOf))] })
  }
  return { results, metadata: merged.metadata ?? null }
}

const instancesOf = (field: FacetedNrql): string[] =>
  (field.results ?? []).flatMap((r) => {
    const list = r['instances']
    return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : []
  })

/** One facet row of `membersNrql`: `host` (and `appId`) plus `instances`. */
export interface MemberRow {
  appId?: unknown
  host?: unknown
  instances?: unknown
  lastReported?: unknown
}

/** Pure: the `membersNrql` answer → member rows, `appId` and `host` read by their position in
 * `metadata.facets` (src/upstream/nrql-rows.ts). */
export function memberRows(field: FacetedNrql | null | undefined): MemberRow[] {
  return facetedRows(field, ['appId', 'host']).map(({ row, facet }) => ({
    appId: facet.appId,
    host: facet.host,
    instances: row['instances'],
    lastReported: row['lastReported'],
  }))
}

/** Pure: member rows of one application → minted hosts and instances. */
export function topologyFrom(appId: number, rows: readonly MemberRow[]): Topology {
  const pairs: [string, string][] = []
  let lastReported: number | undefined
  for (const row of rows) {
    if (typeof row.lastReported === 'number' && !(row.lastReported <= (lastReported ?? -1))) {
      lastReported = row.lastReported
    }
    if (typeof row.host !== 'string') continue
    const names = Array.isArray(row.instances) ? row.instances.map(String) : []
    for (const name of names.length ? names : [row.host]) pairs.push([row.host, name])
  }
  const hosts = mintIds(
    'host',
    appId,
    pairs.map(([h]) => h)
  )
  const minted = mintIds(
    'instance',
    appId,
    pairs.map(([h, i]) => instanceKey(h, i))
  )
  const instances = new Map<number, Instance>()
  for (const [host, instanceName] of pairs) {
    const id = minted.get(instanceKey(host, instanceName))!
    instances.set(id, { id, host, instanceName })
  }
  return { hosts, instances, lastReported }
}

/** Cached per key, account and application: the same ID under another pinned account is another
 * (possibly empty) application. */
const topologyKey = (app: ResolvedApplication) => `${app.accountId}:${app.appId}`

/** Whether the application's hosts are cached, fresh or stale (src/resources/metrics/cold-scope.ts). */
export function hasTopology(c: Context<Env>, app: ResolvedApplication): boolean {
  return (
    c.get('caches').of(topologiesCache).lookup(c.get('keyHash'), topologyKey(app)) !== undefined
  )
}

export function rememberTopology(c: Context<Env>, app: ResolvedApplication, topology: Topology) {
  c.get('caches').of(topologiesCache).set(c.get('keyHash'), topologyKey(app), topology)
}

/** The application's hosts and instances: cached, a stale copy refreshed in the background
 * (src/entities/background.ts); `fresh` asks NerdGraph now. */
export async function appTopology(
  c: Context<Env>,
  app: ResolvedApplication,
  fresh = false
): Promise<Topology> {
  const load = async () => {
    const window = membershipWindow(Date.now())
    const send: SendNrql = (document, variables) =>
      queryApplication(c, document, variables, { lookup: true })
    const first = await runParts(send, app.accountId, [membersNrql({ guid: app.guid }, window)])
    const members = await completeMembers(send, app.accountId, { guid: app.guid }, window, first[0])
    return topologyFrom(app.appId, memberRows(members))
  }
  if (!fresh) return cachedOrLoad(c, c.get('caches').of(topologiesCache), topologyKey(app), load)
  const topology = await load()
  rememberTopology(c, app, topology)
  return topology
}

/** The topology that knows `found`: the cached one, or, when it is stale and does not, a fresh one
 * (a host or instance that started since). */
async function topologyKnowing(
  c: Context<Env>,
  app: ResolvedApplication,
  found: (t: Topology) => boolean
): Promise<Topology> {
  const topology = await appTopology(c, app)
  if (found(topology)) return topology
  const fresh =
    c.get('caches').of(topologiesCache).get(c.get('keyHash'), topologyKey(app)) !== undefined
  return fresh ? topology : appTopology(c, app, true)
}

/** v2 host ID → host name (404 in v2 shape when unknown). */
export async function resolveHost(
  c: Context<Env>,
  app: ResolvedApplication,
  hostId: number
): Promise<string> {
  const known = (t: Topology) => resolveId(t.hosts, hostId) !== undefined
  const host = resolveId((await topologyKnowing(c, app, known)).hosts, hostId)
  if (host !== undefined) return host
  await confirmApplication(c, app.appId)
  throw new V2Error(404, titlesNotFound.host)
}

/** v2 instance ID → its host and agent instance name (404 in v2 shape when unknown). */
export async function resolveInstance(
  c: Context<Env>,
  app: ResolvedApplication,
  instanceId: number
): Promise<{ host: string; instanceName: string }> {
  const known = (t: Topology) => t.instances.has(instanceId)
  const instance = (await topologyKnowing(c, app, known)).instances.get(instanceId)
  if (!instance) {
    await confirmApplication(c, app.appId)
    throw new V2Error(404, titlesNotFound.instance)
  }
  return { host: instance.host, instanceName: instance.instanceName }
}

/** Shared helpers of the metric route tests: ground truth from /_sim/timeslices, IDs, times. */
import { familyOf } from '../../src/resources/metrics/families'
import type { harness } from '../helpers/harness'
import type { RawRow } from './reference'

type Harness = ReturnType<typeof harness>

export const minute = 60_000

/** An aligned instant `minutesAgo` minutes before the last whole minute. */
export function minutesAgo(minutes: number): number {
  return Math.floor(Date.now() / minute) * minute - minutes * minute
}

export const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00')

/** Raw rows of one metric from the simulator's ground-truth endpoint (not through NRQL). */
export async function groundTruth(
  sim: Harness['sim'],
  q: { appId: number; name: string; host?: string; instanceName?: string; from: number; to: number }
): Promise<RawRow[]> {
  const params = new URLSearchParams({
    appId: String(q.appId),
    name: q.name,
    from: String(q.from),
    to: String(q.to),
  })
  if (q.host !== undefined) params.set('host', q.host)
  if (q.instanceName !== undefined) params.set('instanceName', q.instanceName)
  const res = await sim.fetch(new Request(`http://simulator.test/_sim/timeslices?${params}`))
  if (res.status !== 200) throw new Error(`/_sim/timeslices: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { rows: RawRow[] }).rows
}

/** The v2 host ID of `hostName`, as a client finds it: from hosts.json. */
export async function hostIdOf(get: Harness['get'], appId: number, hostName: string) {
  const res = await get(`/v2/applications/${appId}/hosts.json`)
  const body = (await res.json()) as { application_hosts: { id: number; host: string }[] }
  const hit = body.application_hosts.find((h) => h.host === hostName)
  if (!hit) throw new Error(`host ${hostName} not listed for ${appId}`)
  return hit.id
}

/** The v2 instance ID of the agent instance `host:port`, as a client finds it: from instances.json. */
export async function instanceIdOf(get: Harness['get'], appId: number, host: string, port: number) {
  const res = await get(`/v2/applications/${appId}/instances.json`)
  const body = (await res.json()) as {
    application_instances: { id: number; host: string; port: number }[]
  }
  const hit = body.application_instances.find((i) => i.host === host && i.port === port)
  if (!hit) throw new Error(`instance ${host}:${port} not listed for ${appId}`)
  return hit.id
}

export interface V2MetricData {
  from: string
  to: string
  metrics_not_found: string[]
  metrics_found: string[]
  metrics: {
    name: string
    timeslices: { from: string; to: string; values: Record<string, number> }[]
  }[]
}

export async function metricData(get: Harness['get'], path: string, init?: RequestInit) {
  const res = await get(path, init)
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text}`)
  return (JSON.parse(text) as { metric_data: V2MetricData }).metric_data
}

/** Upstream GraphQL requests and NRQL queries made by `action`. */
export async function cost(sim: Harness['sim'], action: () => unknown) {
  const before = sim.stats()
  await action()
  const after = sim.stats()
  return {
    requests: after.graphqlRequests - before.graphqlRequests,
    nrql: after.nrqlQueries - before.nrqlQueries,
    queries: after.queries.slice(after.queries.length - (after.nrqlQueries - before.nrqlQueries)),
  }
}

/** NRQL data queries a call sends: one per metric family of its names (src/resources/metrics/plan.ts). */
export const familiesOf = (names: readonly string[]) =>
  new Set(names.map((n) => familyOf(n).family)).size

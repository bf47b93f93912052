/**
 * @module resources/applications/hosts/reshape
 * v2 `application_host` and `application_instance` records (AMB and GO fixtures, v2 explorer
 * `ApplicationHostResponseType`), pure.
 */
import { healthStatus } from '../reshape'
import { instanceKey } from '../../../core/ids'
import type { Instance } from '../../../entities/topology'
import { summaryWindowMs } from '../../../../mappings/topology'
import { addSums, hasBrowserData, v2EndUserSummary, v2Summary, type Sums } from './summary'
import type { HostsView } from './load'

const windowMinutes = summaryWindowMs / 60_000

/** Instances of each host, ordered by ID. */
export function instancesByHost(view: HostsView): Map<string, Instance[]> {
  const out = new Map<string, Instance[]>()
  for (const instance of [...view.topology.instances.values()].sort((a, b) => a.id - b.id)) {
    const list = out.get(instance.host)
    if (list) list.push(instance)
    else out.set(instance.host, [instance])
  }
  return out
}

export function toV2Host(view: HostsView, host: string, id: number): Record<string, unknown> {
  const instances = instancesByHost(view).get(host) ?? []
  const sums = addSums(
    instances.flatMap((i) => view.sums.get(instanceKey(i.host, i.instanceName)) ?? [])
  )
  const record: Record<string, unknown> = {
    id,
    application_name: view.app.name,
    host,
    language: view.app.language ?? 'unknown',
    health_status: healthStatus(view.app),
  }
  if (sums) record['application_summary'] = v2Summary(sums, windowMinutes, instances.length)
  addEndUserSummary(record, view, sums)
  record['links'] = {
    application: view.app.applicationId,
    application_instances: instances.map((i) => i.id),
  }
  return record
}

/** Only where the host or instance has browser data in the window, beside an application summary
 * (v2 shows `end_user_summary` "only with browser data": PGN and HUBOT fixtures; an app's page
 * views come from the instances that served the pages, so other hosts have none). */
function addEndUserSummary(record: Record<string, unknown>, view: HostsView, sums?: Sums) {
  if (sums && view.app.apmBrowserSummary != null && hasBrowserData(sums)) {
    record['end_user_summary'] = v2EndUserSummary(sums, windowMinutes)
  }
}

/** `port` from a `host:port` instance name (an int, 0 when unknown: v2 explorer model, AMB
 * fixture). */
export function portOf(instanceName: string): number {
  const m = /:(\d{1,5})$/.exec(instanceName)
  return m && Number(m[1]) <= 65535 ? Number(m[1]) : 0
}

export function toV2Instance(view: HostsView, instance: Instance): Record<string, unknown> {
  const sums = view.sums.get(instanceKey(instance.host, instance.instanceName))
  const record: Record<string, unknown> = {
    id: instance.id,
    application_name: view.app.name,
    host: instance.host,
    port: portOf(instance.instanceName),
    language: view.app.language ?? 'unknown',
    health_status: healthStatus(view.app),
  }
  if (sums) record['application_summary'] = v2Summary(sums, windowMinutes, 1)
  addEndUserSummary(record, view, sums)
  record['links'] = {
    application: view.app.applicationId,
    application_host: view.topology.hosts.get(instance.host)!,
  }
  return record
}

/**
 * @module resources/applications/hosts/list
 * Filters and pages of host and instance lists (v2 explorer parameters; GO sends them):
 * `filter[hostname]` (case-insensitive substring, as `filter[name]`), `filter[ids]`, 200 per page
 * [OBSERVED "about 200" for lists: GRAF1, GRAF2], Link headers as for applications.
 */
import type { Context } from 'hono'
import type { Env } from '../../../http/env'
import { V2Error } from '../../../core/errors'
import { idList, pageParam } from '../../../http/params'
import { linkHeader } from '../../../http/link-header'
import {
  applicationHostLinkTemplates,
  applicationInstanceLinkTemplates,
} from '../../../../mappings/link-templates'
import { titlesNotFound } from '../../../entities/topology'
import { loadHostsView } from './load'
import { instancesByHost, toV2Host, toV2Instance } from './reshape'

export const hostPageSize = 200

function page<T>(c: Context<Env>, items: T[]) {
  const p = c.get('params')
  const n = pageParam(p)
  const lastPage = Math.max(1, Math.ceil(items.length / hostPageSize))
  const link = linkHeader(new URL(c.req.url), c.get('origin'), p.entries(), { page: n, lastPage })
  return { items: items.slice((n - 1) * hostPageSize, n * hostPageSize), link }
}

function matches(c: Context<Env>, host: string, id: number): boolean {
  const p = c.get('params')
  const needle = p.get('filter[hostname]')?.trim().toLowerCase()
  const ids = idList(p, 'filter[ids]', 'filter[id]')
  return (!needle || host.toLowerCase().includes(needle)) && (!ids || ids.includes(id))
}

const withLinks = (body: Record<string, unknown>, links: object) => ({ ...body, links })

export async function listHosts(c: Context<Env>) {
  const view = await loadHostsView(c)
  const hosts = [...view.topology.hosts]
    .sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1])
    .filter(([host, id]) => matches(c, host, id))
  const { items, link } = page(c, hosts)
  const body = { application_hosts: items.map(([host, id]) => toV2Host(view, host, id)) }
  return { body: withLinks(body, applicationHostLinkTemplates), link }
}

export async function showHost(c: Context<Env>) {
  const view = await loadHostsView(c)
  const id = Number(c.req.param('hostId'))
  const host = [...view.topology.hosts].find(([, v]) => v === id)?.[0]
  if (host === undefined) throw new V2Error(404, titlesNotFound.host)
  return withLinks({ application_host: toV2Host(view, host, id) }, applicationHostLinkTemplates)
}

export async function listInstances(c: Context<Env>) {
  const view = await loadHostsView(c)
  // By ID: v2 names no list order (D-pag: "indeterminate"); the one order its docs show for
  // instances is ascending IDs (D-hostids' `application_instances` list).
  const instances = [...instancesByHost(view).values()]
    .flat()
    .sort((a, b) => a.id - b.id)
    .filter((i) => matches(c, i.host, i.id))
  const { items, link } = page(c, instances)
  const body = { application_instances: items.map((i) => toV2Instance(view, i)) }
  return { body: withLinks(body, applicationInstanceLinkTemplates), link }
}

export async function showInstance(c: Context<Env>) {
  const view = await loadHostsView(c)
  const instance = view.topology.instances.get(Number(c.req.param('instanceId')))
  if (!instance) throw new V2Error(404, titlesNotFound.instance)
  return withLinks(
    { application_instance: toV2Instance(view, instance) },
    applicationInstanceLinkTemplates
  )
}

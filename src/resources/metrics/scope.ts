/**
 * @module resources/metrics/scope
 * The path of a metric route → the data's scope: the application (account and GUID), and for
 * `/hosts/{host_id}` or `/instances/{instance_id}` the host name and agent instance (src/entities/topology.ts).
 * Warm, each is a cache hit: the metric call itself is then the only upstream request.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { titles } from '../../core/errors'
import { pathId, resolveApplication } from '../../entities/resolve'
import { resolveHost, resolveInstance, titlesNotFound } from '../../entities/topology'
import type { MetricScope } from './plan'

export type ScopeResolver = (c: Context<Env>) => Promise<MetricScope>

async function application(c: Context<Env>) {
  return resolveApplication(c, pathId(c.req.param('id'), titles.noApplication))
}

export const applicationScope: ScopeResolver = async (c) => {
  const { accountId, guid } = await application(c)
  return { accountId, guid }
}

export const hostScope: ScopeResolver = async (c) => {
  const app = await application(c)
  const host = await resolveHost(c, app, pathId(c.req.param('hostId'), titlesNotFound.host))
  return { accountId: app.accountId, guid: app.guid, host }
}

export const instanceScope: ScopeResolver = async (c) => {
  const app = await application(c)
  const id = pathId(c.req.param('instanceId'), titlesNotFound.instance)
  const instance = await resolveInstance(c, app, id)
  return { accountId: app.accountId, guid: app.guid, ...instance }
}

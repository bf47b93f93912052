/**
 * @module simulator/v2/apm-scope — an application of the caller's account and its hosts and instances
 * by v2 ID, with v2's 404 titles (v2 explorer errorResponses; letter case as the explorer README's
 * note on recorded titles).
 */
import type { Dataset } from '../data/dataset'
import type { Application, Instance } from '../data/model'
import { idsOfSet, instanceMember } from './ids'
import type { C } from './respond'

export const NOT_FOUND = {
  application: 'No Application found with the given ID',
  host: 'No Application Host found with the given ID',
  instance: 'No Application Instance found with the given ID',
} as const

/** The app with this v2 ID in the caller's account (a key answers for its home account). */
export function appOf(dataset: Dataset, c: C, id: string | undefined): Application | undefined {
  if (!id || !/^\d+$/.test(id)) return undefined
  const app = dataset.application(Number(id))
  return app && app.accountId === c.get('accountId') ? app : undefined
}

export const hostIds = (app: Application) => idsOfSet('host', app.id, app.hosts)
export const instanceIds = (app: Application) =>
  idsOfSet(
    'instance',
    app.id,
    app.instances.map((i) => instanceMember(i.host, i.instanceName))
  )
export const instanceIdOf = (app: Application, inst: Instance) =>
  instanceIds(app).get(instanceMember(inst.host, inst.instanceName))!

export function hostById(app: Application, id: string | undefined): string | undefined {
  for (const [host, hid] of hostIds(app)) if (String(hid) === id) return host
  return undefined
}

export function instanceById(app: Application, id: string | undefined): Instance | undefined {
  return app.instances.find((i) => String(instanceIdOf(app, i)) === id)
}

/** What a metric call reads: the whole app, one host, or one instance. */
export interface Scope {
  app: Application
  host?: string
  instance?: Instance
}

/** The scope of `/applications/{id}[/hosts/{host_id}|/instances/{instance_id}]`, or a 404 title. */
export function scopeOf(dataset: Dataset, c: C): Scope | { error: string } {
  const app = appOf(dataset, c, c.req.param('application_id'))
  if (!app) return { error: NOT_FOUND.application }
  const hostId = c.req.param('host_id')
  if (hostId !== undefined) {
    const host = hostById(app, hostId)
    return host === undefined ? { error: NOT_FOUND.host } : { app, host }
  }
  const instanceId = c.req.param('instance_id')
  if (instanceId !== undefined) {
    const instance = instanceById(app, instanceId)
    return instance ? { app, host: instance.host, instance } : { error: NOT_FOUND.instance }
  }
  return { app }
}

/** Metric names a scope reports: app-wide metrics (EndUser, EndUser/Apdex) come from the app's
 * first instance only, so other hosts and instances do not have them. */
export function namesOf(scope: Scope): string[] {
  const first = scope.app.instances[0]
  const out = scope.app.metrics
    .filter(
      (m) =>
        m.perInstance ||
        (scope.instance ? scope.instance === first : !scope.host || scope.host === first?.host)
    )
    .map((m) => m.name)
  return [...new Set(out)]
}

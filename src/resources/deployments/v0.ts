/**
 * @module resources/deployments/v0
 * The legacy deployments API v0, `POST /deployments.xml` (New Relic docs "Legacy deployments API v0";
 * newrelic/newrelic_api README "Deployment Notifications"), read as the agents and scripts send it
 * (pure). Fields come as `deployment[…]` or bare; the application as `app_name`, `appname`, `app`,
 * or `application_id` / `app_id`, which the Ruby agent fills with a name. `revision` is optional in
 * v0 and required by NerdGraph: absent, it is `Unknown` (the Python agent's default revision).
 */
import { V2Error } from '../../core/errors'
import type { V2Params } from '../../http/params'
import { parseTime } from '../../core/time-range'
import { tooLong, type V2Deployment } from './plan'

export type V0Application = { id: number } | { name: string }

export interface V0Deployment {
  app: V0Application
  deployment: V2Deployment
}

const dayMs = 24 * 3_600_000

export const v0Titles = {
  noApplication: 'deployment[app_name] or deployment[application_id] is required', // [INFERRED]
  timestamp: 'Timestamp must be epoch milliseconds or ISO 8601 within the last 24 hours', // NerdGraph's window
  unknown: (app: V0Application) => `Application ${'id' in app ? app.id : app.name} does not exist.`, // Ruby agent CHANGELOG, DANB
} as const

/** Precedence when several are sent ([UNCONFIRMED] proposal; Magento and touchdown send both): a
 * numeric id, then a name field, then a non-numeric `application_id` read as a name. */
export function v0Application(get: (name: string) => string | undefined): V0Application {
  const id = [get('application_id'), get('app_id')].map((v) => v?.trim()).find((v) => v)
  if (id && /^\d{1,15}$/.test(id) && Number(id) > 0) return { id: Number(id) }
  const name = [get('app_name'), get('appname'), get('app'), id]
    .map((v) => v?.trim())
    .find((v) => v)
  if (!name) throw new V2Error(422, v0Titles.noApplication)
  return { name }
}

export function parseV0(p: V2Params, now: number): V0Deployment {
  const get = (name: string) => p.get(`deployment[${name}]`) ?? p.get(name)
  const text = (name: string) => {
    const v = get(name)
    return v === undefined || v === '' ? null : v
  }
  const deployment = {
    revision: get('revision')?.trim() || 'Unknown',
    changelog: text('changelog'),
    description: text('description'),
    user: text('user'),
    timestamp: v0Timestamp(get('timestamp'), now),
  }
  // v2's field limits (D-deploy) before NerdGraph is asked (issue 22, item 13).
  for (const name of ['revision', 'changelog', 'description', 'user'] as const) {
    const long = tooLong(name, deployment[name] ?? '')
    if (long) throw new V2Error(422, long)
  }
  return { app: v0Application(get), deployment }
}

/** The Java agent sends epoch ms (`System.currentTimeMillis()`); ISO 8601 is read too. */
function v0Timestamp(raw: string | undefined, now: number): number | undefined {
  const text = raw?.trim()
  if (!text) return undefined
  let ms: number
  try {
    ms = /^\d{1,15}$/.test(text) ? Number(text) : parseTime(text, 'from')
  } catch {
    throw new V2Error(422, v0Titles.timestamp)
  }
  if (Math.abs(ms - now) > dayMs) throw new V2Error(422, v0Titles.timestamp)
  return ms
}

/**
 * @module simulator/v2/standin — a small stand-in for the REST API v2 endpoints New Relic keeps
 * (policies and the condition families), served by the simulator under `/v2` so forwarding can be
 * tested and shown offline. Policies are the simulator's alerts policies (NerdGraph sees what v2
 * creates); conditions are v2-shaped rows per family (conditions.ts); bodies are JSON or XML
 * (render.ts). Shapes: GO pkg/alerts fixtures and the v2 explorer models; titles: the swagger's
 * error reasons; `missing parameter: policy_id` with 400 and `Cache-Control: no-cache` as
 * docs-website issue #7091 recorded it.
 *
 * APM reads (apm-apps.ts, apm-metrics.ts) are computed from the raw dataset by v2's definitions, never
 * through NRQL or NerdGraph: the oracle v2bridge's answers are compared with (issue 24).
 *
 * Every route answers with `answer(c, body, status)` and fails with `error(c, status, title)`
 * (respond.ts). `answer` passes a 2xx body through `finish(c, body)` (perturb.ts): the perturbation
 * and noise switches (`POST /_sim/v2`) apply to every stand-in answer. A route module that renders
 * itself must call `finish(c, body)` on its final body before rendering.
 */
import { Hono } from 'hono'
import { alertsOf, type AlertsState } from '../data/alerts/state'
import type { Dataset } from '../data/dataset'
import { DEMO_LEGACY_KEY_ACCOUNTS, DEMO_LEGACY_KEYS, principalFor } from '../data/keys'
import { applicationRoutes } from './apm-apps'
import { appWriteRoutes } from './app-writes'
import { alertsReadRoutes } from './alerts'
import { alertsWriteRoutes } from './alerts-writes'
import { metricRoutes } from './apm-metrics'
import { deploymentWriteRoutes, v0Deployment } from './deployment-writes'
import { conditionFamilies, seedConditions, type Family, type V2Row } from './conditions'
import { v2SwitchesOf } from './perturb'
import { labelWriteRoutes } from './label-writes'
import { resourceRoutes } from './resources'
import { answer, error, routePath, type Body, type C, type Env } from './respond'
import { serverRoutes } from './servers'

type Policy = AlertsState['policies'][number]

/** The object under `key` in a JSON body, or undefined. */
async function input(c: C, key: string): Promise<Body | undefined> {
  try {
    const value = ((await c.req.json()) as Body)[key]
    return value !== null && typeof value === 'object' ? (value as Body) : undefined
  } catch {
    return undefined
  }
}

const policyOut = (p: Policy) => ({
  id: p.id,
  incident_preference: p.incidentPreference,
  name: p.name,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
})

const preferences: readonly string[] = ['PER_POLICY', 'PER_CONDITION', 'PER_CONDITION_AND_TARGET']
const hidden = (r: V2Row) =>
  Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'policy_id'))

/** The account a key acts for in the v2 world, or null: a user key for the account it was created in,
 * an account's REST API key (`x-api-key`) or license key (`x-license-key`, v0 only) for that account. */
function accountOfKey(key: string, header: 'x-api-key' | 'x-license-key'): number | null {
  const k = key.trim()
  if (header === 'x-license-key')
    return k === DEMO_LEGACY_KEYS.license ? DEMO_LEGACY_KEY_ACCOUNTS.license : null
  return (
    principalFor(k)?.homeAccountId ??
    (k === DEMO_LEGACY_KEYS.rest ? DEMO_LEGACY_KEY_ACCOUNTS.rest : null)
  )
}

/** The stand-in for one simulator's dataset. */
export function v2StandIn(dataset: Dataset): Hono<Env> {
  const app = new Hono<Env>({
    getPath: (req) => routePath(new URL(req.url).pathname),
  }).basePath('/v2')
  const state = () => alertsOf(dataset)
  let seeded: { epoch: number; rows: Record<string, V2Row[]> } | undefined
  const rowsOf = (family: Family) => {
    if (seeded?.epoch !== state().epoch)
      seeded = { epoch: state().epoch, rows: seedConditions(state()) }
    return (seeded.rows[family.path] ??= [])
  }

  app.use('*', async (c, next) => {
    const key = c.req.header('x-api-key') ?? c.req.header('api-key')
    if (!key?.trim()) return error(c, 401, 'No API key specified')
    const account = accountOfKey(key, 'x-api-key')
    if (account === null) return error(c, 401, 'Invalid API Key')
    c.set('accountId', account)
    c.set('switches', v2SwitchesOf(dataset).current)
    await next()
  })
  const policyOf = (c: C, id: string | undefined) =>
    state().policies.find((p) => String(p.id) === id && p.accountId === c.get('accountId'))

  app.get('/alerts_policies', (c) => {
    const name = c.req.query('filter[name]')?.trim().toLowerCase()
    const policies = state().policies.filter(
      (p) => p.accountId === c.get('accountId') && (!name || p.name.toLowerCase() === name)
    )
    return answer(c, { policies: policies.map(policyOut) })
  })
  app.post('/alerts_policies', async (c) => {
    const body = (await input(c, 'policy')) ?? {}
    const pref = String(body['incident_preference'] ?? 'PER_POLICY')
    if (typeof body['name'] !== 'string' || !body['name'].trim() || !preferences.includes(pref))
      return error(
        c,
        422,
        'Validation or internal error occurred while trying to create the Alerts policy'
      )
    const now = dataset.now()
    const policy = {
      ...{ id: state().nextId(), accountId: c.get('accountId'), name: body['name'] },
      ...{
        incidentPreference: pref as Policy['incidentPreference'],
        createdAt: now,
        updatedAt: now,
      },
    }
    state().policies.push(policy)
    return answer(c, { policy: policyOut(policy) }, 201)
  })
  app.put('/alerts_policies/:id', async (c) => {
    const policy = policyOf(c, c.req.param('id'))
    if (!policy) return error(c, 404, 'Alerts policy could not be found for updating')
    const body = (await input(c, 'policy')) ?? {}
    if (typeof body['name'] === 'string' && body['name'].trim()) policy.name = body['name']
    const pref = String(body['incident_preference'])
    if (preferences.includes(pref)) policy.incidentPreference = pref as Policy['incidentPreference']
    policy.updatedAt = dataset.now()
    return answer(c, { policy: policyOut(policy) })
  })
  app.delete('/alerts_policies/:id', (c) => {
    const policy = policyOf(c, c.req.param('id'))
    if (!policy) return error(c, 404, 'Alerts policy could not be found for deleting')
    const s = state()
    s.policies = s.policies.filter((p) => p !== policy)
    for (const ch of s.channels) ch.policyIds = ch.policyIds.filter((id) => id !== policy.id)
    for (const family of conditionFamilies) {
      const rows = rowsOf(family)
      rows.splice(0, rows.length, ...rows.filter((r) => r['policy_id'] !== policy.id))
    }
    return answer(c, { policy: policyOut(policy) })
  })

  for (const family of conditionFamilies) conditionRoutes(app, family, rowsOf, policyOf, state)
  app.get('/alerts_entity_conditions/:entity_id', (c) =>
    c.req.query('entity_type')
      ? answer(c, { conditions: [] })
      : error(c, 400, 'missing parameter: entity_type')
  )
  applicationRoutes(app, dataset)
  metricRoutes(app, dataset)
  resourceRoutes(app, dataset)
  deploymentWriteRoutes(app, dataset)
  alertsReadRoutes(app, dataset)
  appWriteRoutes(app, dataset)
  serverRoutes(app)
  labelWriteRoutes(app, dataset)
  alertsWriteRoutes(app, dataset)
  app.notFound((c) => error(c, 404, 'Not found'))
  return app
}

/** List (by `policy_id` or under `/policies/{id}`), create, update and delete of one family. */
function conditionRoutes(
  app: Hono<Env>,
  family: Family,
  rowsOf: (f: Family) => V2Row[],
  policyOf: (c: C, id: string | undefined) => Policy | undefined,
  state: () => AlertsState
) {
  const list = (c: C, policyId: string | undefined) => {
    if (!policyOf(c, policyId)) return error(c, 404, 'No Alerts policy was found for the given ID')
    const rows = rowsOf(family).filter((r) => String(r['policy_id']) === policyId)
    return answer(c, { [family.list]: rows.map(hidden) })
  }
  if (family.listByQuery)
    app.get(`/${family.path}`, (c) => {
      const policyId = c.req.query('policy_id')?.trim()
      return policyId ? list(c, policyId) : error(c, 400, 'missing parameter: policy_id')
    })
  app.get(`/${family.path}/policies/:policy_id`, (c) => list(c, c.req.param('policy_id')))
  app.post(`/${family.path}/policies/:policy_id`, async (c) => {
    const policy = policyOf(c, c.req.param('policy_id'))
    if (!policy) return error(c, 404, 'No alert policy was found with the given ID')
    const body = await input(c, family.single)
    if (typeof body?.['name'] !== 'string')
      return error(c, 422, 'Validation error occurred while trying to create the alert condition')
    const { id: _ignored, ...rest } = body
    const id = state().nextId()
    const row: V2Row = { ...('type' in rest ? { type: rest['type'] } : {}), id, ...rest }
    rowsOf(family).push({ ...row, policy_id: policy.id })
    return answer(c, { [family.single]: row }, 201)
  })
  const one = (c: C) =>
    rowsOf(family).find(
      (r) => String(r['id']) === c.req.param('id') && policyOf(c, String(r['policy_id']))
    )
  app.put(`/${family.path}/:id`, async (c) => {
    const row = one(c)
    if (!row) return error(c, 404, 'No Alerts condition was found with the given ID')
    for (const [k, v] of Object.entries((await input(c, family.single)) ?? {}))
      if (k !== 'id' && k !== 'policy_id') row[k] = v
    return answer(c, { [family.single]: hidden(row) })
  })
  app.delete(`/${family.path}/:id`, (c) => {
    const row = one(c)
    if (!row) return error(c, 404, 'No Alerts condition was found with the given ID')
    rowsOf(family).splice(rowsOf(family).indexOf(row), 1)
    return answer(c, { [family.single]: hidden(row) })
  })
}

/** The legacy v0 `POST /deployments.xml` on the same dataset (deployment-writes.ts): a user key or an
 * account's REST API key in `x-api-key`, or its license key in `x-license-key`. */
export function v0StandIn(dataset: Dataset): Hono<Env> {
  const app = new Hono<Env>()
  app.post('/deployments.xml', (c) => {
    const apiKey = c.req.header('x-api-key')
    const account = apiKey
      ? accountOfKey(apiKey, 'x-api-key')
      : accountOfKey(c.req.header('x-license-key') ?? '', 'x-license-key')
    return v0Deployment(c, dataset, account)
  })
  return app
}

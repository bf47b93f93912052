/**
 * @module simulator/v2/deployment-writes — recording a deployment as v2 and the legacy v0 API did, so
 * compare mode's `v2` setting (writes go to v2 only) works against the stand-in too:
 * - `POST /v2/applications/{id}/deployments`: body `{"deployment": {revision, changelog, description,
 *   user, timestamp}}` (New Relic docs "Record and view deployments (v2)"): 201 with the deployment
 *   as the list shows it (newrelic-client-go pkg/apm deployments test answers 201); `revision`
 *   required, at most 127 characters, `user` 31; a timestamp not in the future and after the latest
 *   deployment.
 * - `POST /deployments.xml` (v0): `deployment[app_name]` or `deployment[application_id]` (an id, or a
 *   name as the Ruby agent sends it), a user key, REST API key or license key; 201 with Rails-typed,
 *   dasherized XML as the pyrelic fixture recorded; an unknown app 422 `<errors><error>Application …
 *   does not exist.</error></errors>` (Ruby agent changelog wording, ekino's recorded 422).
 * Both record into the dataset's change-tracking store, where NerdGraph's `deploymentSearch` then sees
 * them, as New Relic shows v2-recorded deployments in change tracking.
 */
import type { Hono } from 'hono'
import type { Dataset } from '../data/dataset'
import type { SimDeployment } from '../data/apm/deployment-store'
import type { Application } from '../data/model'
import { appOf, NOT_FOUND } from './apm-scope'
import { deploymentIds, deploymentLinks, deploymentOut } from './apm-apps'
import { answer, error, type Body, type C, type Env } from './respond'

const limits = { revision: 127, changelog: 65535, description: 65535, user: 31 } as const
type Field = keyof typeof limits
const labels: Record<Field, string> = {
  revision: 'Revision',
  changelog: 'Changelog',
  description: 'Description',
  user: 'User',
}

/** `deployment[…]` fields of a JSON (`{"deployment": {…}}`) or form body, or undefined without them. */
async function deploymentFields(c: C): Promise<Map<string, string> | undefined> {
  const text = await c.req.raw
    .clone()
    .text()
    .catch(() => '')
  const out = new Map<string, string>()
  if ((c.req.header('content-type') ?? '').includes('json')) {
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return undefined
    }
    const d = (body as Body | null)?.['deployment']
    if (d === null || typeof d !== 'object') return undefined
    for (const [k, v] of Object.entries(d as Body)) if (v !== null) out.set(k, String(v))
    return out
  }
  const pairs = [...new URLSearchParams(text), ...new URL(c.req.url).searchParams]
  let found = false
  for (const [k, v] of pairs) {
    const m = /^deployment\[(\w+)\]$/.exec(k)
    if (m) {
      found = true
      out.set(m[1]!, v)
    }
  }
  return found ? out : undefined
}

/** Records a deployment: it and the v2 ID it gets. */
function record(dataset: Dataset, app: Application, f: Map<string, string>, at: number) {
  const text = (name: string) => f.get(name) || null
  const d: SimDeployment = {
    deploymentId: crypto.randomUUID(),
    entityGuid: app.guid,
    version: f.get('revision') || 'Unknown', // v0: revision optional (the Python agent's default)
    changelog: text('changelog'),
    commit: null,
    description: text('description'),
    user: text('user'),
    timestamp: at,
    deploymentType: 'BASIC',
    groupId: null,
    deepLink: null,
  }
  dataset.deployments.add(d)
  return { d, id: deploymentIds(dataset, app).get(d.deploymentId)! }
}

/** Messages for fields past v2's limits. */
const tooLong = (f: Map<string, string>) =>
  (Object.keys(limits) as Field[])
    .filter((k) => [...(f.get(k) ?? '')].length > limits[k])
    .map((k) => `${labels[k]} is too long (maximum is ${limits[k]} characters)`)

/** `POST /v2/applications/{id}/deployments` on the stand-in (mounted under `/v2`). */
export function deploymentWriteRoutes(app: Hono<Env>, dataset: Dataset) {
  app.post('/applications/:application_id/deployments', async (c) => {
    const a = appOf(dataset, c, c.req.param('application_id'))
    if (!a) return error(c, 404, NOT_FOUND.application)
    const f = await deploymentFields(c)
    if (!f) return error(c, 400, 'missing parameter: deployment') // deployphp PR #175, recorded
    if (!f.get('revision')?.trim()) return error(c, 400, 'Revision parameter required') // swagger 1.1
    const now = dataset.now()
    const messages = tooLong(f)
    let at = now
    const raw = f.get('timestamp')
    if (raw) {
      at = Math.floor(Date.parse(raw) / 1000) * 1000
      const latest = dataset.deployments.of(a.guid)[0]?.timestamp ?? -Infinity
      if (Number.isNaN(at)) messages.push('Timestamp is not an ISO 8601 time')
      else if (at > now) messages.push('Timestamp must not be in the future')
      else if (at <= latest) messages.push('Timestamp must be after the latest deployment')
    }
    if (messages.length)
      return answer(c, { error: { title: 'Validation failed', messages } } as Body, 422)
    const { d, id } = record(dataset, a, f, at)
    const deployment = deploymentOut(a, d, new Map([[d.deploymentId, id]]))
    return answer(c, { deployment, links: deploymentLinks }, 201)
  })
}

const xmlText = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** v0's error body: Rails `Errors#to_xml`. */
const v0Error = (status: number, message: string) =>
  new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<errors>\n  <error>${xmlText(message)}</error>\n</errors>\n`,
    { status, headers: { 'Content-Type': 'application/xml; charset=utf-8' } }
  )

/** The pyrelic fixture's elements in its (alphabetical) order; `avg-*` carry no value (nil). */
const v0Averages: readonly [string, 'integer' | 'float'][] = [
  ['avg-apdex-f', 'integer'],
  ['avg-apdex-s', 'integer'],
  ['avg-apdex-t', 'integer'],
  ['avg-apdex-threshold', 'float'],
  ['avg-cpu', 'float'],
  ['avg-db', 'float'],
  ['avg-enduser-apdex-f', 'integer'],
  ['avg-enduser-apdex-s', 'integer'],
  ['avg-enduser-apdex-t', 'integer'],
  ['avg-enduser-apdex-threshold', 'integer'],
  ['avg-enduser-rt', 'float'],
  ['avg-enduser-throughput', 'float'],
  ['avg-errors', 'float'],
  ['avg-memory', 'float'],
  ['avg-rt', 'float'],
  ['avg-throughput', 'float'],
]

/**
 * `POST /deployments.xml`, the legacy v0 API, for a caller in `accountId` (the key's account); `null`
 * when the key is not one v0 accepts.
 */
export async function v0Deployment(c: C, dataset: Dataset, accountId: number | null) {
  if (accountId === null) return v0Error(401, 'Invalid API key') // contract proposal (v0 status unconfirmed)
  const f = (await deploymentFields(c)) ?? new Map<string, string>()
  const ref = f.get('application_id')?.trim() || f.get('app_name')?.trim()
  // "exactly one of app_name or application_id is required" (newrelic_api README); wording proposed
  if (!ref) return v0Error(422, 'deployment[app_name] or deployment[application_id] is required')
  const app =
    (/^\d+$/.test(ref) ? dataset.application(Number(ref)) : undefined) ??
    dataset.applications(accountId).find((a) => a.name === ref)
  if (!app || app.accountId !== accountId) return v0Error(422, `Application ${ref} does not exist.`)
  const long = tooLong(f)
  if (long.length) return v0Error(422, long[0]!)
  const now = dataset.now()
  const { id } = record(dataset, app, f, now)
  const value = (name: string, v: string | number | null, type?: string) =>
    `  <${name}${type ? ` type="${type}"` : ''}${v === null ? ' nil="true"' : ''}>${v === null ? '' : xmlText(String(v))}</${name}>`
  const lines = [
    value('account-id', accountId, 'integer'),
    value('agent-id', app.id, 'integer'),
    ...v0Averages.map(([name, type]) => value(name, null, type)),
    value('changelog', f.get('changelog') || null),
    value('description', f.get('description') || null),
    value('end-time', null, 'datetime'),
    value('id', id, 'integer'),
    value('revision', f.get('revision') || 'Unknown'),
    value('timestamp', new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'), 'datetime'),
    value('user', f.get('user') || null),
  ]
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<deployment>\n${lines.join('\n')}\n</deployment>\n`,
    { status: 201, headers: { 'Content-Type': 'application/xml; charset=utf-8' } }
  )
}

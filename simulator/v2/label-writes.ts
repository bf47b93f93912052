/**
 * @module simulator/v2/label-writes — `PUT /v2/labels` and `DELETE /v2/labels/{key}` on the stand-in.
 * A label `Category:Name` on an application is its tag `Category` with the value `Name` (New Relic
 * docs "Migrate from REST API v2 to NerdGraph": labels became entity tags), kept in the tag store
 * the simulated NerdGraph's tagging mutations change, so `entity.tags` and `GET /v2/labels` both
 * show a write. New Relic docs-website labels-examples-v2/create-labels-apps-v2.mdx: create takes
 * `{"label": {category, name, links: {applications, servers}}}` and answers 201 (created) or 304
 * (nothing changed); delete takes `Category:Name` and answers 200 with the label, 404 for an unknown
 * one. v2 explorer labels DELETE: "When applications are provided, this endpoint will remove those
 * applications from the label." Titles the sources do not give are worded as v2's other errors
 * [INFERRED]; the tag rules (no `:` in a key, 128 and 256 characters, platform keys refused) are
 * NerdGraph's (TaggingMutationErrorType in its schema).
 */
import type { Hono } from 'hono'
import type { Dataset } from '../data/dataset'
import type { Application } from '../data/model'
import { NOT_FOUND } from './apm-scope'
import { labelOut, labelsOf } from './resources'
import { answer, error, type C, type Env } from './respond'
import { NO_SERVER } from './servers'
import { at, isTree, list, text, writeParams } from './write-body'

export const NO_LABEL = 'No Label found with the given ID'

/** Tag keys the platform sets itself; NerdGraph's tagging mutations refuse them. */
const PLATFORM_KEYS: ReadonlySet<string> = new Set([
  'account',
  'accountId',
  'guid',
  'language',
  'trustedAccountId',
])

/** Adds or removes the tag value `name` under `category`; false when there was nothing to do. */
function retag(dataset: Dataset, app: Application, category: string, name: string, add: boolean) {
  const tags = dataset.resources.state.tags(app.guid) ?? app.tags
  const values = tags.find((t) => t.key === category)?.values ?? []
  if (values.includes(name) === add) return false
  const next = add ? [...values, name] : values.filter((v) => v !== name)
  const others = tags.filter((t) => t.key !== category)
  dataset.resources.state.setTags(app.guid, [
    ...others,
    ...(next.length ? [{ key: category, values: next }] : []),
  ])
  return true
}

function labelMessages(category: string, name: string): string[] {
  const out: string[] = []
  if (!category) out.push("Category can't be blank")
  else if (category.includes(':') || category.length > 128 || PLATFORM_KEYS.has(category))
    out.push('Category is invalid')
  if (!name) out.push("Name can't be blank")
  else if (name.length > 256) out.push('Name is too long (maximum is 256 characters)')
  return out
}

/** The applications of the caller's account named by `ids`, or the ID that is not one. */
function appsNamed(dataset: Dataset, c: C, ids: readonly string[]) {
  const apps: Application[] = []
  for (const id of ids) {
    const a = /^\d+$/.test(id) ? dataset.application(Number(id)) : undefined
    if (!a || a.accountId !== c.get('accountId')) return { missing: id }
    if (!apps.includes(a)) apps.push(a)
  }
  return { apps }
}

export function labelWriteRoutes(app: Hono<Env>, dataset: Dataset): void {
  const current = (c: C, key: string) =>
    labelsOf(dataset, c.get('accountId')).find((l) => l['key'] === key)
  const appsOf = (label: Record<string, unknown>) =>
    ((label['links'] as { applications: number[] }).applications ?? []).map((id) =>
      dataset.application(id)!
    )

  app.put('/labels', async (c) => {
    const input = at(await writeParams(c), 'label')
    if (!isTree(input)) return error(c, 400, 'missing parameter: label')
    const category = text(input, 'category') ?? ''
    const name = text(input, 'name') ?? ''
    const messages = labelMessages(category, name)
    if (messages.length) return answer(c, { error: { title: 'Validation failed', messages } }, 422)
    if (list(input, 'links', 'servers').length > 0) return error(c, 404, NO_SERVER)
    const named = appsNamed(dataset, c, list(input, 'links', 'applications'))
    if (!named.apps) return error(c, 404, NOT_FOUND.application)
    const key = `${category}:${name}`
    const existed = current(c, key) !== undefined
    let changed = 0
    for (const a of named.apps) if (retag(dataset, a, category, name, true)) changed += 1
    if (changed === 0 && (named.apps.length > 0 || existed))
      return new Response(null, { status: 304 })
    // A label on no application is answered, but kept nowhere: tags live on entities only.
    return answer(c, { label: current(c, key) ?? labelOut(category, name, []) }, 201)
  })

  app.delete('/labels/:key', async (c) => {
    const key = c.req.param('key')
    const label = current(c, key)
    if (!label) return error(c, 404, NO_LABEL)
    const [category, name] = [label['category'] as string, label['name'] as string]
    const p = await writeParams(c)
    const given = [...list(p, 'label', 'links', 'applications'), ...list(p, 'applications')]
    const carrying = appsOf(label)
    const removed = given.length ? carrying.filter((a) => given.includes(String(a.id))) : carrying
    for (const a of removed) retag(dataset, a, category, name, false)
    if (!given.length) return answer(c, { label })
    const left = carrying.filter((a) => !removed.includes(a))
    return answer(c, { label: labelOut(category, name, left) })
  })
}

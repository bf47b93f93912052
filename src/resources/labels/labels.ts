/**
 * @module resources/labels/labels
 * `GET /v2/labels`, `PUT /v2/labels` and `DELETE /v2/labels/{key}` over entity tags of APM
 * applications (New Relic docs "Create labels for apps (API v2)"; create answers 201,
 * or 304 when every application already carries the label; delete answers the label removed, or
 * what is left when it names applications, 404 when no application carries it). Labels aggregate
 * every application, so a list reads every search page of the key's applications, cached a
 * minute; writes always read them fresh.
 */
import type { Context } from 'hono'
import { detailsFrom, detailsPart } from '../../entities/entity-details'
import type { Env } from '../../http/env'
import { V2Error, titles } from '../../core/errors'
import { linkHeader } from '../../http/link-header'
import { idList, pageParam, type V2Params } from '../../http/params'
import { singleAccount } from '../../entities/accounts'
import { resolveApplications } from '../../entities/resolve'
import { lastPage, searchPageSize } from '../../entities/search-pages'
import { gql } from 'graphql-request'
import { quote } from '../../core/nrql'
import {
  labelEntitiesSelection,
  labelSearchDocument,
  taggingDocument,
  type LabelSearchData,
  type TaggedEntity,
  type TaggingData,
} from './documents'
import { recordOwnTagging, withOwnTagging } from './own'
import { isSystemKey, labelsOf, toV2Label, type Label } from './reshape'
import { defineCache } from '../../core/cache'

const minute = 60 * 1000

/** per search query: APM applications and their tags, for labels. */
export const taggedApplicationsCache = defineCache<TaggedEntity[]>('taggedApplications', {
  freshMs: minute,
  maxBytes: 8 * 2 ** 20,
})

export const noLabel = 'No Label found with the given ID' // [UNCONFIRMED proposal]

/** The search pages a label list reads at most (200 applications each). */
const maxPages = 100

/** Applications one label write may name: the work of a request stays bounded (two searches and
 * one tagging document per 200; docs/errors-and-limits.md). */
export const maxLabelApplications = 1000

/** The search condition of applications carrying `category:name`, when the category can be named
 * in a search (`tags.<key>`, entity search syntax); else none, and every application is read. */
function tagged(category: string, name: string): string {
  return /^[A-Za-z_][\w.]*$/.test(category) ? ` AND tags.${category} = ${quote(name)}` : ''
}

async function taggedApplications(
  c: Context<Env>,
  fresh: boolean,
  condition = ''
): Promise<TaggedEntity[]> {
  // Labels belonged to the key's account in v2: the one-account chain (src/entities/accounts.ts).
  const account = await singleAccount(c)
  const query = `domain = 'APM' AND type = 'APPLICATION' AND accountId = ${account}${condition}`
  const cache = c.get('caches').of(taggedApplicationsCache)
  const hit = fresh ? undefined : cache.get(c.get('keyHash'), query)
  if (hit) return hit
  const all: TaggedEntity[] = []
  let cursor: string | null = null
  for (let n = 0; n < maxPages; n++) {
    const { data }: { data: LabelSearchData } = await c
      .get('nerdgraph')
      .query<LabelSearchData>(labelSearchDocument, { query, cursor })
    all.push(...(data.actor.entitySearch?.results.entities ?? []))
    cursor = data.actor.entitySearch?.results.nextCursor ?? null
    if (!cursor) break
  }
  cache.set(c.get('keyHash'), query, all)
  return all
}

export async function listLabels(c: Context<Env>) {
  const p = c.get('params')
  const page = pageParam(p)
  const found = await taggedApplications(c, false)
  const labels = labelsOf(withOwnTagging(c, await singleAccount(c), found))
  const slice = labels.slice((page - 1) * searchPageSize, page * searchPageSize)
  const link = linkHeader(new URL(c.req.url), c.get('origin'), p.entries(), {
    page,
    lastPage: lastPage(labels.length),
  })
  return { body: { labels: slice.map(toV2Label) }, link }
}

function invalid(message: string): V2Error {
  return new V2Error(422, 'Validation failed', { messages: [message] })
}

/** `{"label": {"category", "name", "links": {"applications": [ids]}}}`, JSON or form fields. */
function labelParams(p: V2Params) {
  if (!p.entries().some(([k]) => k.startsWith('label['))) {
    throw new V2Error(400, 'missing parameter: label') // docs-website issue #7091 shape
  }
  const category = p.get('label[category]')?.trim() ?? ''
  const name = p.get('label[name]')?.trim() ?? ''
  if (!category) throw invalid("Category can't be blank")
  if (!name) throw invalid("Name can't be blank")
  // NerdGraph refuses `:` in a tag key and caps keys at 128, values at 256 characters (the
  // TaggingMutationErrorType docs); checked first so a write is never half-done.
  if (category.includes(':') || category.length > 128) throw invalid('Category is invalid')
  if (name.length > 256) throw invalid('Name is too long')
  if (isSystemKey(category)) throw invalid(`Category ${category} is reserved by New Relic`)
  // "You may omit the applications OR servers arrays" (explorer labels PUT); ambitioninc/newrelic-api
  // labels.py `create` sends `"applications": []`.
  const ids = idList(p, 'label[links][applications]') ?? []
  if (ids.length > maxLabelApplications)
    throw invalid(`Links may name at most ${maxLabelApplications} applications`)
  return { category, name, ids }
}

type Tagging = 'add' | 'delete'
const undoOf = { add: 'delete', delete: 'add' } as const
const tagsFor = (m: Tagging, key: string, value: string) =>
  m === 'add' ? [{ key, values: [value] }] : [{ key, value }]

export const taggingTitles = {
  undone: 'NerdGraph refused to change the tags of some applications; no application was changed',
  stuck:
    'NerdGraph refused to change the tags of some applications, and changing the others back failed',
} as const

/** One tagging mutation on each GUID: the indexes it refused (payload errors or a null alias). */
async function tagEach(c: Context<Env>, mutation: Tagging, guids: string[], tags: unknown) {
  const variables = Object.fromEntries(guids.map((g, i) => [`g${i}`, g]))
  const { data, errors } = await c
    .get('nerdgraph')
    .query<TaggingData>(taggingDocument(mutation, guids.length), { ...variables, tags })
  c.get('caches').of(taggedApplicationsCache).clear()
  const refused = guids.flatMap((_, i) => {
    const result = data?.[`t${i}`]
    return !result || (result.errors?.length ?? 0) > 0 ? [i] : []
  })
  const types = Object.values(data ?? {}).flatMap((r) => (r?.errors ?? []).map((e) => e.type))
  return { refused, messages: [...types, ...errors.map((e) => e.message)], types }
}

/** Refusals that only the caller can change, by NerdGraph's `TaggingMutationErrorType` (its schema
 * descriptions: a limit reached, an invalid key or value): v2's 422 once nothing is left changed
 * (issue 40, item 10). The messages are ours ([UNCONFIRMED]: v2's own wording is not known). */
const callerRefusals: Record<string, string> = {
  TOO_MANY_TAG_VALUES: 'An application has reached its limit of label names',
  TOO_MANY_TAG_KEYS: 'An application has reached its limit of label categories',
  INVALID_KEY: 'Category is invalid',
  INVALID_VALUE: 'Name is invalid',
}

/**
 * Adds or deletes `key:value` on every GUID, all or nothing: when NerdGraph refuses some, the
 * others are changed back with the opposite mutation (once; a write is never retried blindly),
 * and the answer, 502, says whether that worked.
 */
async function tag(
  c: Context<Env>,
  mutation: Tagging,
  guids: string[],
  key: string,
  value: string
) {
  if (guids.length === 0) return
  const { refused, messages, types } = await tagEach(
    c,
    mutation,
    guids,
    tagsFor(mutation, key, value)
  )
  if (refused.length === 0) return
  const applied = guids.filter((_, i) => !refused.includes(i))
  let undone = applied.length === 0
  if (!undone) {
    const undo = undoOf[mutation]
    undone = await tagEach(c, undo, applied, tagsFor(undo, key, value)).then(
      (r) => r.refused.length === 0,
      () => false
    )
  }
  const caller = types.length > 0 && types.every((t) => t in callerRefusals)
  if (undone && caller) throw invalid([...new Set(types.map((t) => callerRefusals[t]!))].join('; '))
  const title = undone ? taggingTitles.undone : taggingTitles.stuck
  throw new V2Error(502, title, { messages })
}

const entitiesDocument = (n: number) => {
  const part = detailsPart(
    Array.from({ length: n }, (_, i) => String(i)),
    labelEntitiesSelection
  )
  return gql`query LabelEntities(${part.vars.slice(2)}) { actor { ${part.fields} } }`
}

/** The label `category:name` as the account's applications carry it now, or undefined. */
async function currentLabel(c: Context<Env>, category: string, name: string) {
  const found = await taggedApplications(c, true, tagged(category, name))
  const only = { key: category, value: name }
  return labelsOf(withOwnTagging(c, await singleAccount(c), found, only)).find(
    (l) => l.category === category && l.name === name
  )
}

export async function createLabel(
  c: Context<Env>
): Promise<{ status: 201 | 304; body?: Record<string, unknown> }> {
  const { category, name, ids } = labelParams(c.get('params'))
  if (ids.length === 0) {
    // A label on no application: 304 when the account has it, else v2's 201 with empty links.
    // NerdGraph keeps tags only on entities, so nothing is stored and the list will not show it
    // (docs/differences.md).
    if (await currentLabel(c, category, name)) return { status: 304 }
    return { status: 201, body: { label: toV2Label({ category, name, apps: [] }) } }
  }
  const account = await singleAccount(c)
  const resolved = await resolveApplications(c, ids)
  if (resolved.some((r) => r.accountId !== account)) throw new V2Error(404, titles.noApplication)
  const part = detailsPart(
    resolved.map((r) => r.guid),
    labelEntitiesSelection
  )
  const { data } = await c
    .get('nerdgraph')
    .query<{ actor: Record<string, unknown> }>(entitiesDocument(resolved.length), part.variables)
  const entities = detailsFrom<TaggedEntity>(data.actor)
  if (entities.length !== new Set(resolved.map((r) => r.guid)).size) {
    throw new V2Error(404, titles.noApplication)
  }
  const has = (e: TaggedEntity) =>
    (e.tags ?? []).some((t) => t.key === category && t.values.includes(name))
  const named = new Set(entities.map((e) => e.guid))
  const current = withOwnTagging(c, account, entities).filter((e) => named.has(e.guid))
  const missing = current.filter((e) => !has(e))
  if (missing.length === 0) return { status: 304 }
  await tag(
    c,
    'add',
    missing.map((e) => e.guid),
    category,
    name
  )
  recordOwnTagging(c, account, 'add', missing, category, name)
  const label: Label = { category, name, apps: entities }
  return { status: 201, body: { label: toV2Label(label) } }
}

/**
 * `DELETE /v2/labels/{key}`: with no applications, removes the label from every application and
 * answers it as it was; with applications named (`label[links][applications]`, as PUT takes them,
 * or `applications`), removes it from those only, "When applications are provided, this endpoint
 * will remove those applications from the label" (explorer labels DELETE), and answers the label
 * as it is after [INFERRED]. 404 when no application of the account carries it.
 */
export async function deleteLabel(c: Context<Env>) {
  const key = c.req.param('key') ?? ''
  const colon = key.indexOf(':')
  if (colon <= 0 || isSystemKey(key.slice(0, colon))) throw new V2Error(404, noLabel)
  const [category, name] = [key.slice(0, colon), key.slice(colon + 1)]
  const named = idList(c.get('params'), 'label[links][applications]', 'applications')
  const label = await currentLabel(c, category, name)
  if (!label) throw new V2Error(404, noLabel)
  const wanted = named ? new Set(named) : undefined
  const removed = wanted
    ? label.apps.filter((a) => a.applicationId !== undefined && wanted.has(a.applicationId))
    : label.apps
  await tag(
    c,
    'delete',
    removed.map((a) => a.guid),
    label.category,
    label.name
  )
  recordOwnTagging(c, await singleAccount(c), 'delete', removed, label.category, label.name)
  if (!wanted) return { label: toV2Label(label) }
  return { label: toV2Label({ ...label, apps: label.apps.filter((a) => !removed.includes(a)) }) }
}

export const labelDocuments = { entitiesDocument }

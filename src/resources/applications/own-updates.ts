/**
 * @module resources/applications/own-updates
 * Read-your-writes for `PUT /v2/applications/{id}` (src/core/own-writes.ts): what an update changed
 * in the record (the name, settings, the Apdex targets of the summaries, `end_user_summary` gone with
 * real user monitoring) shows in the key's own show and list reads while NerdGraph's reads may still
 * have the record as it was.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { defineOwnWrites, ownWrites, recordOwnWrite } from '../../core/own-writes'

type V2Record = Record<string, unknown>

/** What one update changed: fields set (of an object field, only the members that changed) and
 * fields the answer no longer has. */
interface Change {
  set: V2Record
  removed: string[]
}

/** per account and application: what the key's own updates changed. */
export const ownUpdatesCache = defineOwnWrites<Change>('ownApplicationUpdates')

const scopeOf = (accountId: number, appId: number) => `${accountId}:${appId}`
const isObject = (v: unknown): v is V2Record =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** The fields of `after` that differ from `before`; an object field by its members. */
export function changeOf(before: V2Record, after: V2Record): Change {
  const set: V2Record = {}
  for (const [k, v] of Object.entries(after)) {
    const was = before[k]
    if (same(was, v)) continue
    set[k] =
      isObject(was) && isObject(v)
        ? Object.fromEntries(Object.entries(v).filter(([m, x]) => !same(was[m], x)))
        : v
  }
  return { set, removed: Object.keys(before).filter((k) => !(k in after)) }
}

/** `record` with `change` laid over it; an object field only where the record has it. */
export function applyChange(record: V2Record, change: Change): V2Record {
  const out: V2Record = {}
  for (const [k, v] of Object.entries(record)) {
    if (change.removed.includes(k)) continue
    const to = change.set[k]
    out[k] = to === undefined ? v : isObject(v) && isObject(to) ? { ...v, ...to } : to
  }
  return out
}

/** After NerdGraph accepted an update: the record shown before and the one answered. */
export function recordOwnUpdate(
  c: Context<Env>,
  accountId: number,
  before: V2Record,
  after: V2Record
) {
  const cache = c.get('caches').of(ownUpdatesCache)
  const scope = scopeOf(accountId, after['id'] as number)
  recordOwnWrite(cache, c.get('keyHash'), scope, changeOf(before, after))
}

/** `record` with the key's own updates laid over it, oldest first. */
export function withOwnUpdates(c: Context<Env>, accountId: number, record: V2Record): V2Record {
  const cache = c.get('caches').of(ownUpdatesCache)
  const changes = ownWrites(cache, c.get('keyHash'), scopeOf(accountId, record['id'] as number))
  return changes.reduce(applyChange, record)
}

/**
 * @module resources/labels/own
 * Read-your-writes for labels (src/core/own-writes.ts): a label the key put on or took off
 * applications shows so in its own label reads while NerdGraph's search may still show the tags as
 * they were (more than a minute: newrelic/terraform-provider-newrelic issues #791 and #1556).
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { defineOwnWrites, ownWrites, recordOwnWrite } from '../../core/own-writes'
import type { TaggedEntity } from './documents'

export interface OwnTagging {
  op: 'add' | 'delete'
  /** The application as the write read it. */
  entity: TaggedEntity
  key: string
  value: string
}

/** per account: the tag changes the key made. */
export const ownTaggingCache = defineOwnWrites<OwnTagging>('ownTagging')

/** After NerdGraph accepted a tagging of `entities`. */
export function recordOwnTagging(
  c: Context<Env>,
  account: number,
  op: OwnTagging['op'],
  entities: readonly TaggedEntity[],
  key: string,
  value: string
) {
  const cache = c.get('caches').of(ownTaggingCache)
  for (const entity of entities) {
    recordOwnWrite(cache, c.get('keyHash'), String(account), { op, entity, key, value })
  }
}

function apply(tags: TaggedEntity['tags'], w: OwnTagging): TaggedEntity['tags'] {
  const rest = (tags ?? []).filter((t) => t.key !== w.key)
  const values =
    (tags ?? []).find((t) => t.key === w.key)?.values.filter((v) => v !== w.value) ?? []
  const next = w.op === 'add' ? [...values, w.value] : values
  return next.length ? [...rest, { key: w.key, values: next }] : rest
}

/**
 * A search's applications with the key's own tag changes laid over them; `only`: the search asked
 * for applications carrying that label, so one the key just labelled is added when missing.
 */
export function withOwnTagging(
  c: Context<Env>,
  account: number,
  found: readonly TaggedEntity[],
  only?: { key: string; value: string }
): TaggedEntity[] {
  const writes = ownWrites(c.get('caches').of(ownTaggingCache), c.get('keyHash'), String(account))
  if (writes.length === 0) return [...found]
  const byGuid = new Map(found.map((e) => [e.guid, e]))
  for (const w of writes) {
    const e = byGuid.get(w.entity.guid)
    const wanted = !only || (only.key === w.key && only.value === w.value)
    if (!e && !(w.op === 'add' && wanted)) continue
    const base = e ?? w.entity
    byGuid.set(base.guid, { ...base, tags: apply(base.tags, w) })
  }
  return [...byGuid.values()]
}

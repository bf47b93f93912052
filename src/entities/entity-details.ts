/**
 * @module entities/entity-details
 * Fields that entity search outlines lack (a key transaction's metric name, a browser app's loader
 * script), fetched with `actor.entities` — 25 GUIDs a call (its limit in the schema), as aliases
 * `e0`, `e1`… of one document beside any other fields the page needs — and cached per key and GUID:
 * they change rarely, so a page whose details are cached needs no request for them.
 */
import type { Context } from 'hono'
import type { Env } from '../http/env'
import { defineCache } from '../core/cache'

const minute = 60 * 1000

/** per kind and GUID: fields entity search lacks; they rarely change. */
export const entityDetailsCache = defineCache<unknown>('entityDetails', {
  freshMs: 60 * minute,
  maxBytes: 8 * 2 ** 20,
})

export const guidsPerCall = 25

export interface DetailsPart {
  /** Variable declarations, `, $e0: [EntityGuid]!…` */
  vars: string
  /** Selections, `e0: entities(guids: $e0) { … }…` */
  fields: string
  variables: Record<string, string[]>
}

/** The aliases that fetch `guids` with `selection` on each entity. */
export function detailsPart(guids: readonly string[], selection: string): DetailsPart {
  const chunks: string[][] = []
  for (let i = 0; i < guids.length; i += guidsPerCall) chunks.push(guids.slice(i, i + guidsPerCall))
  return {
    vars: chunks.map((_, i) => `, $e${i}: [EntityGuid]!`).join(''),
    fields: chunks.map((_, i) => `e${i}: entities(guids: $e${i}) { ${selection} }`).join('\n'),
    variables: Object.fromEntries(chunks.map((chunk, i) => [`e${i}`, chunk])),
  }
}

/** Every entity the aliases returned (missing ones are not visible or do not exist). */
export function detailsFrom<T extends { guid: string }>(actor: Record<string, unknown>): T[] {
  return Object.entries(actor)
    .filter(([k, v]) => /^e\d+$/.test(k) && Array.isArray(v))
    .flatMap(([, v]) => (v as (T | null)[]).filter((e): e is T => e !== null))
}

export function cachedDetails<T>(c: Context<Env>, kind: string, guid: string): T | undefined {
  return c.get('caches').of(entityDetailsCache).get(c.get('keyHash'), `${kind}\u0000${guid}`) as
    T | undefined
}

export function rememberDetails(c: Context<Env>, kind: string, guid: string, value: unknown) {
  c.get('caches').of(entityDetailsCache).set(c.get('keyHash'), `${kind}\u0000${guid}`, value)
}

/**
 * @module entities/resolve-entity
 * v2 ID of a key transaction, browser or mobile application → account and entity GUID
 * (`acct|DOMAIN|TYPE|id`, entity-definitions guid_spec). With a pinned account the GUID is computed;
 * otherwise entity search finds it (`domainId = 'ID' AND domain = … AND type = …`) and it is cached
 * per key.
 */
import type { Context } from 'hono'
import type { Env } from '../http/env'
import { V2Error } from '../core/errors'
import type { NerdGraphResult } from '../upstream/nerdgraph'
import { quote } from '../core/nrql'
import { findEntity, pathId, pinnedAccount, queryOwned } from './resolve'
import { defineCache } from '../core/cache'

const minute = 60 * 1000

/** per domain, type and v2 ID: account and GUID of a non-APM entity; IDs are stable. */
export const resolvedCache = defineCache<{ accountId: number; guid: string }>('resolved', {
  freshMs: 60 * minute,
  maxBytes: 2 ** 20,
})

export interface EntityKind {
  domain: string
  type: string
  /** The v2 404 title of this resource. */
  notFound: string
}

export interface ResolvedEntity {
  id: number
  accountId: number
  guid: string
}

export function entityGuid(kind: EntityKind, accountId: number, id: number): string {
  return btoa(`${accountId}|${kind.domain}|${kind.type}|${id}`).replace(/=+$/, '')
}

/**
 * Resolves the `:id` path parameter; unknown or malformed IDs are the resource's 404. Under a pinned
 * account the GUID is computed, unless `verify`: routes whose answer cannot tell a missing entity
 * (NRQL over a GUID that does not exist answers empty) search for it once, cached.
 */
export async function resolveEntity(
  c: Context<Env>,
  kind: EntityKind,
  { verify = false } = {}
): Promise<ResolvedEntity> {
  const id = pathId(c.req.param('id'), kind.notFound)
  const accountId = pinnedAccount(c)
  if (accountId !== undefined && !verify) {
    return { id, accountId, guid: entityGuid(kind, accountId, id) }
  }
  const pinned = accountId === undefined ? '' : ` AND accountId = ${quote(accountId)}`
  const key = `${accountId ?? ''}|${kind.domain}|${kind.type}|${id}`
  const cache = c.get('caches').of(resolvedCache)
  const hit = cache.get(c.get('keyHash'), key)
  if (hit) return { id, ...hit }
  const found = await findEntity(
    c,
    `domainId = ${quote(id)} AND domain = ${quote(kind.domain)} AND type = ${quote(kind.type)}${pinned}`
  )
  if (!found) throw new V2Error(404, kind.notFound)
  cache.set(c.get('keyHash'), key, { accountId: found.accountId, guid: found.guid })
  return { id, accountId: found.accountId, guid: found.guid }
}

/** A query about one resolved entity: an account the key cannot see reads as its 404. */
export function queryEntity<T>(
  c: Context<Env>,
  kind: EntityKind,
  document: string,
  variables: Record<string, unknown>
): Promise<NerdGraphResult<T>> {
  return queryOwned<T>(c, kind.notFound, document, variables)
}

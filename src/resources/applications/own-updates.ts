/**
 * @module resources/applications/own-updates
 * Read-your-writes for `PUT /v2/applications/{id}` (src/core/own-writes.ts): the name and settings
 * a key set show in its own show and list reads while NerdGraph's reads may still have the old ones.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { defineOwnWrites, ownWrites, recordOwnWrite } from '../../core/own-writes'

type Update = Pick<Record<string, unknown>, 'name' | 'settings'>

/** per account and application: the name and settings of the key's own updates. */
export const ownUpdatesCache = defineOwnWrites<Update>('ownApplicationUpdates')

const scopeOf = (accountId: number, appId: number) => `${accountId}:${appId}`

/** After NerdGraph accepted an update: the record it answered with. */
export function recordOwnUpdate(
  c: Context<Env>,
  accountId: number,
  record: Record<string, unknown>
) {
  const { name, settings } = record
  const cache = c.get('caches').of(ownUpdatesCache)
  recordOwnWrite(cache, c.get('keyHash'), scopeOf(accountId, record['id'] as number), {
    name,
    settings,
  })
}

/** `record` with the key's own updates laid over it, newest last. */
export function withOwnUpdates(
  c: Context<Env>,
  accountId: number,
  record: Record<string, unknown>
): Record<string, unknown> {
  const cache = c.get('caches').of(ownUpdatesCache)
  const updates = ownWrites(cache, c.get('keyHash'), scopeOf(accountId, record['id'] as number))
  return updates.reduce<Record<string, unknown>>((r, u) => ({ ...r, ...u }), record)
}

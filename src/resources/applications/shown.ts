/**
 * @module resources/applications/shown
 * The v2 application record last shown to a key (GET show or a list page), per account and ID, so
 * `PUT` and `DELETE` answer from their one mutation (src/resources/applications/writes.ts).
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { defineCache } from '../../core/cache'

const minute = 60 * 1000

/** per account and application: the v2 record last shown (show or list page), so PUT and DELETE
 * answer from their mutation alone (writes.ts); a minute at most, as list figures. */
export const shownApplicationsCache = defineCache<Record<string, unknown>>('shownApplications', {
  freshMs: minute,
  maxBytes: 8 * 2 ** 20,
})

const keyOf = (accountId: number, appId: number) => `${accountId}:${appId}`

export function rememberShown(c: Context<Env>, accountId: number, record: Record<string, unknown>) {
  c.get('caches')
    .of(shownApplicationsCache)
    .set(c.get('keyHash'), keyOf(accountId, record['id'] as number), record)
}

export function recallShown(c: Context<Env>, accountId: number, appId: number) {
  return c.get('caches').of(shownApplicationsCache).get(c.get('keyHash'), keyOf(accountId, appId))
}

export function forgetShown(c: Context<Env>, accountId: number, appId: number) {
  c.get('caches').of(shownApplicationsCache).delete(c.get('keyHash'), keyOf(accountId, appId))
}

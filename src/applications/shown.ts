/**
 * @module applications/shown
 * The v2 application record last shown to a key (GET show or a list page), per account and ID, so
 * `PUT` and `DELETE` answer from their one mutation (src/applications/writes.ts).
 */
import type { Context } from 'hono'
import type { Env } from '../env'

const keyOf = (accountId: number, appId: number) => `${accountId}:${appId}`

export function rememberShown(c: Context<Env>, accountId: number, record: Record<string, unknown>) {
  c.get('caches').shownApplications.set(
    c.get('keyHash'),
    keyOf(accountId, record['id'] as number),
    record
  )
}

export function recallShown(c: Context<Env>, accountId: number, appId: number) {
  return c.get('caches').shownApplications.get(c.get('keyHash'), keyOf(accountId, appId))
}

export function forgetShown(c: Context<Env>, accountId: number, appId: number) {
  c.get('caches').shownApplications.delete(c.get('keyHash'), keyOf(accountId, appId))
}

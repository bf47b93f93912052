/**
 * @module resources/alerts/scope
 * What every alerts call shares: the account it reads, and v2 page N as NerdGraph cursor page N.
 */
import type { Context } from 'hono'
import { singleAccount } from '../../entities/accounts'
import { isForbiddenAccount } from '../../entities/resolve'
import type { Env } from '../../http/env'
import { linkHeader } from '../../http/link-header'
import { defineCache } from '../../core/cache'
import { cursorOf, emptyWalk, learnStep, type CursorWalk } from '../../entities/cursor-walk'

const minute = 60 * 1000

/** per alerts list and window: the NerdGraph cursors learnt (src/entities/cursor-walk.ts). */
export const alertCursorsCache = defineCache<CursorWalk>('alertCursors', {
  freshMs: 10 * minute,
  maxBytes: 2 ** 20,
})

/** v2 answered alerts for the account the key was made in: the one-account chain of every route
 * that needs a single account (src/entities/accounts.ts `singleAccount`). */
export const alertsAccount = singleAccount

export interface CursorPage<T> {
  items: T[]
  nextCursor: string | null
}

/**
 * v2 page `page` of a cursor-paged NerdGraph list: one NerdGraph page per v2 page (the v2 page size of
 * alerts lists is [UNCONFIRMED]), through the cursor walk every paged list shares
 * (src/entities/cursor-walk.ts): O(1) local work for any page, one request per page never read.
 * Past the end: an empty page.
 */
export async function cursorPage<T>(
  c: Context<Env>,
  list: string,
  page: number,
  fetchPage: (cursor: string | null) => Promise<CursorPage<T>>
): Promise<CursorPage<T>> {
  const keyHash = c.get('keyHash')
  const cache = c.get('caches').of(alertCursorsCache)
  const walk = cache.get(keyHash, list) ?? emptyWalk()
  try {
    const cursor = await cursorOf(walk, page, async (_n, at) => ({
      next: (await fetchPage(at ?? null)).nextCursor,
    }))
    if (cursor === null) return { items: [], nextCursor: null }
    const result = await fetchPage(cursor ?? null)
    learnStep(walk, page, { next: result.nextCursor })
    return result
  } catch (err) {
    // An account the key cannot see holds nothing for it: an empty page, as on every list
    // (README, Pinned account), never a 403 of its own.
    if (isForbiddenAccount(err)) return { items: [], nextCursor: null }
    throw err
  } finally {
    cache.set(keyHash, list, walk)
  }
}

/** The v2 `page` and the Link header of a list whose end is known only by a missing next cursor:
 * `next`, then `first` and `prev`; never `last` (alerts_violations never has one, D-pag) [INFERRED
 * for the other alerts lists, whose last page NerdGraph cannot tell without walking them]. */
export function pageLink(c: Context<Env>, page: number, hasNext: boolean): string | undefined {
  return linkHeader(new URL(c.req.url), c.get('origin'), c.get('params').entries(), {
    page,
    hasNext,
  })
}

/** How far back alerts lists read when v2 gave no dates: v2 listed an account's alerts history,
 * NerdGraph's aiIssues read a time window; 30 days [INFERRED]. */
export const alertsWindowMs = 30 * 24 * 60 * 60 * 1000

/** The default window, ending at the next whole minute (so cursors stay valid within a minute). */
export function alertsWindow(now = Date.now()): { startTime: number; endTime: number } {
  const endTime = Math.floor(now / 60_000) * 60_000 + 60_000
  return { startTime: endTime - alertsWindowMs, endTime }
}

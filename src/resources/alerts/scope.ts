/**
 * @module resources/alerts/scope
 * What every alerts call shares: the account it reads, v2 page N through the cursor walk, its
 * Link header, and the time windows lists read back through (paging.ts gathers the pages).
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
  /** False when the page was answered without reading it (past the end, or an account not seen). */
  read?: boolean
}

/**
 * v2 page `page` of a list whose pages `fetchPage` reads from a cursor of its own, through the
 * cursor walk every paged list shares (src/entities/cursor-walk.ts): O(1) local work for any page,
 * one read per page never read. Past the end: an empty page.
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
    if (cursor === null) return { items: [], nextCursor: null, read: false }
    const result = await fetchPage(cursor ?? null)
    learnStep(walk, page, { next: result.nextCursor })
    return { ...result, read: true }
  } catch (err) {
    // An account the key cannot see holds nothing for it: an empty page, as on every list
    // (docs/keys-and-accounts.md), never a 403 of its own.
    if (isForbiddenAccount(err)) return { items: [], nextCursor: null, read: false }
    throw err
  } finally {
    cache.set(keyHash, list, walk)
  }
}

/** The v2 `page` and the Link header of a list whose end is known only by a missing next cursor:
 * `next`, then `first` and `prev`; no `last`. v2 sent none on alerts_violations (New Relic docs
 * "Pagination for API output"); incidents and events had one, but NerdGraph's aiIssues give no
 * count, so their last page cannot be told without walking the whole history. */
export function pageLink(c: Context<Env>, page: number, hasNext: boolean): string | undefined {
  return linkHeader(new URL(c.req.url), c.get('origin'), c.get('params').entries(), {
    page,
    hasNext,
  })
}

/** The Link header of a list whose last page is known: `next`, `last`, `first`, `prev`. */
export function listLink(c: Context<Env>, page: number, lastPage: number): string | undefined {
  return linkHeader(new URL(c.req.url), c.get('origin'), c.get('params').entries(), {
    page,
    lastPage,
  })
}

/** The span of one NerdGraph time window of an alerts list [INFERRED: NerdGraph documents no
 * maximum for `aiIssues` windows; 30 days is what v2bridge asks at once]. */
export const alertsWindowMs = 30 * 24 * 60 * 60 * 1000

/** How far back alerts lists page: v2 listed an account's whole alerts history, NerdGraph keeps it
 * for the account's retention [UNCONFIRMED: a year is the proposal, as for deployments]. */
export const alertsHistoryMs = 366 * 24 * 60 * 60 * 1000

export interface Window {
  startTime: number
  endTime: number
}

/** The newest default window, ending at the next whole minute (so cursors stay valid within a
 * minute). */
export function alertsWindow(now = Date.now()): Window {
  const endTime = Math.floor(now / 60_000) * 60_000 + 60_000
  return { startTime: endTime - alertsWindowMs, endTime }
}

/** `[start, end]` cut into windows of `alertsWindowMs`, newest first; `start` defaults to the
 * history kept, `end` to the default window's end. */
export function alertsWindows(start?: number, end = alertsWindow().endTime): Window[] {
  const from = Math.max(start ?? end - alertsHistoryMs, end - alertsHistoryMs)
  const windows: Window[] = []
  for (let top = end; windows.length === 0 || top > from; top -= alertsWindowMs)
    windows.push({ startTime: Math.max(from, top - alertsWindowMs), endTime: top })
  return windows
}

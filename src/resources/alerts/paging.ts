/**
 * @module resources/alerts/paging
 * v2 pages of 200 alerts items gathered from NerdGraph cursor pages, read back in time windows
 * (incidents, violations) or by cursor alone (channels); events page by time (events.ts).
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { cursorPage, type CursorPage, type Window } from './scope'

/** v2 page size of the alerts lists [UNCONFIRMED; proposal 200, as the other v2 lists]. */
export const alertsPageSize = 200

interface Position {
  window: number
  cursor: string | null
  /** Items of that NerdGraph page already shown on the page before. */
  skip: number
  /** Where the page before ended in time (its oldest item): the top of this page's span. */
  bound?: number
}

const encode = (p: Position) => `${p.window}.${p.skip}.${p.bound ?? ''}.${p.cursor ?? ''}`
function decode(text: string | undefined): Position {
  const m = /^(\d+)\.(\d+)\.(\d*)\.(.*)$/s.exec(text ?? '')
  if (!m) return { window: 0, cursor: null, skip: 0 }
  const bound = m[3] ? { bound: Number(m[3]) } : {}
  return { window: Number(m[1]), skip: Number(m[2]), cursor: m[4] || null, ...bound }
}

type Step<T> = { items: T[]; at: Position; next: Position | null }
type Stepper<T> = (at: Position) => Promise<Step<T>>

/**
 * One step of a list read window after window, newest first: the NerdGraph page at `at`, keeping
 * only what was created inside that window (a window may also hold what was still open in it, which
 * belongs to an older one: each item is listed once, in the window of its `createdAt`). A page left
 * empty reads on into the next window, at most one request per window.
 */
function windowStepper<T extends { createdAt: number }>(
  windows: Window[],
  fetchPage: (window: Window, cursor: string | null) => Promise<CursorPage<T>>
): Stepper<T> {
  return async (from) => {
    let at = from
    for (let hops = 0; ; hops += 1) {
      const window = windows[at.window]!
      const found = await fetchPage(window, at.cursor)
      const newest = at.window === 0
      const items = found.items.filter(
        (i) =>
          i.createdAt >= window.startTime &&
          (newest ? i.createdAt <= window.endTime : i.createdAt < window.endTime)
      )
      // Newest first: an item older than the window ends its own part of the list.
      const older = found.items.some((i) => i.createdAt < window.startTime)
      const next: Position | null =
        !older && found.nextCursor
          ? { window: at.window, cursor: found.nextCursor, skip: 0 }
          : at.window + 1 < windows.length
            ? { window: at.window + 1, cursor: null, skip: 0 }
            : null
      if (items.length > 0 || next === null || hops >= windows.length) return { items, at, next }
      at = next
    }
  }
}

/** The steps of a list read by cursor alone (no time windows). */
function cursorStepper<T>(fetchPage: (cursor: string | null) => Promise<CursorPage<T>>) {
  return async (at: Position): Promise<Step<T>> => {
    const found = await fetchPage(at.cursor)
    const next = found.nextCursor ? { window: 0, cursor: found.nextCursor, skip: 0 } : null
    return { items: found.items, at, next }
  }
}

/**
 * v2 page `page` of `alertsPageSize` items gathered from NerdGraph pages by `step`, through the
 * cursor walk of every paged list (only pages never read are walked). A page costs the NerdGraph
 * pages it spans plus at most two requests per window (empty windows, and a look ahead so that
 * `rel="next"` never leads to an empty page).
 */
async function sizedPage<T>(
  c: Context<Env>,
  list: string,
  page: number,
  step: Stepper<T>,
  onPage: (items: T[], at: Position, next: Position | null) => number | undefined = () => undefined
) {
  return cursorPage(c, list, page, async (cursor) => {
    const start = decode(cursor ?? undefined)
    const items: T[] = []
    let at: Position | null = start
    let next: Position | null = null
    while (at) {
      const read = await step(at)
      const skip = read.at === at ? at.skip : 0
      const fresh = read.items.slice(skip)
      const room = alertsPageSize - items.length
      items.push(...fresh.slice(0, room))
      if (fresh.length > room) {
        next = { ...read.at, skip: skip + room }
        break
      }
      next = read.next
      if (items.length >= alertsPageSize) break
      at = next
    }
    // A next page that opens an older window may hold nothing: look before linking to it.
    if (next && next.cursor === null && next.skip === 0 && items.length > 0) {
      const ahead = await step(next)
      if (ahead.items.length === 0) next = ahead.next
    }
    const bound = onPage(items, start, next)
    return {
      items,
      nextCursor: next && encode({ ...next, ...(bound !== undefined ? { bound } : {}) }),
    }
  })
}

/** A v2 page of a list read by NerdGraph cursor, `alertsPageSize` items per page. */
export async function cursorSizedPage<T>(
  c: Context<Env>,
  list: string,
  page: number,
  fetchPage: (cursor: string | null) => Promise<CursorPage<T>>
) {
  return sizedPage(c, list, page, cursorStepper(fetchPage))
}

/**
 * v2 page `page` of an alerts list read back in time windows until the history kept
 * (`alertsWindows`), `alertsPageSize` items per page. `span` is the stretch of time the page
 * stands for: from its oldest item (the history's start on the
 * last page) up to where the page before ended, so the spans of all pages tile the history; null
 * for a page past the end.
 */
export async function windowedPage<T extends { createdAt: number }>(
  c: Context<Env>,
  list: string,
  page: number,
  windows: Window[],
  fetchPage: (window: Window, cursor: string | null) => Promise<CursorPage<T>>
): Promise<{ items: T[]; span: Window | null; nextCursor: string | null }> {
  let span: Window | null = null
  const { items, nextCursor, read } = await sizedPage(
    c,
    list,
    page,
    windowStepper(windows, fetchPage),
    (items, start, next) => {
      const oldest = items.length
        ? Math.min(...items.map((i) => i.createdAt))
        : windows.at(-1)!.startTime
      span = {
        startTime: next ? oldest : windows.at(-1)!.startTime,
        endTime: start.bound ?? windows[0]!.endTime,
      }
      return span.startTime
    }
  )
  return { items, span: read ? span : null, nextCursor }
}

/** Every step of a windowed list from its start, for a search that must find one item. */
export async function* windowedSteps<T extends { createdAt: number }>(
  windows: Window[],
  fetchPage: (window: Window, cursor: string | null) => Promise<CursorPage<T>>
) {
  const step = windowStepper(windows, fetchPage)
  let at: Position | null = { window: 0, cursor: null, skip: 0 }
  while (at) {
    const read: Step<T> = await step(at)
    yield read.items
    at = read.next
  }
}

/**
 * @module entities/cursor-walk
 * v2 page N of a NerdGraph list paged by opaque cursors, the one mechanism every paged list shares
 * (entity search, alerts incidents, violations, events and channels). NerdGraph can only go from a
 * page to the next, so the cursors learnt are kept contiguous per key and list: `cursors[n]` opens
 * page n (n ≥ 2), null past the end. Local work is O(1) for any page number: a walk starts at the
 * highest cursor known (the array's end), a page past the known end answers at once, and only
 * pages never read cost NerdGraph requests, one each, ending where the list ends.
 */

export interface CursorWalk {
  cursors: (string | null)[]
  /** The last page, when the list says how many items it has (entity search's `count`). */
  lastPage?: number
}

/** What reading page n told about the pages after it. */
export interface PageStep {
  next: string | null
  lastPage?: number
}

export const emptyWalk = (): CursorWalk => ({ cursors: [] })

/** Records what page `n` said; cursors stay contiguous, so a page read out of order teaches only
 * the last page. */
export function learnStep(walk: CursorWalk, n: number, step: PageStep): CursorWalk {
  if (n === 1 || walk.cursors[n] !== undefined) walk.cursors[n + 1] = step.next
  if (step.lastPage !== undefined) walk.lastPage = step.lastPage
  return walk
}

/** True when `page` is known to lie past the end of the list. */
export function pastEnd(walk: CursorWalk, page: number): boolean {
  if (walk.lastPage !== undefined && page > walk.lastPage) return true
  const known = walk.cursors.length - 1
  return page > 1 && walk.cursors[Math.min(page, known)] === null
}

/**
 * The cursor that opens `page`: undefined for page 1, null past the end. `read(n, cursor)` reads
 * page n (cursor undefined for page 1) for each page between the highest known and `page`.
 */
export async function cursorOf(
  walk: CursorWalk,
  page: number,
  read: (n: number, cursor: string | undefined) => Promise<PageStep>
): Promise<string | null | undefined> {
  if (page === 1) return undefined
  for (let n = Math.min(page, Math.max(1, walk.cursors.length - 1)); ; n += 1) {
    if (pastEnd(walk, page) || (n > 1 && walk.cursors[n] === null)) return null
    if (n === page) return walk.cursors[page]
    learnStep(walk, n, await read(n, walk.cursors[n] ?? undefined))
  }
}

/**
 * @module search-pages
 * v2 `page` N of an entity-search list: NerdGraph pages by opaque cursor, 200 entities a page, the
 * same as a v2 page (about 200: GRAF1 PR #35, GRAF2 PR #1). Cursors are remembered per key and query,
 * so walking pages in order costs one request per page; jumping ahead walks the missing cursors
 * first. Every list sorts by name, the order the cursor walk and the page itself must share.
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import type { Env } from './env'
import { V2Error } from './errors'
import { decodeGuid } from './identity'

export const searchPageSize = 200

export const searchCursorDocument = gql`
  query SearchCursor($query: String!, $cursor: String) {
    actor {
      entitySearch(query: $query, sortByWithDirection: [{ attribute: NAME, direction: ASC }]) {
        count
        results(cursor: $cursor) {
          nextCursor
        }
      }
    }
  }
`

interface SearchCursorData {
  actor: { entitySearch: SearchPage | null }
}

/** What one entity-search page says about the pages: the next cursor and the count. */
export interface SearchPage {
  count: number
  results: { nextCursor: string | null }
}

/** What is known of one query's pages: `cursors[n]` opens page n (learnt in order from page 2, null
 * past the end) and the last page from the search's `count`. */
export interface CursorWalk {
  cursors: (string | null)[]
  lastPage?: number
}

function cursorWalk(c: Context<Env>, query: string): CursorWalk {
  return c.get('caches').cursors.get(c.get('keyHash'), query) ?? { cursors: [] }
}

/** The cursor that opens `page` (undefined for page 1), walking forward from the last one known;
 * null past the end. Local work is O(1) in `page`: a page past the search's `count` is answered
 * without walking. */
export async function searchCursor(c: Context<Env>, query: string, page: number) {
  if (page === 1) return undefined
  let walk = cursorWalk(c, query)
  let n = Math.min(page, Math.max(1, walk.cursors.length - 1))
  for (;;) {
    if (walk.lastPage !== undefined && page > walk.lastPage) return null
    if (n > 1 && walk.cursors[n] === null) return null
    if (n === page) return walk.cursors[page]
    const { data } = await c.get('nerdgraph').query<SearchCursorData>(searchCursorDocument, {
      query,
      cursor: walk.cursors[n] ?? null,
    })
    walk = learnPage(c, query, n, data.actor.entitySearch)
    n += 1
  }
}

/** Records what the search of `page` said: the cursor of the next page and the last page. */
export function learnPage(
  c: Context<Env>,
  query: string,
  page: number,
  search: SearchPage | null
): CursorWalk {
  const walk = cursorWalk(c, query)
  // Cursors stay contiguous, so the last one known is the highest (see searchCursor).
  if (page === 1 || walk.cursors[page] !== undefined)
    walk.cursors[page + 1] = search?.results.nextCursor ?? null
  walk.lastPage = lastPage(search?.count)
  c.get('caches').cursors.set(c.get('keyHash'), query, walk)
  return walk
}

/** The last v2 page of a list of `count` entities (1 when empty). */
export function lastPage(count: number | null | undefined): number {
  return Math.max(1, Math.ceil((count ?? 0) / searchPageSize))
}

/** The v2 integer ID of an entity: its GUID's domain ID (D-migrate: `domainId = '<id>'`). */
export function v2Id(guid: string): number {
  const id = Number(decodeGuid(guid)?.domainId)
  if (!Number.isSafeInteger(id)) throw new V2Error(502, 'NerdGraph sent an entity without a v2 ID')
  return id
}

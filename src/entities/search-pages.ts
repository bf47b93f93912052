/**
 * @module entities/search-pages
 * v2 `page` N of an entity-search list: NerdGraph pages by opaque cursor, 200 entities a page, the
 * same as a v2 page (about 200: GRAF1 PR #35, GRAF2 PR #1). Cursors are remembered per key and query,
 * so walking pages in order costs one request per page; jumping ahead walks the missing cursors
 * first (src/entities/cursor-walk.ts). Every list sorts by name, the order the cursor walk and the page itself must share.
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import type { Env } from '../http/env'
import { V2Error } from '../core/errors'
import { decodeGuid } from '../core/identity'
import { defineCache } from '../core/cache'
import { cursorOf, emptyWalk, learnStep, type CursorWalk } from './cursor-walk'

const minute = 60 * 1000

/** entity-search cursors and last page per query. */
export const cursorsCache = defineCache<CursorWalk>('cursors', {
  freshMs: 10 * minute,
  maxBytes: 4 * 2 ** 20,
})

export const searchPageSize = 200

/**
 * The document of one search page of a v2 list: entity search sorted by name (the order the cursor
 * walk and the page share), its count, the cursor of the next page and `selection` of each entity.
 * One builder for every list, so they cannot drift apart.
 */
export function searchPageDocument(name: string, selection: string): string {
  return gql`
    query ${name}($query: String!, $cursor: String) {
      actor {
        entitySearch(query: $query, sortByWithDirection: [{ attribute: NAME, direction: ASC }]) {
          count
          results(cursor: $cursor) { nextCursor entities { ${selection} } }
        }
      }
    }
  `
}

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

export type { CursorWalk }

function cursorWalk(c: Context<Env>, query: string): CursorWalk {
  return c.get('caches').of(cursorsCache).get(c.get('keyHash'), query) ?? emptyWalk()
}

/** The cursor that opens `page` (undefined for page 1), walking forward from the last one known
 * (src/entities/cursor-walk.ts); null past the end, known at once past the search's `count`. */
export async function searchCursor(c: Context<Env>, query: string, page: number) {
  const walk = cursorWalk(c, query)
  try {
    return await cursorOf(walk, page, async (_n, cursor) => {
      const { data } = await c.get('nerdgraph').query<SearchCursorData>(searchCursorDocument, {
        query,
        cursor: cursor ?? null,
      })
      return stepOf(data.actor.entitySearch)
    })
  } finally {
    c.get('caches').of(cursorsCache).set(c.get('keyHash'), query, walk)
  }
}

const stepOf = (search: SearchPage | null) => ({
  next: search?.results.nextCursor ?? null,
  lastPage: lastPage(search?.count),
})

/** Records what the search of `page` said: the cursor of the next page and the last page. */
export function learnPage(
  c: Context<Env>,
  query: string,
  page: number,
  search: SearchPage | null
): CursorWalk {
  const walk = learnStep(cursorWalk(c, query), page, stepOf(search))
  c.get('caches').of(cursorsCache).set(c.get('keyHash'), query, walk)
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

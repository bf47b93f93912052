/**
 * @module applications/list
 * `GET /v2/applications`: one entity-search page per v2 page (both are 200 long: GRAF1 PR #35 and
 * GRAF2 PR #1 "200 apps max per page"; entity search pages by 200), cursors remembered per key and
 * query so walking pages in order costs one
 * NerdGraph request per page.
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import type { Env } from '../env'
import { refreshInBackground } from '../background'
import { linkHeader } from '../link-header'
import { isForbiddenAccount, pinnedAccount, rememberApplication } from '../resolve'
import { applicationLinkTemplates } from '../../mappings/link-templates'
import {
  accountsDocument,
  insightsDocument,
  listApplicationsDocument,
  type AccountAliases,
  type AccountsData,
  type InsightsData,
  type ListApplicationsData,
} from './documents'
import { cachedInsights, insightsNrql, rememberInsights, type AccountInsights } from './members'
import { pageParam } from '../params'
import { applicationFilters, applicationSearchQuery } from './plan'
import { toV2Application } from './reshape'
import { rememberShown } from './shown'

export const pageSize = 200

const nextCursorDocument = gql`
  query ApplicationCursor($query: String!, $cursor: String) {
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

interface NextCursorData {
  actor: { entitySearch: { count: number; results: { nextCursor: string | null } } | null }
}

/** What is known of one query's pages: `cursors[n]` opens page n (learnt in order from page 2, null
 * past the end) and the last page from the search's `count`. */
export interface CursorWalk {
  cursors: (string | null)[]
  lastPage?: number
}

export const listDocuments = { nextCursorDocument, accountsDocument }

/** The accounts a call reads: the pinned one, else every account the key sees (cached per key). */
export async function visibleAccounts(c: Context<Env>): Promise<number[]> {
  const pinned = pinnedAccount(c)
  if (pinned !== undefined) return [pinned]
  const accountsCache = c.get('caches').accounts
  const hit = accountsCache.get(c.get('keyHash'), 'accounts')
  if (hit) return hit
  const { data } = await c
    .get('nerdgraph')
    .query<AccountsData>(accountsDocument, {}, { lookup: true })
  const ids = (data.actor.accounts ?? []).map((a) => a.id).sort((a, b) => a - b)
  accountsCache.set(c.get('keyHash'), 'accounts', ids)
  return ids
}

/** Insights for every account, fetching the missing ones in one request (used by `filter[host]`). */
async function allInsights(c: Context<Env>, accounts: number[]) {
  const missing = accounts.filter((a) => !cachedInsights(c, a))
  if (missing.length) {
    const { data } = await c
      .get('nerdgraph')
      .query<InsightsData>(insightsDocument(missing.length), insightVars(missing))
    storeInsights(c, missing, data)
  }
  refreshStaleInsights(c, accounts)
  return accounts.map((a) => cachedInsights(c, a)!)
}

/** Stale insights answer this request; one background request replaces them (src/background.ts),
 * so a scrape repeated every minute never waits for the account-wide queries. */
function refreshStaleInsights(c: Context<Env>, accounts: number[]) {
  const cache = c.get('caches').insights
  const keyHash = c.get('keyHash')
  const stale = accounts.filter((a) => cache.startRefresh(keyHash, String(a)))
  if (stale.length === 0) return
  const nerdgraph = c.get('nerdgraph')
  refreshInBackground(
    c,
    async () => {
      const vars = insightVars(stale)
      const { data } = await nerdgraph.query<InsightsData>(insightsDocument(stale.length), vars)
      storeInsights(c, stale, data)
    },
    () => stale.forEach((a) => cache.refreshFailed(keyHash, String(a)))
  )
}

function insightVars(accounts: number[]): Record<string, unknown> {
  const q = insightsNrql(Date.now())
  return Object.fromEntries(
    accounts.flatMap((a, i) => [
      [`a${i}`, a],
      [`m${i}`, q.members],
      [`b${i}`, q.browser],
    ])
  )
}

function storeInsights(c: Context<Env>, accounts: number[], data: { actor: AccountAliases }) {
  accounts.forEach((accountId, i) => {
    const alias = data.actor[`a${i}`]
    rememberInsights(c, accountId, alias?.members?.results ?? [], alias?.browser?.results ?? [])
  })
}

/** The cursor that opens `page`, walking forward from the last one known; null past the end. Local
 * work is O(1) in `page`: a page past the search's `count` is answered without walking. */
async function cursorFor(c: Context<Env>, query: string, page: number) {
  if (page === 1) return undefined
  const walk = cursorWalk(c, query)
  let n = Math.min(page, Math.max(1, walk.cursors.length - 1))
  for (;;) {
    if (walk.lastPage !== undefined && page > walk.lastPage) return null
    if (n > 1 && walk.cursors[n] === null) return null
    if (n === page) return walk.cursors[page]
    const { data } = await c.get('nerdgraph').query<NextCursorData>(nextCursorDocument, {
      query,
      cursor: walk.cursors[n] ?? null,
    })
    learn(c, query, walk, n, data.actor.entitySearch)
    n += 1
  }
}

function cursorWalk(c: Context<Env>, query: string): CursorWalk {
  return c.get('caches').cursors.get(c.get('keyHash'), query) ?? { cursors: [] }
}

/** Records what the search of `page` said: the cursor of the next page and the last page. */
function learn(
  c: Context<Env>,
  query: string,
  walk: CursorWalk,
  page: number,
  search: { count: number; results: { nextCursor: string | null } } | null
) {
  // Cursors stay contiguous, so the last one known is the highest (see cursorFor).
  if (page === 1 || walk.cursors[page] !== undefined)
    walk.cursors[page + 1] = search?.results.nextCursor ?? null
  walk.lastPage = Math.max(1, Math.ceil((search?.count ?? 0) / pageSize))
  c.get('caches').cursors.set(c.get('keyHash'), query, walk)
}

/** A pinned account the key cannot see holds nothing it may list: an empty list on every page, as
 * every `/applications/{id}` route answers 404 for it (src/resolve.ts, README "Accounts"). */
export async function listApplications(c: Context<Env>) {
  try {
    return await listPage(c)
  } catch (err) {
    if (!isForbiddenAccount(err) || pinnedAccount(c) === undefined) throw err
    return { body: body([], c.get('params').bool('exclude_links')), link: undefined }
  }
}

async function listPage(c: Context<Env>) {
  const p = c.get('params')
  const filters = applicationFilters(p)
  const page = pageParam(p)
  const accounts = await visibleAccounts(c)
  let ids = filters.ids
  if (filters.host) {
    const needle = filters.host.toLowerCase()
    const onHost = (await allInsights(c, accounts)).flatMap((i: AccountInsights) =>
      [...i.topologies]
        .filter(([, t]) => [...t.hosts.keys()].some((h) => h.toLowerCase().includes(needle)))
        .map(([appId]) => appId)
    )
    ids = ids ? ids.filter((id) => onHost.includes(id)) : onHost
    if (ids.length === 0) return { body: body([], p.bool('exclude_links')), link: undefined }
  }
  const query = applicationSearchQuery(filters, pinnedAccount(c), ids)
  const cursor = await cursorFor(c, query, page)
  if (cursor === null) return { body: body([], p.bool('exclude_links')), link: undefined }

  const missing = accounts.filter((a) => !cachedInsights(c, a))
  const { data } = await c
    .get('nerdgraph')
    .query<ListApplicationsData>(listApplicationsDocument(missing.length), {
      query,
      cursor: cursor ?? null,
      ...insightVars(missing),
    })
  storeInsights(c, missing, data)
  refreshStaleInsights(c, accounts)
  const search = data.actor.entitySearch
  const entities = search?.results.entities ?? []
  learn(c, query, cursorWalk(c, query), page, search)

  const records = entities.map((e) => {
    rememberApplication(c, {
      appId: e.applicationId,
      accountId: e.accountId,
      guid: e.guid,
    })
    const insights = cachedInsights(c, e.accountId)
    const record = toV2Application(
      e,
      insights?.topologies.get(e.applicationId),
      insights?.browser.get(e.applicationId)
    )
    rememberShown(c, e.accountId, record)
    return record
  })
  const lastPage = Math.max(1, Math.ceil((search?.count ?? 0) / pageSize))
  const url = new URL(c.req.url)
  const link = linkHeader(url, c.req.raw.headers, p.entries(), { page, lastPage })
  return { body: body(records, p.bool('exclude_links')), link }
}

function body(records: Record<string, unknown>[], excludeLinks: boolean) {
  const out: Record<string, unknown> = { applications: records }
  if (!excludeLinks) out['links'] = applicationLinkTemplates // `exclude_links`: v2 explorer parameter
  return out
}

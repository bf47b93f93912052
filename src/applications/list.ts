/**
 * @module applications/list
 * `GET /v2/applications`: one entity-search page per v2 page (both are 200 long: contract §1.6,
 * nerdgraph.md §1.2), cursors remembered per key and query so walking pages in order costs one
 * NerdGraph request per page.
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import type { Env } from '../env'
import { linkHeader } from '../link-header'
import { pinnedAccount, rememberApplication } from '../resolve'
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

export const pageSize = 200

const nextCursorDocument = gql`
  query ApplicationCursor($query: String!, $cursor: String) {
    actor {
      entitySearch(query: $query, sortByWithDirection: [{ attribute: NAME, direction: ASC }]) {
        results(cursor: $cursor) {
          nextCursor
        }
      }
    }
  }
`

interface NextCursorData {
  actor: { entitySearch: { results: { nextCursor: string | null } } | null }
}

export const listDocuments = { nextCursorDocument, accountsDocument }

async function visibleAccounts(c: Context<Env>): Promise<number[]> {
  const pinned = pinnedAccount(c)
  if (pinned !== undefined) return [pinned]
  const accountsCache = c.get('caches').accounts
  const hit = accountsCache.get(c.get('keyHash'), 'accounts')
  if (hit) return hit
  const { data } = await c.get('nerdgraph').query<AccountsData>(accountsDocument)
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
  return accounts.map((a) => cachedInsights(c, a)!)
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

/** The cursor that opens `page`, walking forward from the last one known; null past the end. */
async function cursorFor(c: Context<Env>, query: string, page: number) {
  if (page === 1) return undefined
  const keyHash = c.get('keyHash')
  const cursorsCache = c.get('caches').cursors
  const cursors = cursorsCache.get(keyHash, query) ?? []
  let known = page
  while (known > 1 && cursors[known] === undefined) known -= 1
  for (let n = known; n < page; n += 1) {
    if (n > 1 && cursors[n] === null) return null
    const { data } = await c.get('nerdgraph').query<NextCursorData>(nextCursorDocument, {
      query,
      cursor: cursors[n] ?? null,
    })
    cursors[n + 1] = data.actor.entitySearch?.results.nextCursor ?? null
  }
  cursorsCache.set(keyHash, query, cursors)
  return cursors[page]
}

export async function listApplications(c: Context<Env>) {
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
  const search = data.actor.entitySearch
  const entities = search?.results.entities ?? []
  const cursorsCache = c.get('caches').cursors
  const cursors = cursorsCache.get(c.get('keyHash'), query) ?? []
  cursors[page + 1] = search?.results.nextCursor ?? null
  cursorsCache.set(c.get('keyHash'), query, cursors)

  const records = entities.map((e) => {
    rememberApplication(c, {
      appId: e.applicationId,
      accountId: e.accountId,
      guid: e.guid,
    })
    const insights = cachedInsights(c, e.accountId)
    return toV2Application(
      e,
      insights?.topologies.get(e.applicationId),
      insights?.browser.get(e.applicationId)
    )
  })
  const lastPage = Math.max(1, Math.ceil((search?.count ?? 0) / pageSize))
  const url = new URL(c.req.url)
  const link = linkHeader(url, c.req.raw.headers, p.entries(), { page, lastPage })
  return { body: body(records, p.bool('exclude_links')), link }
}

function body(records: Record<string, unknown>[], excludeLinks: boolean) {
  const out: Record<string, unknown> = { applications: records }
  if (!excludeLinks) out['links'] = applicationLinkTemplates // contract §1.11
  return out
}

/**
 * @module entities/resolve
 * v2 application ID → account and entity GUID (newrelic/entity-definitions guid_spec). The account is
 * pinned (`ACCOUNT_ID`, or an `X-Account-Id` / `NewRelic-Account-Id` header) and the GUID computed,
 * or else found by entity search (`domainId = 'ID' AND domain = 'APM'`) and cached per key.
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import type { Env } from '../http/env'
import { V2Error, titles } from '../core/errors'
import { apmApplicationGuid, decodeGuid } from '../core/identity'
import type { NerdGraphResult, QueryOptions } from '../upstream/nerdgraph'
import { quote, quoteList } from '../core/nrql'
import { errorClassStatus } from '../../mappings/upstream-errors'
import { defineCache } from '../core/cache'

const minute = 60 * 1000

/** appId → account and GUID; IDs are stable, so an hour. */
export const applicationsCache = defineCache<ResolvedApplication>('applications', {
  freshMs: 60 * minute,
  maxBytes: 4 * 2 ** 20,
})

export interface ResolvedApplication {
  appId: number
  accountId: number
  guid: string
}

const findEntityDocument = gql`
  query FindEntity($query: String!) {
    actor {
      entitySearch(query: $query) {
        results {
          entities {
            guid
            accountId
          }
        }
      }
    }
  }
`

interface FindEntityData {
  actor: { entitySearch: { results: { entities: { guid: string; accountId: number }[] } } | null }
}

/** The largest GraphQL Int (GraphQL spec, section Int): larger account IDs cannot reach NerdGraph. */
export const maxAccountId = 2 ** 31 - 1

export const accountTitles = {
  invalid: 'Invalid account ID header: expected one account ID', // v2bridge's own header
  conflict: 'Conflicting account ID headers: send one account ID',
} as const

/**
 * The pinned account: `X-Account-Id` / `NewRelic-Account-Id` first, then the account of the key's
 * `KEY_MAP` entry, then the `ACCOUNT_ID` setting. One rule on every route (checked in src/app.ts before any route runs): each header holds one
 * account ID; repeated or comma-joined copies of the same ID count once; anything else is 422; a
 * header naming another account than the key's `KEY_MAP` account is refused (`confined`).
 */
export function pinnedAccount(c: Context<Env>): number | undefined {
  const values = ['x-account-id', 'newrelic-account-id']
    .map((name) => c.req.header(name))
    .filter((v) => v !== undefined)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
  if (values.length === 0) return c.get('keyAccount') ?? c.get('config').accountId
  const ids = new Set(values)
  // NerdGraph account IDs are GraphQL Int (32-bit signed, schema/nerdgraph.graphql `account(id: Int!)`).
  const bad = [...ids].some(
    (v) => !/^\d{1,10}$/.test(v) || Number(v) === 0 || Number(v) > maxAccountId
  )
  if (bad) throw new V2Error(422, accountTitles.invalid)
  if (new Set([...ids].map(Number)).size > 1) throw new V2Error(422, accountTitles.conflict)
  return confined(c, Number(values[0]))
}

/**
 * A `KEY_MAP` account confines its legacy key: a v2 REST or license key belonged to one account
 * (New Relic docs "New Relic API keys"), and v2 answered it for another account's resource with 404
 * on a read, and refused a write (403). A header naming another account gets the same answer, on
 * every route, before any NerdGraph call: the user key behind the map may see more accounts than
 * the legacy key ever did.
 */
function confined(c: Context<Env>, pinned: number): number {
  const own = c.get('keyAccount')
  if (own === undefined || own === pinned) return pinned
  const { method } = c.req
  const row = c.get('operation')
  const read = method === 'GET' || method === 'HEAD' || (method === 'POST' && row?.postReads)
  if (!read) throw new V2Error(403, errorClassStatus.FORBIDDEN.title)
  throw new V2Error(
    404,
    row?.path.startsWith('/v2/applications/') ? titles.noApplication : titles.notFound
  )
}

/** NerdGraph's FORBIDDEN for an account the key cannot see (not an HTTP 403 for the whole key). */
export function isForbiddenAccount(err: unknown): boolean {
  return (
    err instanceof V2Error && err.status === 403 && err.title === errorClassStatus.FORBIDDEN.title
  )
}

/** Parses a v2 path ID: a positive integer, else the resource's 404. */
export function pathId(raw: string | undefined, notFoundTitle: string): number {
  if (!raw || !/^\d{1,15}$/.test(raw) || Number(raw) === 0) throw new V2Error(404, notFoundTitle)
  return Number(raw)
}

/** The first entity an entity search finds: its GUID and account. An ID lookup, which explain
 * mode lets through (src/upstream/explain-client.ts). */
export async function findEntity(
  c: Context<Env>,
  query: string
): Promise<{ guid: string; accountId: number } | undefined> {
  const { data } = await c
    .get('nerdgraph')
    .query<FindEntityData>(findEntityDocument, { query }, { lookup: true })
  return data.actor.entitySearch?.results.entities[0]
}

/**
 * The application behind a v2 ID. With a pinned account the GUID is computed; `verify` then checks
 * the application is in that account (once per key, account and ID, cached), for routes whose
 * document would otherwise answer an unknown application with empty data.
 */
export async function resolveApplication(
  c: Context<Env>,
  appId: number,
  { verify = false } = {}
): Promise<ResolvedApplication> {
  const accountId = pinnedAccount(c)
  const resolved = c.get('caches').of(applicationsCache)
  const keyHash = c.get('keyHash')
  const cacheKey = accountId === undefined ? String(appId) : `${accountId}:${appId}`
  if (accountId !== undefined && !verify)
    return { appId, accountId, guid: apmApplicationGuid(accountId, appId) }
  const cached = resolved.get(keyHash, cacheKey)
  if (cached) return cached
  const inAccount = accountId === undefined ? '' : ` AND accountId = ${quote(accountId)}`
  const hit = await findEntity(
    c,
    `domainId = ${quote(appId)} AND domain = 'APM' AND type = 'APPLICATION'${inAccount}`
  )
  if (!hit) throw new V2Error(404, titles.noApplication)
  const result = { appId, accountId: hit.accountId, guid: hit.guid }
  resolved.set(keyHash, cacheKey, result)
  return result
}

/** IDs one search resolves: a search page holds 200 entities (src/entities/search-pages.ts). */
const idsPerSearch = 200

/**
 * The applications behind several v2 IDs, in their order, with one search per 200 IDs not yet
 * known (`domainId IN (…)`), not one per ID: a write naming hundreds of applications costs a few
 * requests (issue 22, item 12). An ID no application has is 404, as for one.
 */
export async function resolveApplications(
  c: Context<Env>,
  appIds: readonly number[]
): Promise<ResolvedApplication[]> {
  const accountId = pinnedAccount(c)
  if (accountId !== undefined)
    return appIds.map((appId) => ({ appId, accountId, guid: apmApplicationGuid(accountId, appId) }))
  const cache = c.get('caches').of(applicationsCache)
  const keyHash = c.get('keyHash')
  const known = new Map<number, ResolvedApplication>()
  for (const appId of appIds) {
    const hit = cache.get(keyHash, String(appId))
    if (hit) known.set(appId, hit)
  }
  const missing = [...new Set(appIds.filter((id) => !known.has(id)))]
  for (let i = 0; i < missing.length; i += idsPerSearch) {
    const chunk = missing.slice(i, i + idsPerSearch)
    const query = `domainId IN ${quoteList(chunk)} AND domain = 'APM' AND type = 'APPLICATION'`
    const { data } = await c
      .get('nerdgraph')
      .query<FindEntityData>(findEntityDocument, { query }, { lookup: true })
    for (const e of data.actor.entitySearch?.results.entities ?? []) {
      const appId = Number(decodeGuid(e.guid)?.domainId)
      if (!chunk.includes(appId)) continue
      const resolved = { appId, accountId: e.accountId, guid: e.guid }
      cache.set(keyHash, String(appId), resolved)
      known.set(appId, resolved)
    }
  }
  return appIds.map((appId) => {
    const resolved = known.get(appId)
    if (!resolved) throw new V2Error(404, titles.noApplication)
    return resolved
  })
}

/**
 * Under a pinned account the GUID is computed, and an NRQL over a GUID outside the account answers
 * empty rather than 404: a route whose answer came back empty confirms the application (one search,
 * cached per key, account and ID) so every route answers 404 for it. A non-empty answer proves it.
 */
export async function confirmApplication(c: Context<Env>, appId: number): Promise<void> {
  if (pinnedAccount(c) !== undefined) await resolveApplication(c, appId, { verify: true })
}

/**
 * A NerdGraph query about one entity of the caller's. NerdGraph refuses an account the key cannot see
 * (FORBIDDEN → 403); for a pinned account that means the entity is not the caller's, which v2 answers
 * with the resource's 404 (v2 explorer error reason "No Application found with the given ID").
 */
export async function queryOwned<T>(
  c: Context<Env>,
  notFoundTitle: string,
  document: string,
  variables: Record<string, unknown>,
  options?: QueryOptions
): Promise<NerdGraphResult<T>> {
  try {
    return await c.get('nerdgraph').query<T>(document, variables, options)
  } catch (err) {
    if (isForbiddenAccount(err)) throw new V2Error(404, notFoundTitle)
    throw err
  }
}

/** A query about one application, on every route under `/applications/{id}`. */
export function queryApplication<T>(
  c: Context<Env>,
  document: string,
  variables: Record<string, unknown>,
  options?: QueryOptions
): Promise<NerdGraphResult<T>> {
  return queryOwned<T>(c, titles.noApplication, document, variables, options)
}

/** Records a resolution learnt elsewhere (e.g. from a list page), saving a later search. */
export function rememberApplication(c: Context<Env>, app: ResolvedApplication): void {
  const resolved = c.get('caches').of(applicationsCache)
  resolved.set(c.get('keyHash'), String(app.appId), app)
  resolved.set(c.get('keyHash'), `${app.accountId}:${app.appId}`, app)
}

export const resolveDocuments = { findEntityDocument }

/**
 * @module resolve
 * v2 application ID → account and entity GUID (design.md, Identity; nerdgraph.md §2). The account is
 * pinned (`ACCOUNT_ID`, or an `X-Account-Id` / `NewRelic-Account-Id` header) and the GUID computed,
 * or else found by entity search (`domainId = 'ID' AND domain = 'APM'`) and cached per key.
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import type { Env } from './env'
import { V2Error, titles } from './errors'
import { apmApplicationGuid } from './identity'
import type { NerdGraphResult, QueryOptions } from './nerdgraph'
import { quote } from './nrql'

export interface ResolvedApplication {
  appId: number
  accountId: number
  guid: string
}

const findApplicationDocument = gql`
  query FindApplication($query: String!) {
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

interface FindApplicationData {
  actor: { entitySearch: { results: { entities: { guid: string; accountId: number }[] } } | null }
}

/** The pinned account: the request header first, then the `ACCOUNT_ID` setting. */
export function pinnedAccount(c: Context<Env>): number | undefined {
  const header = c.req.header('x-account-id') ?? c.req.header('newrelic-account-id')
  if (header !== undefined) {
    if (!/^\s*\d{1,10}\s*$/.test(header)) throw new V2Error(422, 'Invalid account ID header')
    return Number(header)
  }
  return c.get('config').accountId
}

/** Parses a v2 path ID: a positive integer, else the resource's 404. */
export function pathId(raw: string | undefined, notFoundTitle: string): number {
  if (!raw || !/^\d{1,15}$/.test(raw) || Number(raw) === 0) throw new V2Error(404, notFoundTitle)
  return Number(raw)
}

export async function resolveApplication(
  c: Context<Env>,
  appId: number
): Promise<ResolvedApplication> {
  const accountId = pinnedAccount(c)
  if (accountId !== undefined)
    return { appId, accountId, guid: apmApplicationGuid(accountId, appId) }
  const keyHash = c.get('keyHash')
  const resolved = c.get('caches').applications
  const cached = resolved.get(keyHash, String(appId))
  if (cached) return cached
  const { data } = await c
    .get('nerdgraph')
    .query<FindApplicationData>(
      findApplicationDocument,
      { query: `domainId = ${quote(appId)} AND domain = 'APM' AND type = 'APPLICATION'` },
      { lookup: true }
    )
  const hit = data.actor.entitySearch?.results.entities[0]
  if (!hit) throw new V2Error(404, titles.noApplication)
  const result = { appId, accountId: hit.accountId, guid: hit.guid }
  resolved.set(keyHash, String(appId), result)
  return result
}

/**
 * A NerdGraph query about one application. NerdGraph refuses an account the key cannot see
 * (FORBIDDEN → 403); for a pinned account that means the application is not the caller's, which v2
 * answers with 404 (contract §2.2), on every route under `/applications/{id}`.
 */
export async function queryApplication<T>(
  c: Context<Env>,
  document: string,
  variables: Record<string, unknown>,
  options?: QueryOptions
): Promise<NerdGraphResult<T>> {
  try {
    return await c.get('nerdgraph').query<T>(document, variables, options)
  } catch (err) {
    if (err instanceof V2Error && err.status === 403) throw new V2Error(404, titles.noApplication)
    throw err
  }
}

/** Records a resolution learnt elsewhere (e.g. from a list page), saving a later search. */
export function rememberApplication(c: Context<Env>, app: ResolvedApplication): void {
  c.get('caches').applications.set(c.get('keyHash'), String(app.appId), app)
}

export const resolveDocuments = { findApplicationDocument }

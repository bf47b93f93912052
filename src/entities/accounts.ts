/**
 * @module entities/accounts
 * The accounts a key sees (schema `Actor.accounts`), cached per key, the one account a call acts
 * on when it needs one (`singleAccount`) and the account a list reads (`listAccount`): v2 acted for
 * the account the key was created in, which NerdGraph tells through the user's key search.
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import type { Env } from '../http/env'
import { V2Error } from '../core/errors'
import { isForbiddenAccount, pinnedAccount } from './resolve'
import { defineCache } from '../core/cache'
import { graphqlFault, type GraphQLErrorLike } from '../upstream/fault'
import { keyCheckDocument, type KeyCheckData } from '../upstream/key-check'
import type { NerdGraphResult } from '../upstream/nerdgraph'

const minute = 60 * 1000

/** the accounts a key sees. */
export const accountsCache = defineCache<number[]>('accounts', {
  freshMs: 10 * minute,
  maxBytes: 2 ** 20,
})

export const accountsDocument = gql`
  query Accounts {
    actor {
      accounts {
        id
      }
    }
  }
`

export interface AccountsData {
  actor: { accounts: { id: number }[] | null }
}

export async function visibleAccounts(c: Context<Env>): Promise<number[]> {
  const pinned = pinnedAccount(c)
  if (pinned !== undefined) return [pinned]
  const cache = c.get('caches').of(accountsCache)
  const hit = cache.get(c.get('keyHash'), 'accounts')
  if (hit) return hit
  const { data } = await c
    .get('nerdgraph')
    .query<AccountsData>(accountsDocument, {}, { lookup: true })
  const ids = (data.actor.accounts ?? []).map((a) => a.id).sort((a, b) => a - b)
  cache.set(c.get('keyHash'), 'accounts', ids)
  return ids
}

/** The account a user key was created in, per key (src/core/cache.ts); keys do not move, an hour. */
export const keyAccountCache = defineCache<{ account: number | null }>('keyAccount', {
  freshMs: 60 * minute,
  maxBytes: 2 ** 20,
})

/** The caller's own user keys with the account each was created in: the search narrowed to the
 * caller's user (`scope.userIds`), so an admin, whose search also lists every other user's keys
 * (obfuscated: New Relic docs "NerdGraph tutorial: Manage API keys", "Query keys"), reads a handful
 * of keys, not thousands. The key's own id would narrow it to one, but nothing tells it from the
 * key (the same page: `key(id:)` takes the id, never the key). */
export const keyAccountDocument = gql`
  query KeyAccount($userId: Int!, $cursor: String) {
    actor {
      apiAccess {
        keySearch(query: { types: [USER], scope: { userIds: [$userId] } }, cursor: $cursor) {
          keys {
            key
            ... on ApiAccessUserKey {
              accountId
            }
          }
          nextCursor
        }
      }
    }
  }
`

interface KeySearch {
  keys: ({ key?: string | null; accountId?: number | null } | null)[] | null
  nextCursor: string | null
}

export interface KeyAccountData {
  actor: { apiAccess: { keySearch: KeySearch | null } | null }
}

/** Pages of the caller's own keys read at most: a user holds a handful of user keys. */
const keyPages = 10

/**
 * The account the caller's user key was created in, as NerdGraph tells it: the user (the key check,
 * src/upstream/key-check.ts), then the search of that user's keys, matched against the key this
 * request sends upstream (compared here, never sent as a value, never kept: only the account is
 * cached, per key). Undefined when NerdGraph says nothing (a search it refuses, a key not listed).
 * A failed lookup (5xx, timeout, 429) is thrown and never cached: the next call asks again.
 */
export async function ownAccount(c: Context<Env>): Promise<number | undefined> {
  const cache = c.get('caches').of(keyAccountCache)
  const hit = cache.get(c.get('keyHash'), 'own')
  if (hit) return hit.account ?? undefined
  const account = await lookUpOwnAccount(c)
  cache.set(c.get('keyHash'), 'own', { account })
  return account ?? undefined
}

async function lookUpOwnAccount(c: Context<Env>): Promise<number | null> {
  const nerdgraph = c.get('nerdgraph')
  const userKey = c.get('upstreamKey')
  try {
    const { data: owner } = await nerdgraph.query<KeyCheckData>(
      keyCheckDocument,
      {},
      { lookup: true }
    )
    const userId = owner.actor.user?.id
    if (typeof userId !== 'number') return null
    let cursor: string | null = null
    for (let page = 0; page < keyPages; page++) {
      const answer: NerdGraphResult<KeyAccountData> = await nerdgraph.query<KeyAccountData>(
        keyAccountDocument,
        { userId, cursor },
        { lookup: true }
      )
      if (answer.errors.length) return refusal(answer.errors)
      const search = answer.data.actor.apiAccess?.keySearch
      const own = search?.keys?.find((k) => k?.key === userKey)
      if (own) return own.accountId ?? null
      cursor = search?.nextCursor ?? null
      if (!cursor) return null
    }
    return null
  } catch (err) {
    // NerdGraph refused the account or the search (a user without API key access): it does not say.
    if (isForbiddenAccount(err)) return null
    throw err
  }
}

/** Field errors of a tolerated search: a refusal says nothing (null, cached); a failure that
 * another attempt may mend (mappings/upstream-errors.ts kinds `transient`, `throttled`) is thrown. */
function refusal(errors: readonly GraphQLErrorLike[]): null {
  const fault = graphqlFault(errors)
  if (fault.kind === 'final') return null
  throw fault.error
}

export const accountTitles = {
  choose:
    'Choose the account: send X-Account-Id, give the key an account in KEY_MAP, or set ACCOUNT_ID',
  none: 'This key sees no account',
} as const

/**
 * The one account of a call that needs one (creates, alerts reads and writes, labels, channels):
 * `X-Account-Id`, else the key's `KEY_MAP` account, else `ACCOUNT_ID` (src/entities/resolve.ts
 * `pinnedAccount`), else the account the user key was created in, as a v2 REST key belonged to one
 * account; else the key's only account; else 422 naming the three settings.
 */
export async function singleAccount(c: Context<Env>): Promise<number> {
  const account = pinnedAccount(c) ?? (await ownAccount(c)) ?? (await onlyAccount(c))
  c.set('account', account)
  return account
}

async function onlyAccount(c: Context<Env>): Promise<number> {
  const accounts = await visibleAccounts(c)
  if (accounts.length === 1) return accounts[0]!
  throw new V2Error(422, accounts.length ? accountTitles.choose : accountTitles.none)
}

/** The account a create acts on (src/entities/accounts.ts `singleAccount`). */
export const writeAccount = singleAccount

/**
 * The account a list reads (applications, browser and mobile applications, key transactions): the
 * pinned account, else the account the user key was created in, as a v2 REST key listed its own
 * account; undefined only when NerdGraph cannot tell, and then the list reads every account the
 * key sees.
 */
export async function listAccount(c: Context<Env>): Promise<number | undefined> {
  return pinnedAccount(c) ?? (await ownAccount(c))
}

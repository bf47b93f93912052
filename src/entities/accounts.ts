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
import { pinnedAccount } from './resolve'
import { defineCache } from '../core/cache'

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

/** The caller's user keys with the account each was created in (New Relic docs "Use NerdGraph to
 * manage license keys and user keys": a user sees the full `key` of their own user keys). */
export const keyAccountDocument = gql`
  query KeyAccount($cursor: String) {
    actor {
      apiAccess {
        keySearch(query: { types: [USER] }, cursor: $cursor) {
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

interface KeyAccountData {
  actor: { apiAccess: { keySearch: KeySearch | null } | null }
}

/** Pages of the key search read at most: a user holds a handful of user keys. */
const keyPages = 5

/**
 * The account the caller's user key was created in, as NerdGraph tells it: the search of the
 * user's own keys, matched against the key this request sends upstream (compared here, never sent
 * as a value, never kept: only the account is cached, per key). Undefined when NerdGraph does not
 * say.
 */
export async function ownAccount(c: Context<Env>): Promise<number | undefined> {
  const cache = c.get('caches').of(keyAccountCache)
  const hit = cache.get(c.get('keyHash'), 'own')
  if (hit) return hit.account ?? undefined
  const userKey = c.get('upstreamKey')
  let account: number | null = null
  let cursor: string | null = null
  for (let page = 0; page < keyPages && account === null; page++) {
    let search: KeySearch | null
    try {
      const answer: { data: KeyAccountData } = await c
        .get('nerdgraph')
        .query<KeyAccountData>(keyAccountDocument, { cursor }, { lookup: true })
      search = answer.data.actor.apiAccess?.keySearch ?? null
    } catch (err) {
      // NerdGraph refused the search (an account without API key access): it does not say.
      if (err instanceof V2Error && err.status === 502) break
      throw err
    }
    account = search?.keys?.find((k) => k?.key === userKey)?.accountId ?? null
    cursor = search?.nextCursor ?? null
    if (!cursor) break
  }
  cache.set(c.get('keyHash'), 'own', { account })
  return account ?? undefined
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

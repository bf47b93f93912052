/**
 * @module entities/accounts
 * The accounts a key sees (schema `Actor.accounts`), cached per key, and the one account a write acts
 * on: the pinned one, or the key's only account. v2 wrote to the account the key was created in;
 * NerdGraph makes no such assumption (New Relic docs "Migrate from REST API v2 to NerdGraph"), so a
 * key that sees several accounts must pin one.
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

export const severalAccounts =
  'This key sees several accounts: choose one with the X-Account-Id header or ACCOUNT_ID'

/** The account a create acts on (422 when the key sees several and none is pinned). */
export async function writeAccount(c: Context<Env>): Promise<number> {
  const accounts = await visibleAccounts(c)
  if (accounts.length !== 1)
    throw new V2Error(422, accounts.length ? severalAccounts : 'This key sees no account')
  return accounts[0]!
}

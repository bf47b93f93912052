/**
 * @module simulator/graphql/api-access
 * `actor.apiAccess.keySearch`: the caller's own user keys, with the full `key`; for an admin also
 * every other user's keys in the accounts the admin sees, obfuscated (New Relic docs "NerdGraph
 * tutorial: Manage API keys", "Query keys": "User keys belonging to other users will be obfuscated in
 * the results"), thousands of them (`AccessOptions.othersKeys`), oldest first. Ingest keys are never
 * listed.
 */
import { decodeOffset, encodeOffset } from '../data/cursor'
import {
  obfuscateKey,
  othersKeys,
  truncateKey,
  userKeysOf,
  type OthersKey,
  type UserKey,
} from '../data/keys'
import { hashString } from '../data/prng'
import { accessOf } from './access'
import type { GraphContext } from './context'

/** Keys per `keySearch` page: a simulator choice, small so that clients page (NerdGraph's own size
 * is undocumented). */
export const KEY_SEARCH_PAGE = 2

type KeyType = 'INGEST' | 'USER'

export interface KeySearchArgs {
  cursor?: string | null
  query: {
    types: readonly (KeyType | null)[]
    scope?: {
      accountIds?: readonly (number | null)[] | null
      ingestTypes?: readonly (string | null)[] | null
      userIds?: readonly (number | null)[] | null
    } | null
  }
}

/** A scope list restricts only when it names something: absent, null or `[]` leaves it open. */
function within(list: readonly (number | null)[] | null | undefined, value: number): boolean {
  return !list?.length || list.includes(value)
}

function keyValue(key: UserKey | OthersKey, ctx: GraphContext) {
  const account = ctx.dataset.accounts.find((a) => a.id === key.accountId)
  const user = 'user' in key ? key.user : ctx.principal.user
  return {
    __typename: 'ApiAccessUserKey',
    id: key.id,
    key: key.userId === ctx.principal.user.id ? key.key : truncateKey(key.key),
    name: key.name,
    notes: key.notes,
    createdAt: key.createdAt,
    obfuscatedKey: obfuscateKey(key.key),
    type: 'USER',
    accountId: key.accountId,
    account: account ? { id: account.id, name: account.name } : null,
    userId: key.userId,
    user: { id: user.id, email: user.email, name: user.name, gravatar: null },
  }
}

/** The user keys a principal's search covers, oldest first: its own, and an admin's also others'. */
function searchable(ctx: GraphContext): readonly (UserKey | OthersKey)[] {
  const { principal } = ctx
  const own = userKeysOf(principal.user.id)
  const count = principal.admin ? accessOf(ctx.dataset).othersKeys : 0
  if (count === 0) return own
  const others = othersKeys(
    count,
    [...principal.accountIds].sort((a, b) => a - b)
  )
  return [...own, ...others].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
}

function keySearch(args: KeySearchArgs, ctx: GraphContext) {
  const { principal } = ctx
  const scope = args.query.scope
  const found = args.query.types.includes('USER')
    ? searchable(ctx).filter(
        (k) =>
          principal.accountIds.has(k.accountId) &&
          within(scope?.accountIds, k.accountId) &&
          within(scope?.userIds, k.userId)
      )
    : []
  const prefix = `keys:${principal.user.id}:${hashString(JSON.stringify(args.query)).toString(36)}`
  const offset = args.cursor ? decodeOffset(prefix, args.cursor) : 0
  const next = offset + KEY_SEARCH_PAGE
  return {
    count: found.length,
    keys: found.slice(offset, next).map((k) => keyValue(k, ctx)),
    nextCursor: next < found.length ? encodeOffset(prefix, next) : null,
  }
}

/** Spread into the `actor` value (resolvers.ts). */
export const apiAccessActorFields = {
  apiAccess: () => ({ keySearch }),
}

/**
 * @module simulator/graphql/access
 * How the simulated NerdGraph refuses an account the key cannot see, and how many other users' keys
 * an admin's key search finds: the live shapes by default, each with its source; the older, more
 * lenient shape behind a named switch (`createSimulator({ access })`).
 */
import { GraphQLError } from 'graphql'
import type { Dataset } from '../data/dataset'
import type { GraphContext } from './context'

export interface AccessOptions {
  /** User keys of other users an admin's `keySearch` finds besides the admin's own (default
   * `OTHERS_KEYS`): live, an admin's search lists every user's keys of the organisation. */
  othersKeys?: number
  /** Lenient switch: refuse another account with `extensions.errorClass: FORBIDDEN`, the shape the
   * simulator used before; live shows "Access denied." with no such class. */
  forbiddenErrorClass?: boolean
}

/** Thousands: an organisation of a few hundred users, each with a few keys (the number live is the
 * organisation's own; the simulator's only asks that a client never read them all). */
export const OTHERS_KEYS = 5000

const settings = new WeakMap<Dataset, Required<AccessOptions>>()

/** Start-up setting of one simulator (createSimulator's `access` option). */
export function initAccess(dataset: Dataset, options: AccessOptions = {}): void {
  settings.set(dataset, {
    othersKeys: Math.max(0, Math.floor(options.othersKeys ?? OTHERS_KEYS)),
    forbiddenErrorClass: options.forbiddenErrorClass ?? false,
  })
}

export function accessOf(dataset: Dataset): Required<AccessOptions> {
  return settings.get(dataset) ?? { othersKeys: OTHERS_KEYS, forbiddenErrorClass: false }
}

/** The live message for an account the key may not use (terraform-provider-newrelic issues #755
 * "Access Denied., null" and #833 "Access denied.": the message alone, no `FORBIDDEN` class). */
export const ACCESS_DENIED = 'Access denied.'

/** Refuses `accountId` as NerdGraph does: a GraphQL error on the field, its data null. */
export function accessDenied(ctx: GraphContext, accountId: number): never {
  if (accessOf(ctx.dataset).forbiddenErrorClass)
    throw new GraphQLError(`Not authorized to access account ${accountId}`, {
      extensions: { errorClass: 'FORBIDDEN' },
    })
  throw new GraphQLError(ACCESS_DENIED)
}

/** Throws `accessDenied` unless the key sees `accountId`. */
export function checkAccount(ctx: GraphContext, accountId: number): void {
  if (!ctx.principal.accountIds.has(accountId)) accessDenied(ctx, accountId)
}

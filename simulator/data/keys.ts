/** @module simulator/data/keys — the demo user keys, what each may see, and key masking. */
import { PRODUCTION, STAGING } from './catalog'
import { combine, hashString } from './prng'

/** User keys the simulator accepts (NerdGraph wants a user key, `NRAK-…`: New Relic docs "New
 * Relic API keys"). */
export const DEMO_KEYS = {
  all: 'NRAK-DEMO0000000000000000000000',
  one: 'NRAK-DEMO1111111111111111111111',
} as const

/** The account each demo key was created in: a user key acts for the account it was created in (New
 * Relic docs "New Relic API keys"), and NerdGraph's `keySearch` answers it as the key's `accountId`. */
export const DEMO_KEY_ACCOUNTS: {
  readonly [K in (typeof DEMO_KEYS)[keyof typeof DEMO_KEYS]]: number
} = {
  [DEMO_KEYS.all]: PRODUCTION.id,
  [DEMO_KEYS.one]: STAGING.id,
}

/** Legacy keys the demo maps to `DEMO_KEYS.all` through KEY_MAP (scripts/demo-server.ts): NerdGraph itself
 * refuses them, as it refuses every key that is not a user key. */
export const DEMO_LEGACY_KEYS = {
  rest: '00000000000000000000000000000000000000000000d3a', // a REST API key: 47 hex
  license: '00000000000000000000000000000000000001ce', // a license key: 40 hex
} as const

export interface Principal {
  /** Masked form of the key; the full key is never kept outside the request. */
  readonly label: string
  readonly user: { readonly id: number; readonly email: string; readonly name: string }
  readonly accountIds: ReadonlySet<number>
  /** The account the key was created in (DEMO_KEY_ACCOUNTS); one of accountIds. */
  readonly homeAccountId: number
  /** An admin's key search also finds other users' keys, obfuscated (New Relic docs "NerdGraph
   * tutorial: Manage API keys", section "Query keys"). */
  readonly admin: boolean
}

/** A user key as `actor.apiAccess.keySearch` answers it (`ApiAccessUserKey`). */
export interface UserKey {
  readonly id: string
  readonly key: string
  readonly name: string
  readonly notes: string | null
  /** Epoch seconds. */
  readonly createdAt: number
  readonly accountId: number
  readonly userId: number
}

/** `NRAK-DEMO…1a2b3c4d`: the first 9 characters and a short hash, never the whole key. */
export function maskKey(key: string): string {
  return `${key.slice(0, 9)}…${hashString(key).toString(16).padStart(8, '0')}`
}

/** The user ids of the demo users (`actor.user.id`). */
/** The account each legacy demo key belongs to in the v2 world: the REST API v2 and v0 accepted an
 * account's REST API key, and v0 its license key (New Relic docs "New Relic API keys"); NerdGraph
 * accepts neither. */
export const DEMO_LEGACY_KEY_ACCOUNTS: { readonly rest: number; readonly license: number } = {
  rest: PRODUCTION.id,
  license: PRODUCTION.id,
}

const USER_ALL = 4100001
const USER_ONE = 4100002

/** The fleet bench's users (bench/fleet.ts): two users, five keys each, every key created in and
 * seeing one account, PRODUCTION and STAGING in turn. The demo and the tests use DEMO_KEYS; these
 * keys are found by no demo user's key search. */
export const FLEET_USERS = [4100011, 4100012] as const

export interface FleetKey {
  readonly key: string
  readonly userId: number
  readonly accountId: number
}

export const FLEET_KEYS: readonly FleetKey[] = Array.from({ length: 10 }, (_, i) => ({
  key: `NRAK-FLEET${String(i).padStart(2, '0')}${'0'.repeat(18)}`,
  userId: FLEET_USERS[i < 5 ? 0 : 1],
  accountId: i % 2 === 0 ? PRODUCTION.id : STAGING.id,
}))

const fleetPrincipal = (k: FleetKey): [string, Principal] => [
  k.key,
  {
    label: maskKey(k.key),
    user: {
      id: k.userId,
      email: `fleet.${k.userId}@example.com`,
      name: `Fleet User ${k.userId}`,
    },
    accountIds: new Set([k.accountId]),
    homeAccountId: k.accountId,
    admin: false,
  },
]

const PRINCIPALS: ReadonlyMap<string, Principal> = new Map([
  [
    DEMO_KEYS.all,
    {
      label: maskKey(DEMO_KEYS.all),
      user: { id: USER_ALL, email: 'demo.admin@example.com', name: 'Demo Admin' },
      accountIds: new Set([PRODUCTION.id, STAGING.id]),
      homeAccountId: DEMO_KEY_ACCOUNTS[DEMO_KEYS.all],
      admin: true,
    },
  ],
  [
    DEMO_KEYS.one,
    {
      label: maskKey(DEMO_KEYS.one),
      user: { id: USER_ONE, email: 'staging.viewer@example.com', name: 'Staging Viewer' },
      accountIds: new Set([STAGING.id]),
      homeAccountId: DEMO_KEY_ACCOUNTS[DEMO_KEYS.one],
      admin: false,
    },
  ],
  ...FLEET_KEYS.map(fleetPrincipal),
])

/** The principal for an `API-Key` header value, or null (→ HTTP 401 BAD_API_KEY). */
export function principalFor(key: string | undefined | null): Principal | null {
  return key ? (PRINCIPALS.get(key.trim()) ?? null) : null
}

/**
 * Every user key of the demo users, oldest first: each demo key in its home account, and more keys of
 * the same users in accounts they see. The other keys are made up: NerdGraph lists them, but the
 * simulator accepts only DEMO_KEYS as `API-Key`.
 */
const USER_KEYS: readonly UserKey[] = [
  {
    id: '5F2C8A14D3E7B90A6C1D4E8F2A7B3C90',
    key: 'NRAK-CI7Q2M9C4V1B8N6Z3L5K0J2H4G',
    name: 'CI pipeline',
    notes: 'Deploy markers from the build server',
    createdAt: 1686830400, // 2023-06-15T12:00:00Z
    accountId: PRODUCTION.id,
    userId: USER_ALL,
  },
  {
    id: '8B4E1F6A2C9D3E7F0A5B8C1D4E6F2A31',
    key: 'NRAK-STG3X8P1R6T4W9Y2A5D7F0H3K6',
    name: 'Staging deploy bot',
    notes: null,
    createdAt: 1707912000, // 2024-02-14T12:00:00Z
    accountId: STAGING.id,
    userId: USER_ALL,
  },
  {
    id: 'C07A3D9E5B1F4C8A2E6D0B7F3A9C5E12',
    key: 'NRAK-NB5E2R8T1Y4U7I0O3P6A9S2D5F',
    name: 'Local notebook',
    notes: null,
    createdAt: 1714564800, // 2024-05-01T12:00:00Z
    accountId: STAGING.id,
    userId: USER_ONE,
  },
  {
    id: 'E91B6D2F8A4C0E3B7D5F1A9C6E2B4D07',
    key: DEMO_KEYS.one,
    name: 'Staging Viewer: v2bridge demo',
    notes: null,
    createdAt: 1731672000, // 2024-11-15T12:00:00Z
    accountId: DEMO_KEY_ACCOUNTS[DEMO_KEYS.one],
    userId: USER_ONE,
  },
  {
    id: 'F4A8C2E6B0D3F7A1C5E9B2D6F0A4C813',
    key: DEMO_KEYS.all,
    name: 'Demo Admin: v2bridge demo',
    notes: 'The key the demo and the tests use',
    createdAt: 1736510400, // 2025-01-10T12:00:00Z
    accountId: DEMO_KEY_ACCOUNTS[DEMO_KEYS.all],
    userId: USER_ALL,
  },
]

/** The fleet keys as the key search lists them (created 2026-01-01, a minute apart). */
const FLEET_USER_KEYS: readonly UserKey[] = FLEET_KEYS.map((k, i) => ({
  id: `F1EE7${String(i).padStart(27, '0')}`,
  key: k.key,
  name: `Fleet exporter ${i + 1}`,
  notes: null,
  createdAt: 1767225600 + 60 * i,
  accountId: k.accountId,
  userId: k.userId,
}))

/** The user keys a user owns, oldest first. */
export function userKeysOf(userId: number): readonly UserKey[] {
  return [...USER_KEYS, ...FLEET_USER_KEYS].filter((k) => k.userId === userId)
}

/** `NRAK-CI7*****…`: the first 8 characters and an asterisk for each of the others, as NerdGraph's
 * `obfuscatedKey`. */
export function obfuscateKey(key: string): string {
  return key.slice(0, 8) + '*'.repeat(Math.max(0, key.length - 8))
}

/** A user key of another user, as an admin's key search lists it: made up, never a valid `API-Key`. */
export interface OthersKey extends UserKey {
  readonly user: { readonly id: number; readonly email: string; readonly name: string }
}

/** Other users of the demo organisation: the keys an admin sees belong to this many users. */
const OTHER_USERS = 997
const FIRST_OTHER_USER = 4200001
const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
/** Other users' keys were created from 2022-01-01 to 2025-12-31, so the demo users' own keys fall
 * among them in the search's oldest-first order. */
const OTHERS_FROM = 1640995200
const OTHERS_SPAN = 1767225600 - OTHERS_FROM

const othersCache = new Map<string, readonly OthersKey[]>()

/** `count` user keys of other users in `accountIds`, oldest first, the same on every call. */
export function othersKeys(count: number, accountIds: readonly number[]): readonly OthersKey[] {
  const cacheKey = `${count}:${accountIds.join(',')}`
  const cached = othersCache.get(cacheKey)
  if (cached) return cached
  const keys: OthersKey[] = []
  for (let i = 0; i < count && accountIds.length > 0; i++) {
    const userId = FIRST_OTHER_USER + (combine(i, 7) % OTHER_USERS)
    let text = 'NRAK-'
    for (let c = 0; c < 27; c++) text += KEY_ALPHABET[combine(i, c + 100) % KEY_ALPHABET.length]
    keys.push({
      id: (combine(i, 1).toString(16) + combine(i, 2).toString(16)).toUpperCase().padStart(16, '0'),
      key: text,
      name: `Key ${i + 1}`,
      notes: null,
      createdAt: OTHERS_FROM + Math.floor((i * OTHERS_SPAN) / count),
      accountId: accountIds[combine(i, 3) % accountIds.length]!,
      userId,
      user: { id: userId, email: `user${userId}@example.com`, name: `User ${userId}` },
    })
  }
  othersCache.set(cacheKey, keys)
  return keys
}

/** `NRAK-CI7...`: how NerdGraph's `key` shows another user's key: truncated (terraform-provider-newrelic
 * PR #3115 "NerdGraph returns a truncated key (a key owned by a different user)"; the shape reported in
 * its issue #2863, `NRAK-123...`; the exact cut is unknown). */
export function truncateKey(key: string): string {
  return `${key.slice(0, 8)}...`
}

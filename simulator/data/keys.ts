/** @module simulator/data/keys — the demo user keys, what each may see, and key masking. */
import { PRODUCTION, STAGING } from './catalog'
import { hashString } from './prng'

/** User keys the simulator accepts (NerdGraph wants a user key, `NRAK-…`: New Relic docs "New
 * Relic API keys"). */
export const DEMO_KEYS = {
  all: 'NRAK-DEMO0000000000000000000000',
  one: 'NRAK-DEMO1111111111111111111111',
} as const

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
}

/** `NRAK-DEMO…1a2b3c4d`: the first 9 characters and a short hash, never the whole key. */
export function maskKey(key: string): string {
  return `${key.slice(0, 9)}…${hashString(key).toString(16).padStart(8, '0')}`
}

const PRINCIPALS: ReadonlyMap<string, Principal> = new Map([
  [
    DEMO_KEYS.all,
    {
      label: maskKey(DEMO_KEYS.all),
      user: { id: 4100001, email: 'demo.admin@example.com', name: 'Demo Admin' },
      accountIds: new Set([PRODUCTION.id, STAGING.id]),
    },
  ],
  [
    DEMO_KEYS.one,
    {
      label: maskKey(DEMO_KEYS.one),
      user: { id: 4100002, email: 'staging.viewer@example.com', name: 'Staging Viewer' },
      accountIds: new Set([STAGING.id]),
    },
  ],
])

/** The principal for an `API-Key` header value, or null (→ HTTP 401 BAD_API_KEY). */
export function principalFor(key: string | undefined | null): Principal | null {
  return key ? (PRINCIPALS.get(key.trim()) ?? null) : null
}

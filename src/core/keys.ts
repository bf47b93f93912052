/**
 * @module core/keys
 * The key v2bridge sends to NerdGraph for the key a caller presents. A user key goes as it is; a
 * legacy key (mappings/legacy-keys.ts) goes only through the `KEY_MAP` setting, which maps the
 * SHA-256 of a legacy key to a user key (NerdGraph takes user keys only: D-migrate). The map is a
 * secret: nothing here logs or returns it, and caches stay partitioned by the presented key.
 */
import { legacyKeyPatterns } from '../../mappings/legacy-keys'
import { V2Error, titles } from './errors'

/** An unmapped legacy key is a key v2bridge cannot use: v2's 401 for a key it refused (v2 explorer
 * `errorResponses` "Invalid API key"; recorded body `{"error":{"title":"Invalid API Key"}}`). The
 * way out, a user key or a `KEY_MAP` entry, is in docs/keys-and-accounts.md. */
export const legacyKeyTitle = titles.badKey

export function isLegacyKey(key: string): boolean {
  return Object.values(legacyKeyPatterns).some((pattern) => pattern.test(key))
}

/** What a legacy key's shape says it is, for the request line (mappings/legacy-keys.ts). */
const legacyKinds: Record<keyof typeof legacyKeyPatterns, string> = {
  restApiKey: 'a legacy REST API key',
  licenseKey: 'a license key',
  licenseKeyNral: 'a license key',
  adminKey: "an Admin user's API key",
}

/** The request line's reason for an unmapped legacy key: what it looks like, and the way out. */
export function unmappedReason(key: string): string {
  const kind = Object.entries(legacyKeyPatterns).find(([, pattern]) => pattern.test(key))?.[0]
  const what = legacyKinds[kind as keyof typeof legacyKinds] ?? 'a legacy key'
  return `the key looks like ${what} and is not in KEY_MAP: NerdGraph takes user keys only; map it to a user key in KEY_MAP or give the client a user key (NRAK-…)`
}

/** Where a legacy key may act: `rest` wherever a v2 REST API key did (`X-Api-Key`, and v0's
 * `x-api-key`); `license` only as `x-license-key` on the v0 deployments API, the one place a license
 * key ever wrote (New Relic docs "Legacy deployments API v0"). License keys sit in every agent's
 * configuration and are ingest keys ("New Relic API keys"), so they never act as a user key. */
export type KeyScope = 'rest' | 'license'

export interface KeyMapEntry {
  /** The user key sent to NerdGraph. */
  key: string
  /** Unset in the short form (`"<sha256>": "NRAK-…"`): then read from the presented key's shape. */
  scope?: KeyScope
  /** The account the legacy key belonged to (one account per v2 REST key). */
  account?: number
}

export type KeyMap = ReadonlyMap<string, KeyMapEntry>

export const scopeTitles = {
  license: 'A license key only records deployments: send it as x-license-key to /deployments.xml',
  rest: 'A REST API key goes in X-Api-Key, not x-license-key',
} as const

const licenseShaped = (key: string) =>
  legacyKeyPatterns.licenseKey.test(key) || legacyKeyPatterns.licenseKeyNral.test(key)

/** The scope of a key map entry: its own, else by the presented key's shape. */
export function scopeOf(entry: KeyMapEntry, presented: string): KeyScope {
  return entry.scope ?? (licenseShaped(presented) ? 'license' : 'rest')
}

/** The upstream key for `presented` (whose SHA-256 hex is `keyHash`) sent where `use` says, with
 * the account its key map entry names; 401 for an unmapped legacy key or one used outside its
 * scope. */
export function upstreamKeyFor(
  presented: string,
  keyHash: string,
  keyMap: KeyMap,
  use: KeyScope = 'rest'
): { key: string; account?: number; mapped?: true } {
  const mapped = keyMap.get(keyHash)
  if (mapped !== undefined) {
    const scope = scopeOf(mapped, presented)
    if (scope !== use) throw new V2Error(401, scopeTitles[scope])
    return mapped.account === undefined
      ? { key: mapped.key, mapped: true }
      : { key: mapped.key, account: mapped.account, mapped: true }
  }
  if (isLegacyKey(presented))
    throw new V2Error(401, legacyKeyTitle, { reason: unmappedReason(presented) })
  return { key: presented }
}

const userKey = /^[\x21-\x7e]{1,256}$/

/**
 * `KEY_MAP`: a JSON object of lowercase SHA-256 hex of a legacy key → its user key, either
 * `"NRAK-…"` or `{"key": "NRAK-…", "scope": "rest" | "license", "account": 123}` (scope and
 * account optional). Throws a message naming the setting, the entry by its position and what is
 * wrong with it, never its content (a name or a key).
 */
export function parseKeyMap(text: string | undefined): Map<string, KeyMapEntry> {
  if (text === undefined || text.trim() === '') return new Map()
  const shape = 'a JSON object {"<SHA-256 hex of a legacy key>": "<user key>", …}'
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    // JSON.parse's own message may quote the text, a secret: not passed on.
    throw new Error(`KEY_MAP: not valid JSON; expected ${shape}`)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error(`KEY_MAP: expected ${shape}, not ${kindOf(parsed)}`)
  const map = new Map<string, KeyMapEntry>()
  Object.entries(parsed).forEach(([hash, value], i) => {
    const entry = `KEY_MAP: entry ${i + 1}`
    if (!/^[0-9a-f]{64}$/i.test(hash))
      throw new Error(
        isLegacyKey(hash)
          ? `${entry}: its name is a legacy key itself; name it by the key's SHA-256 (64 hex characters), never the key`
          : `${entry}: its name is not the SHA-256 hex of a legacy key (64 hex characters)`
      )
    map.set(hash.toLowerCase(), entryOf(value, entry))
  })
  return map
}

const kindOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`

/** What is wrong with one entry's value, or its entry. */
function entryOf(value: unknown, entry: string): KeyMapEntry {
  if (
    typeof value !== 'string' &&
    (value === null || typeof value !== 'object' || Array.isArray(value))
  )
    throw new Error(
      `${entry}: expected a user key or {"key", "scope", "account"}, not ${kindOf(value)}`
    )
  const { key, scope, account, ...rest } = (
    typeof value === 'string' ? { key: value } : value
  ) as Record<string, unknown>
  const wrong = [
    Object.keys(rest).length > 0 && 'fields other than key, scope and account',
    !(typeof key === 'string' && userKey.test(key)) &&
      'key is not a user key (1 to 256 visible ASCII characters, NRAK-…)',
    ![undefined, 'rest', 'license'].includes(scope as string) && 'scope is not rest or license',
    !(
      account === undefined ||
      (Number.isSafeInteger(account) && (account as number) > 0 && (account as number) < 2 ** 31)
    ) && 'account is not an account ID (a positive integer)',
  ].filter(Boolean)
  if (wrong.length) throw new Error(`${entry}: ${wrong.join('; ')}`)
  return { key, scope, account } as KeyMapEntry
}

/**
 * @module keys
 * The key v2bridge sends to NerdGraph for the key a caller presents. A user key goes as it is; a
 * legacy key (mappings/legacy-keys.ts) goes only through the `KEY_MAP` setting, which maps the
 * SHA-256 of a legacy key to a user key (NerdGraph takes user keys only: D-migrate). The map is a
 * secret: nothing here logs or returns it, and caches stay partitioned by the presented key.
 */
import { legacyKeyPatterns } from '../mappings/legacy-keys'
import { V2Error } from './errors'

export const legacyKeyTitle =
  'NerdGraph accepts only user keys (NRAK-…): send a user key, or map this legacy key to one in KEY_MAP'

export function isLegacyKey(key: string): boolean {
  return Object.values(legacyKeyPatterns).some((pattern) => pattern.test(key))
}

/** The upstream key for `presented` (whose SHA-256 hex is `keyHash`), or 401. */
export function upstreamKeyFor(
  presented: string,
  keyHash: string,
  keyMap: ReadonlyMap<string, string>
): string {
  const mapped = keyMap.get(keyHash)
  if (mapped !== undefined) return mapped
  if (isLegacyKey(presented)) throw new V2Error(401, legacyKeyTitle)
  return presented
}

/** `KEY_MAP`: a JSON object of lowercase SHA-256 hex → user key. Throws a message naming the setting
 * and never its content. */
export function parseKeyMap(text: string | undefined): Map<string, string> {
  if (text === undefined || text.trim() === '') return new Map()
  const bad = new Error(
    'KEY_MAP: expected a JSON object mapping the SHA-256 hex of a legacy key to a user key'
  )
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw bad
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw bad
  const map = new Map<string, string>()
  for (const [hash, key] of Object.entries(parsed)) {
    if (
      !/^[0-9a-f]{64}$/i.test(hash) ||
      typeof key !== 'string' ||
      !/^[\x21-\x7e]{1,256}$/.test(key)
    )
      throw bad
    map.set(hash.toLowerCase(), key)
  }
  return map
}

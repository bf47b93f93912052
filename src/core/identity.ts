/**
 * @module core/identity
 * Entity GUIDs and key fingerprints: a fingerprint names a caller's key everywhere v2bridge keeps
 * per-key state, so the key itself is never stored.
 */

/** APM application GUID: base64(`accountId|APM|APPLICATION|appId`), standard alphabet, no padding
 * (newrelic/entity-definitions `docs/entities/guid_spec.md`; newrelic-client-go
 * `pkg/entities/entity_guid_validator.go` uses RawStdEncoding). */
export function apmApplicationGuid(accountId: number, appId: number): string {
  return btoa(`${accountId}|APM|APPLICATION|${appId}`).replace(/=+$/, '')
}

export interface DecodedGuid {
  accountId: number
  domain: string
  type: string
  domainId: string
}

/** Decodes a GUID, padded or not, standard or URL-safe alphabet (the guid_spec says URL-safe, New
 * Relic's code uses standard). */
export function decodeGuid(guid: string): DecodedGuid | undefined {
  const b64 = guid.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '')
  if (!/^[A-Za-z0-9+/]+$/.test(b64)) return undefined
  let text: string
  try {
    text = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4))
  } catch {
    return undefined
  }
  const parts = text.split('|')
  if (parts.length !== 4 || !/^\d{1,10}$/.test(parts[0]!)) return undefined
  return { accountId: Number(parts[0]), domain: parts[1]!, type: parts[2]!, domainId: parts[3]! }
}

/** Hex SHA-256 of the caller's key: the partition of every cache, never the key itself. */
export type Fingerprint = (apiKey: string) => string | Promise<string>

/** The fingerprint through WebCrypto, which every runtime has (about 50 µs on Node: the digest
 * runs on libuv's thread pool; the Node entry passes src/node/fingerprint.ts instead). */
export async function keyFingerprint(apiKey: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(apiKey))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * Fingerprints of keys NerdGraph (or v2, or the key map) accepted, the most recently proven kept:
 * what may grow per key (the migration report) and what may send a large body before its key is
 * checked again. Fed by accepted keys only, so a made-up key never takes a place.
 */
export class VerifiedKeys {
  private readonly keys = new Set<string>()
  constructor(private readonly max = 10_000) {}

  has(keyHash: string): boolean {
    return this.keys.has(keyHash)
  }

  add(keyHash: string): void {
    this.keys.delete(keyHash)
    this.keys.add(keyHash)
    if (this.keys.size > this.max) this.keys.delete(this.keys.values().next().value!)
  }
}

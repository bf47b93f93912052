/**
 * @module node/fingerprint
 * The key fingerprint of src/core/identity.ts and the ETag digest of src/http/etag.ts through node:crypto,
 * synchronous (well under 1 µs for a key): the Node entry's choice. Only src/node.ts imports it, so the
 * Worker never reaches node:crypto.
 */
import * as crypto from 'node:crypto'
import type { BodyDigest } from '../http/etag'
import type { Fingerprint } from '../core/identity'

/** SHA-256 in hex. The one-shot `crypto.hash` (Node ≥ 20.12, Node docs "Crypto": `crypto.hash`) builds
 * no `Hash` object and costs about a quarter of `createHash` for a key; older Node takes `createHash`. */
const sha256: (data: string | Uint8Array) => string =
  typeof crypto.hash === 'function'
    ? (data) => crypto.hash('sha256', data, 'hex')
    : (data) => crypto.createHash('sha256').update(data).digest('hex')

export const nodeFingerprint: Fingerprint = (apiKey) => sha256(apiKey)

/** The ETag digest of src/http/etag.ts through node:crypto: the same 32 hex characters as WebCrypto's. */
export const nodeBodyDigest: BodyDigest = (body) => sha256(body).slice(0, 32)

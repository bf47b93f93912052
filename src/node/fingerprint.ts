/**
 * @module node/fingerprint
 * The key fingerprint of src/core/identity.ts and the ETag digest of src/http/etag.ts through node:crypto,
 * synchronous (about 1 µs for a key): the Node entry's choice. Only src/node.ts imports it, so the
 * Worker never reaches node:crypto.
 */
import { createHash } from 'node:crypto'
import type { BodyDigest } from '../http/etag'
import type { Fingerprint } from '../core/identity'

export const nodeFingerprint: Fingerprint = (apiKey) =>
  createHash('sha256').update(apiKey).digest('hex')

/** The ETag digest of src/http/etag.ts through node:crypto: the same 32 hex characters as WebCrypto's. */
export const nodeBodyDigest: BodyDigest = (body) =>
  createHash('sha256').update(body).digest('hex').slice(0, 32)

/**
 * @module node-fingerprint
 * The key fingerprint of src/identity.ts through node:crypto, synchronous and about 1 µs: the Node
 * entry's choice. Only src/node.ts imports it, so the Worker never reaches node:crypto.
 */
import { createHash } from 'node:crypto'
import type { Fingerprint } from './identity'

export const nodeFingerprint: Fingerprint = (apiKey) =>
  createHash('sha256').update(apiKey).digest('hex')

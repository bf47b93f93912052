/**
 * @module cli/key-transport
 * Where the command line may send a key: over TLS, or in clear only to this machine (a demo, a
 * bridge behind a local proxy). Used by `doctor --bridge` and `verify --from-report`. And how much of
 * an answer it reads: `cliFetch`.
 */
import { defaultAnswerMaxBytes } from '../core/config'
import { boundedFetch } from '../upstream/answer-body'

const loopback = ['localhost', '127.0.0.1', '[::1]']

/** Whether `url` may carry the key: https, or http to a loopback host. */
export function keySafeTo(url: string): boolean {
  const { protocol, hostname } = new URL(url)
  return protocol === 'https:' || (protocol === 'http:' && loopback.includes(hostname))
}

/** The command line's fetch (`doctor`, `verify`): every answer's body, read any way, fails past
 * `UPSTREAM_MAX_BYTES` decoded bytes, as the server's upstream reads do (src/upstream/answer-body.ts). */
export function cliFetch(
  fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init),
  maxBytes = defaultAnswerMaxBytes
): typeof fetch {
  return boundedFetch(fetchImpl, maxBytes)
}

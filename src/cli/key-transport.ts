/**
 * @module cli/key-transport
 * Where the command line may send a key: over TLS, or in clear only to this machine (a demo, a
 * bridge behind a local proxy). Used by `doctor --bridge` and `verify --from-report`.
 */

const loopback = ['localhost', '127.0.0.1', '[::1]']

/** Whether `url` may carry the key: https, or http to a loopback host. */
export function keySafeTo(url: string): boolean {
  const { protocol, hostname } = new URL(url)
  return protocol === 'https:' || (protocol === 'http:' && loopback.includes(hostname))
}

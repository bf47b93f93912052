/**
 * @module node/trusted-proxies
 * Node only (the Worker never imports it; Cloudflare builds the request URL there): whether a
 * socket's peer is one of `TRUSTED_PROXIES`, whose `X-Forwarded-*` then count (src/http/origin.ts).
 */

/** `peer` is one of `proxies`: an IP address, or an IPv4 block `a.b.c.d/n`. IPv4-mapped IPv6
 * addresses (`::ffff:10.0.0.1`, how Node reports IPv4 peers on a dual-stack socket) match as IPv4. */
export function isTrusted(peer: string | undefined, proxies: readonly string[]): boolean {
  if (!peer || proxies.length === 0) return false
  const address = peer.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').toLowerCase()
  return proxies.some((p) => {
    const [base, bits] = p.toLowerCase().split('/')
    if (bits === undefined) return base === address
    const a = ipv4(address)
    const b = ipv4(base!)
    if (a === undefined || b === undefined) return false
    const mask = Number(bits) === 0 ? 0 : (~0 << (32 - Number(bits))) >>> 0
    return (a & mask) >>> 0 === (b & mask) >>> 0
  })
}

function ipv4(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
  if (!m) return undefined
  const parts = m.slice(1).map(Number)
  if (parts.some((n) => n > 255)) return undefined
  return parts.reduce((acc, n) => acc * 256 + n, 0)
}

/** A `TRUSTED_PROXIES` entry: an IPv4 or IPv6 address, or an IPv4 block. */
export const proxyPattern = /^(\d{1,3}(\.\d{1,3}){3}(\/([12]?\d|3[0-2]))?|[\da-f:.]*:[\da-f:.]*)$/i

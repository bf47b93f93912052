/**
 * @module node/trusted-proxies
 * Node only (the Worker never imports it; Cloudflare builds the request URL there): whether a
 * socket's peer is one of `TRUSTED_PROXIES`, whose `X-Forwarded-*` then count (src/http/origin.ts).
 */

/** `peer` is one of `proxies`: an IPv4 or IPv6 address, or a block of either (`10.0.0.0/8`,
 * `fd00::/8`). IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`, how Node reports IPv4 peers on a
 * dual-stack socket) match as IPv4. */
export function isTrusted(peer: string | undefined, proxies: readonly string[]): boolean {
  if (!peer || proxies.length === 0) return false
  const address = addressOf(peer)
  if (!address) return false
  return proxies.some((p) => {
    const [base, bits] = p.split('/')
    const block = addressOf(base!)
    if (!block || block.width !== address.width) return false
    const prefix = bits === undefined ? block.width : Number(bits)
    const shift = BigInt(block.width - prefix)
    return address.value >> shift === block.value >> shift
  })
}

interface Address {
  value: bigint
  width: 32 | 128
}

function addressOf(text: string): Address | undefined {
  const plain = text
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain)
  const v4 = ipv4(mapped ? mapped[1]! : plain)
  if (v4 !== undefined) return { value: BigInt(v4), width: 32 }
  const v6 = ipv6(plain)
  return v6 === undefined ? undefined : { value: v6, width: 128 }
}

function ipv4(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
  if (!m) return undefined
  const parts = m.slice(1).map(Number)
  if (parts.some((n) => n > 255)) return undefined
  return parts.reduce((acc, n) => acc * 256 + n, 0)
}

/** An IPv6 address (RFC 4291 §2.2 text forms, `::` and a dotted IPv4 tail included) as 128 bits. */
function ipv6(text: string): bigint | undefined {
  if (!/^[\da-f:.]+$/.test(text) || (text.match(/::/g) ?? []).length > 1) return undefined
  let groups = text.split(':')
  const tail = groups.at(-1)!
  if (tail.includes('.')) {
    const v4 = ipv4(tail)
    if (v4 === undefined) return undefined
    groups = [...groups.slice(0, -1), (v4 >>> 16).toString(16), (v4 & 0xffff).toString(16)]
  }
  const gap = groups.indexOf('')
  if (text.includes('::')) {
    const head = text.startsWith('::') ? [] : groups.slice(0, gap)
    const rest = groups.slice(groups.lastIndexOf('') + 1)
    const missing = 8 - head.length - rest.length
    if (missing < 1) return undefined
    groups = [...head, ...Array<string>(missing).fill('0'), ...rest]
  }
  if (groups.length !== 8 || groups.some((g) => !/^[\da-f]{1,4}$/.test(g))) return undefined
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n)
}

/** A `TRUSTED_PROXIES` entry: an IPv4 or IPv6 address, or a block of either. */
export function isProxyEntry(entry: string): boolean {
  const [base, bits, more] = entry.split('/')
  if (more !== undefined) return false
  const address = addressOf(base!)
  if (!address) return false
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= address.width)
}

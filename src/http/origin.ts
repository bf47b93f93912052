/**
 * @module http/origin
 * Where the client reached v2bridge: scheme and host, for the HTTPS redirect and for `Link` URLs.
 * Nothing a client can forge decides it. On Workers the request URL is the truth (Cloudflare builds
 * it). On Node the socket gives the scheme and the Host header (or an absolute-form request line, RFC
 * 9112 §3.2.2) the host; `X-Forwarded-Proto` / `X-Forwarded-Host` count only when the peer is one of
 * `TRUSTED_PROXIES` (none by default; the match lives in src/node/trusted-proxies.ts, outside the Worker).
 * `PUBLIC_URL` pins the origin outright.
 */
import { V2Error } from '../core/errors'

export type Scheme = 'http' | 'https'

export interface Arrival {
  /** The scheme the client used. */
  scheme: Scheme
  /** The scheme came from a trusted proxy's `X-Forwarded-Proto` (any value: only `https` is https). */
  forwarded: boolean
  /** Origin for URLs given back to the client (`Link`, `Location`), without a trailing slash. */
  origin: string
}

export interface OriginSettings {
  publicUrl: string | undefined
}

/** A host as RFC 3986 allows it here: a DNS name or IPv4 address, or a bracketed IPv6, and a port. */
const hostPattern = /^([a-z\d][\w-]*(\.[\w-]+)*\.?|\[[\da-f:.]+\])(:\d{1,5})?$/i

export const originTitles = { host: 'Invalid Host header' } as const

/** How the request reached us. `connection` is the Node socket's scheme (undefined on Workers),
 * `trusted` whether its peer is one of `TRUSTED_PROXIES` (src/node/trusted-proxies.ts, Node only).
 * Throws 400 for a malformed host. */
export function arrivalOf(
  req: Request,
  url: URL,
  connection: Scheme | undefined,
  trusted: boolean,
  settings: OriginSettings
): Arrival {
  // The left-most value is what the first proxy saw from the client.
  const first = (name: string) => req.headers.get(name)?.split(',')[0]?.trim()
  // Fails closed: from a trusted proxy, only `https` is https; `http`, an empty or any other value
  // (`gopher`) is plain HTTP. Without the header the socket's scheme stands.
  const proto = trusted ? first('x-forwarded-proto')?.toLowerCase() : undefined
  const forwarded = proto !== undefined
  const scheme: Scheme = forwarded
    ? proto === 'https'
      ? 'https'
      : 'http'
    : (connection ?? (url.protocol === 'https:' ? 'https' : 'http'))
  const host = (trusted && first('x-forwarded-host')) || url.host
  if (!hostPattern.test(host)) throw new V2Error(400, originTitles.host)
  const origin = settings.publicUrl ?? `${scheme}://${host}`
  return { scheme, forwarded, origin }
}

/**
 * @module http/etag
 * v2's conditional GET (D-extract and D-deploy show `ETag: "<32 hex chars>"` on answers, as Rails'
 * Rack::ETag and Rack::ConditionalGet send them): every 200 gets an ETag of its body, and a GET or
 * HEAD whose `If-None-Match` names it is answered 304 without a body. The tag is the first 128 bits
 * of the body's SHA-256 (Web Crypto has no MD5 in Workers), so it is the same on every instance.
 * The digest reads the bytes src/http/respond.ts encoded once for both it and the write, so the answer
 * is never cloned, re-read or encoded twice.
 */
import type { MiddlewareHandler } from 'hono'
import type { Env } from './env'
import { renderedBytes } from './respond'

/** First 128 bits of the SHA-256 of the UTF-8 body, in hex: WebCrypto by default; the Node entry
 * passes node:crypto's synchronous digest (src/node/fingerprint.ts), the same bits without a trip
 * through libuv's thread pool. */
export type BodyDigest = (body: Uint8Array<ArrayBuffer>) => string | Promise<string>

export function etag(digest: BodyDigest = webDigest): MiddlewareHandler<Env> {
  return async (c, next) => {
    await next()
    if (c.res.status !== 200 || c.res.headers.has('ETag')) return
    const body = renderedBytes(c.res) ?? new Uint8Array(await c.res.clone().arrayBuffer())
    const digested = digest(body)
    const tag = `"${typeof digested === 'string' ? digested : await digested}"`
    c.res.headers.set('ETag', tag)
    const method = c.req.method
    if ((method === 'GET' || method === 'HEAD') && matches(c.req.header('if-none-match'), tag)) {
      const headers = new Headers(c.res.headers)
      headers.delete('Content-Type')
      headers.delete('Content-Length')
      c.res = undefined // replace, not merge (Hono copies the old headers onto a new response)
      c.res = new Response(null, { status: 304, headers })
    }
  }
}

export async function webDigest(body: Uint8Array<ArrayBuffer>): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', body))
  return Array.from(hash.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('')
}

/** RFC 9110 §13.1.2: weak comparison over a list of tags, or `*`. */
export function matches(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === tag)
}

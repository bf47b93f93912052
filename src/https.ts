/**
 * @module https
 * HTTPS is mandatory (D-301, New Relic docs
 * `rest-api-v2/troubleshooting/301-response-rest-api-calls`): a plain-HTTP request gets 301 to the
 * same path and query on https, with Rails' redirect body. On Workers the request URL carries the
 * scheme the client used; on Node the socket does, unless a proxy in front says otherwise in
 * `X-Forwarded-Proto`. `ALLOW_HTTP` accepts plain-HTTP connections for local use; a proxy's
 * `X-Forwarded-Proto: http` (a client on plain HTTP somewhere else) is still redirected.
 */
import type { MiddlewareHandler } from 'hono'
import type { Env } from './env'
import { urlOf } from './request-url'

export type Scheme = 'http' | 'https'

export interface Arrival {
  scheme: Scheme
  /** The scheme came from `X-Forwarded-Proto`. */
  forwarded: boolean
}

/** How the request reached us; `connection` is the Node socket's scheme, undefined on Workers. */
export function arrivalOf(req: Request, connection: Scheme | undefined): Arrival {
  if (connection === undefined) {
    return { scheme: urlOf(req).protocol === 'https:' ? 'https' : 'http', forwarded: false }
  }
  // The left-most value is what the first proxy saw from the client.
  const proto = req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
  if (proto === 'http' || proto === 'https') return { scheme: proto, forwarded: true }
  return { scheme: connection, forwarded: false }
}

export function mustRedirect(arrival: Arrival, allowHttp: boolean): boolean {
  return arrival.scheme === 'http' && !(allowHttp && !arrival.forwarded)
}

/** 301 to the https URL with the body D-301 shows (Rails `redirect_to`). */
export function redirectToHttps(url: URL): Response {
  const target = `https://${url.host}${url.pathname}${url.search}`
  const body = `<html><body>You are being <a href="${escapeHtml(target)}">redirected</a>.</body></html>`
  return new Response(body, {
    status: 301,
    headers: { Location: target, 'Content-Type': 'text/html; charset=utf-8' },
  })
}

export const httpsOnly: MiddlewareHandler<Env> = async (c, next) => {
  const arrival = arrivalOf(c.req.raw, c.env?.connectionScheme)
  if (mustRedirect(arrival, c.get('config').allowHttp)) {
    return redirectToHttps(urlOf(c.req.raw))
  }
  await next()
}

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => entities[ch]!)
}

/**
 * @module http/https
 * HTTPS is mandatory (D-301, New Relic docs
 * `rest-api-v2/troubleshooting/301-response-rest-api-calls`): a plain-HTTP request gets 301 to the
 * same path and query on https, with Rails' redirect body. On Workers the request URL carries the
 * scheme the client used; on Node the socket does, unless a trusted proxy in front says otherwise
 * (src/http/origin.ts). It fails closed: behind `TRUSTED_PROXIES` only a trusted proxy's
 * `X-Forwarded-Proto: https` counts as https; a missing header or any other value is plain HTTP.
 * `ALLOW_HTTP` accepts plain-HTTP connections for local use; a proxy's `X-Forwarded-Proto` other
 * than `https` (a client on plain HTTP somewhere else) is still redirected.
 */
import type { MiddlewareHandler } from 'hono'
import type { Env } from './env'
import { arrivalOf, type Arrival } from './origin'
import { urlOf } from './request-url'

/**
 * Plain HTTP is redirected, unless `ALLOW_HTTP` accepts it (a direct connection only), or `PUBLIC_URL`
 * is https and no proxy is trusted (`behindProxies` false): then plain HTTP is the TLS proxy in
 * front, and a redirect to `PUBLIC_URL` would send the client back where it came from, in a loop.
 * Plain HTTP on the public side is the proxy's to redirect. With trusted proxies, their
 * `X-Forwarded-Proto: https` is the only way in.
 */
export function mustRedirect(
  arrival: Arrival,
  allowHttp: boolean,
  publicUrl: string | undefined,
  behindProxies = false
): boolean {
  if (arrival.scheme !== 'http' || (allowHttp && !arrival.forwarded)) return false
  return arrival.forwarded || behindProxies || !publicUrl?.startsWith('https://')
}

/** 301 to the https URL with the body D-301 shows (Rails `redirect_to`), on the public origin. */
export function redirectToHttps(url: URL, arrival: Arrival): Response {
  const origin = arrival.origin.startsWith('https://')
    ? arrival.origin
    : arrival.origin.replace(/^http:/, 'https:')
  const target = `${origin}${url.pathname}${url.search}`
  const body = `<html><body>You are being <a href="${escapeHtml(target)}">redirected</a>.</body></html>`
  return new Response(body, {
    status: 301,
    headers: { Location: target, 'Content-Type': 'text/html; charset=utf-8' },
  })
}

/** Whether a Node socket's peer is a trusted proxy (src/node/trusted-proxies.ts). The Node entry
 * gives it when `TRUSTED_PROXIES` names any: its presence means plain HTTP comes through proxies. */
export type TrustPeer = (peer: string | undefined) => boolean

/** Settles the request's arrival (src/http/origin.ts) once: redirects plain HTTP, keeps the origin. */
export function httpsOnly(trustPeer: TrustPeer | undefined): MiddlewareHandler<Env> {
  return async (c, next) => {
    const config = c.get('config')
    const url = urlOf(c.req.raw)
    const connection = c.env?.connectionScheme
    const trusted = connection !== undefined && !!trustPeer?.(c.env?.peerAddress)
    const arrival = arrivalOf(c.req.raw, url, connection, trusted, config)
    c.set('origin', arrival.origin)
    if (mustRedirect(arrival, config.allowHttp, config.publicUrl, trustPeer !== undefined))
      return redirectToHttps(url, arrival)
    await next()
  }
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

/**
 * @module http/cors
 * CORS for browser-side v2 clients (Grafana datasource plugins and New Relic One apps call v2 from
 * the browser with `X-Api-Key` and read `Link`: vistaprint/grafana-newrelic-datasource-plugin,
 * newrelic-experimental/nr1-command-center [INFERRED], exact headers
 * UNCONFIRMED, proposal here). A preflight `OPTIONS` on any `/v2` path the operations table knows answers
 * 204 before the key check; every other answer, errors included, carries the allow-origin and the
 * exposed headers. Origins come from `CORS_ORIGINS` (default any); credentials are never allowed:
 * the key travels in a header, not a cookie.
 */
import type { MiddlewareHandler } from 'hono'
import type { Env } from './env'
import type { OperationRouter } from './operations'
import { pathWithoutFormat } from './render'
import { urlOf } from './request-url'

export const corsHeaders = {
  allowHeaders: 'X-Api-Key, Api-Key, Content-Type, X-Account-Id, NewRelic-Account-Id',
  exposeHeaders:
    'Link, ETag, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, ' +
    'X-RateLimit-Docs, NewRelic-OverloadProtection-Reset, NewRelic-OverloadProtection-Docs',
  maxAge: '86400',
} as const

/** The `Access-Control-Allow-Origin` value for a request's Origin, or undefined when not allowed. */
export function allowedOrigin(
  origins: '*' | readonly string[],
  origin: string | undefined
): string | undefined {
  if (origins === '*') return '*'
  return origin !== undefined && origins.includes(origin) ? origin : undefined
}

export function cors(operationOf: OperationRouter): MiddlewareHandler<Env> {
  return async (c, next) => {
    const origins = c.get('config').corsOrigins
    const allow = allowedOrigin(origins, c.req.header('origin'))
    const headers: Record<string, string> = allow ? { 'Access-Control-Allow-Origin': allow } : {}
    if (origins !== '*') headers['Vary'] = 'Origin'
    // A preflight is an OPTIONS with Access-Control-Request-Method (Fetch standard, "CORS-preflight
    // request"); any other OPTIONS is an ordinary request (405 with Allow).
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      const path = pathWithoutFormat(urlOf(c.req.raw).pathname)
      const { allowed } = operationOf('GET', path)
      if (allowed.length > 0) {
        return new Response(null, {
          status: 204,
          headers: {
            ...headers,
            ...(allow
              ? {
                  'Access-Control-Allow-Methods': [...allowed, 'OPTIONS'].join(', '),
                  'Access-Control-Allow-Headers': corsHeaders.allowHeaders,
                  'Access-Control-Max-Age': corsHeaders.maxAge,
                }
              : {}),
            Allow: [...allowed, 'OPTIONS'].join(', '),
          },
        })
      }
    }
    await next()
    if (allow) headers['Access-Control-Expose-Headers'] = corsHeaders.exposeHeaders
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value)
  }
}

/**
 * @module http/request-context
 * The first middleware of every request: its id, counters, caches and settings, and after the answer
 * the `X-Request-Id` header, the request counter of `/metrics` and the one request log line
 * (src/core/request-log.ts).
 */
import type { Context, MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import type { CacheRegistry } from '../core/cache'
import { parseConfig, type Config } from '../core/config'
import {
  logMethod,
  logPath,
  passes,
  requestIdFrom,
  requestLine,
  type RequestLog,
} from '../core/request-log'
import type { Telemetry } from '../upstream/telemetry'
import type { Bindings, Env } from './env'
import type { OperationRouter } from './operations'
import { pathWithoutFormat } from './render'
import { urlOf } from './request-url'

const configByBindings = new WeakMap<object, Config>()

/** The settings of a Worker's bindings, parsed once per bindings object (one per deployment). */
export function configFrom(env: Bindings | undefined): Config {
  if (!env) return parseConfig({})
  let config = configByBindings.get(env)
  if (!config) configByBindings.set(env, (config = parseConfig(env as Record<string, unknown>)))
  return config
}

export interface RequestContextOptions {
  /** Fixed settings (Node entry, tests); otherwise read from the Worker's bindings. */
  config: Config | undefined
  caches: CacheRegistry
  telemetry: Telemetry
  /** Receives the request's line; none when absent. */
  log: RequestLog | undefined
  operationOf: OperationRouter
  /** v2bridge's own answer for a comparison (src/compare/) is not a request of its own: no line,
   * no count. */
  isInternal: (req: Request) => boolean
}

export function requestContext(options: RequestContextOptions): MiddlewareHandler<Env> {
  const { caches, telemetry, log, operationOf } = options
  return async (c, next) => {
    const started = Date.now()
    const requestId = requestIdFrom(c.req.header('x-request-id'))
    c.set('requestId', requestId)
    c.set('stats', { upstreamRequests: 0, upstreamMs: 0 })
    c.set('caches', caches)
    c.set('config', options.config ?? configFrom(c.env))
    if (options.isInternal(c.req.raw)) {
      c.set('internal', true)
      return next()
    }
    await next()
    try {
      c.res.headers.set('X-Request-Id', requestId)
    } catch {
      c.res = new Response(c.res.body, c.res) // headers of a fetched response are immutable
      c.res.headers.set('X-Request-Id', requestId)
    }
    const stats = c.get('stats')
    const route = routeOf(c, operationOf)
    const totalMs = Date.now() - started
    telemetry.request(route, c.req.method, c.res.status, totalMs / 1000)
    const line = requestLine({
      requestId,
      method: logMethod(c.req.method),
      route,
      path: logPath(urlOf(c.req.raw)),
      status: c.res.status,
      upstreamRequests: stats.upstreamRequests,
      upstreamMs: stats.upstreamMs,
      totalMs,
      ...logContext(c),
      ...(c.get('failure') ? { error: c.get('failure') } : {}),
    })
    if (log && passes(c.get('config').logLevel, line.level)) log(line)
  }
}

/** The route template a request matched, for logs and metrics: the v2 operation's path (also for
 * a 405 on a known path), another route's registered pattern, or `unmatched`. Never the raw path. */
function routeOf(c: Context<Env>, operationOf: OperationRouter): string {
  const row = c.get('operation')
  if (row) return row.path
  const known =
    c.res.status === 405
      ? operationOf(c.req.method, pathWithoutFormat(urlOf(c.req.raw).pathname)).path
      : undefined
  return known ?? matchedRoutes(c).findLast((r) => r.method !== 'ALL')?.path ?? 'unmatched'
}

/** What a request line says beyond the basics: the key's fingerprint, the operation and how it is
 * answered, the account, the reason of an error, and whether it is a write (an audit line). */
function logContext(c: Context<Env>) {
  const row = c.get('operation')
  const keyHash = c.get('keyHash')
  const account = c.get('account')
  const reason = c.get('reason')
  return {
    ...(keyHash ? { key: keyHash.slice(0, 12) } : {}),
    ...(row ? { operation: `${row.method} ${row.path}`, answer: row.answer } : {}),
    ...(account !== undefined ? { account } : {}),
    ...(reason && c.res.status >= 400 ? { reason } : {}),
    ...(row && row.method !== 'GET' && c.req.method !== 'GET' ? { audit: true as const } : {}),
  }
}

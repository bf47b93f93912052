/**
 * @module http/health
 * `GET /healthz` (the process answers; no key, no upstream call) and `GET /readyz` (the settings are
 * valid), both JSON, outside /v2. They answer before the request log, HTTPS redirect and key checks:
 * probes come over plain HTTP from the container runtime or the load balancer, every few seconds.
 */
import { Hono } from './hono'
import { ConfigError, parseConfig, type Config } from '../core/config'
import type { Env } from './env'

const noStore = { 'Cache-Control': 'no-store' }

/** `fixed`: the settings the Node entry validated at start-up; on Workers they come from bindings. */
export function healthRoutes(fixed: Config | undefined): Hono<Env> {
  const health = new Hono<Env>()
  health.get('/healthz', (c) => c.json({ status: 'ok' }, 200, noStore))
  health.get('/readyz', (c) => {
    const problems = fixed ? [] : configProblems(c.env as Record<string, unknown> | undefined)
    return problems.length
      ? c.json({ status: 'not ready', problems }, 503, noStore)
      : c.json({ status: 'ready' }, 200, noStore)
  })
  return health
}

/** Each invalid setting's line of the ConfigError (names and expectations, never values). */
function configProblems(env: Record<string, unknown> | undefined): string[] {
  try {
    parseConfig(env ?? {})
    return []
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    return err.message
      .split('\n')
      .slice(1)
      .map((line) => line.trim())
  }
}

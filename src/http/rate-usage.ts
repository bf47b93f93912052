/**
 * @module http/rate-usage
 * v2's per-key call count, kept only to tell the truth on a 429 (New Relic docs "API overload
 * protection: Handling 429 errors"): `X-RateLimit-Remaining` is what is left of the key's 1000
 * calls in the current minute and `X-RateLimit-Reset` the minute's end, not a constant `0`.
 * v2bridge does not enforce the 1000 calls: it answers 429 only when NerdGraph throttles or a
 * request could not start within its time budget (src/upstream/nerdgraph.ts). The 429 body is v2's
 * documented `{}` as JSON (same page).
 */
import type { MiddlewareHandler } from 'hono'
import { rateLimitUsageHeaders, v2RateLimit } from '../../mappings/rate-limit-headers'
import type { Env } from './env'

const minuteMs = 60_000

export interface RateWindow {
  /** Counts one call of `partition` at `now`; returns the calls left and the window's end (ms). */
  count(partition: string, now: number): { remaining: number; resetMs: number }
}

/** Fixed one-minute windows per key; at most `maxKeys` keys are counted per minute. */
export function createRateWindow(maxKeys = 10_000): RateWindow {
  let minute = -1
  let calls = new Map<string, number>()
  return {
    count(partition, now) {
      const current = Math.floor(now / minuteMs)
      if (current !== minute) [minute, calls] = [current, new Map()]
      const used = (calls.get(partition) ?? 0) + 1
      if (calls.has(partition) || calls.size < maxKeys) calls.set(partition, used)
      return { remaining: Math.max(0, v2RateLimit - used), resetMs: (current + 1) * minuteMs }
    },
  }
}

/** After the key is known: counts the call; a 429 gets the key's real figures and v2's body. */
export function rateUsage(window: RateWindow = createRateWindow()): MiddlewareHandler<Env> {
  return async (c, next) => {
    const usage = window.count(c.get('keyHash'), Date.now())
    await next()
    if (c.res.status !== 429) return
    const headers = new Headers(c.res.headers)
    for (const [name, value] of Object.entries(rateLimitUsageHeaders(usage))) {
      headers.set(name, value)
    }
    headers.set('Content-Type', 'application/json')
    c.res = undefined // replace, not merge (Hono copies the old headers onto a new response)
    c.res = new Response('{}', { status: 429, headers })
  }
}

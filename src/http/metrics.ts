/**
 * @module http/metrics
 * `GET /metrics` on Node: the app's counters (src/upstream/telemetry.ts) in Prometheus text, then the
 * entry's own (process metrics); 404 when `METRICS=false`. Answered before the request log, as the
 * health routes are.
 */
import type { Handler } from 'hono'
import type { Config } from '../core/config'
import { titles } from '../core/errors'
import { contentType } from '../core/prometheus'
import type { Telemetry } from '../upstream/telemetry'
import type { Env } from './env'
import { configFrom } from './request-context'
import { render } from './respond'

/** Counts nothing: the Worker's telemetry, where each isolate would only count its own share of the
 * calls (Workers Logs and Cloudflare's analytics see them all), so there is no `/metrics`. */
export const uncounted: Telemetry = {
  request() {},
  upstreamAttempt() {},
  upstreamRetry() {},
  upstreamFault() {},
  cacheLookup() {},
  compared() {},
  render: () => '',
}

/** `fixed`: the Node entry's settings; `more`: the entry's own metrics after the app's. */
export function metricsAnswer(
  telemetry: Telemetry,
  fixed: Config | undefined,
  more?: () => string
): Handler<Env> {
  return (c) => {
    const config = fixed ?? configFrom(c.env)
    if (config.metrics === false) return render('json', { error: { title: titles.notFound } }, 404)
    return c.body(telemetry.render() + (more?.() ?? ''), 200, {
      'Content-Type': contentType,
      'Cache-Control': 'no-store',
    })
  }
}

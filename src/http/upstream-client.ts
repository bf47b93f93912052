/**
 * @module http/upstream-client
 * The request's upstreams: its NerdGraph client (src/upstream/nerdgraph.ts), bound to the caller's
 * key with one budget for the whole v2 request, and the forwarder of a kept v2 call to the real v2
 * (src/http/forward.ts). Both count into the request's log line, and mark the key verified once the
 * upstream accepted it (src/core/identity.ts `VerifiedKeys`).
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { Config } from '../core/config'
import type { VerifiedKeys } from '../core/identity'
import type { UpstreamLimits } from '../upstream/limits'
import { createUpstream, type Upstream } from '../upstream/nerdgraph'
import type { RetryClock } from '../upstream/retry'
import type { Telemetry } from '../upstream/telemetry'
import type { SharedAnswerStore } from '../upstream/answer-store'
import type { Env } from './env'
import { forward } from './forward'

/** What every upstream call of one app shares. */
export interface UpstreamParts {
  /** Per app instance: one caller's queue or in-flight request never touches another app's. */
  limits: UpstreamLimits
  telemetry: Telemetry
  /** The fetch of upstream calls; the platform's when absent. */
  fetch: typeof fetch | undefined
  /** Clock and randomness of retries (tests make them deterministic). */
  clock: RetryClock | undefined
  /** The second tier of shared NRQL answers (the Worker's Cache API); none when absent. */
  store?: SharedAnswerStore | undefined
}

const transport = (parts: UpstreamParts) => ({
  ...(parts.fetch ? { fetch: parts.fetch } : {}),
  ...(parts.clock ? { clock: parts.clock } : {}),
})

/** Adds one upstream request's duration to the request's counters (the log line). */
function counted(c: Context<Env>) {
  const stats = c.get('stats')
  return (ms: number) => {
    stats.upstreamRequests += 1
    stats.upstreamMs += ms
  }
}

/** Sets the caller's NerdGraph client (`nerdgraph`) from the key the request settled on. */
export function upstreamClient(
  parts: UpstreamParts,
  verifiedKeys: VerifiedKeys
): MiddlewareHandler<Env> {
  // One NerdGraph client per configuration (the Worker's bindings are one object per deployment).
  const upstreams = new WeakMap<Config, Upstream>()
  const upstreamFor = (config: Config) => {
    let upstream = upstreams.get(config)
    if (!upstream) {
      upstream = createUpstream({
        endpoint: config.nerdgraphUrl,
        limits: parts.limits,
        telemetry: parts.telemetry,
        maxAnswerBytes: config.upstreamMaxBytes,
        share: config.sharedAnswers,
        ...(parts.store ? { answerStore: parts.store } : {}),
        ...transport(parts),
      })
      upstreams.set(config, upstream)
    }
    return upstream
  }
  return async (c, next) => {
    const config = c.get('config')
    const keyHash = c.get('keyHash')
    c.set(
      'nerdgraph',
      upstreamFor(config).forCaller({
        apiKey: c.get('upstreamKey'),
        partition: keyHash,
        timeoutMs: config.upstreamTimeoutMs,
        // One budget for the whole v2 request: every NerdGraph call, retry and queue wait in it.
        deadline: (parts.clock?.now() ?? Date.now()) + config.upstreamTimeoutMs,
        onUpstream: counted(c),
        onAccepted: () => {
          c.set('keyVerified', true)
          verifiedKeys.add(keyHash)
        },
      })
    )
    if (c.get('keyVerified')) verifiedKeys.add(keyHash)
    return next()
  }
}

/** Sends a kept alerts call (or, in compare mode, `req`) unchanged to the real v2 with the caller's
 * own key; `comparison`: a comparison's own read, in a lane of its own, never the key's, and read
 * within half of `UPSTREAM_MAX_BYTES` (16 MiB by default, twice v2's largest answer): several
 * comparisons read at once, after the answer, and a v2 read too large for them only costs its
 * comparison (`bridge`: an error; `v2`: a read again that teaches nothing), never a caller's
 * answer (issue 40: 32 MiB reads of a hostile v2 held callers' requests). */
export type ForwardCall = (
  c: Context<Env>,
  req?: Request,
  comparison?: boolean
) => Promise<Response>

export function forwarder(parts: UpstreamParts, verifiedKeys: VerifiedKeys): ForwardCall {
  return async (c, req, comparison = false) => {
    const config = c.get('config')
    const res = await forward(req ?? c.req.raw, req ? undefined : c.env?.getBody, {
      base: config.v2Url,
      timeoutMs: config.upstreamTimeoutMs,
      maxBytes: comparison ? config.upstreamMaxBytes / 2 : config.upstreamMaxBytes,
      partition: comparison ? `compare:${c.get('keyHash')}` : c.get('keyHash'),
      limits: parts.limits,
      origin: c.get('origin'),
      ...transport(parts),
      onUpstream: counted(c),
    })
    // v2 itself accepted the key unless it refused it or failed.
    if (res.status < 500 && res.status !== 401 && res.status !== 403) {
      c.set('keyVerified', true)
      verifiedKeys.add(c.get('keyHash'))
    }
    return res
  }
}

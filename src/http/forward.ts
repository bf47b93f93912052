/**
 * @module http/forward
 * The alerts endpoints New Relic keeps after the end of life (policies and the condition families,
 * mappings/operations.ts `forwarded`) go unchanged to New Relic's REST API v2 of the region
 * (`V2_URL`): method, path, query, body and key as they came, headers allowlisted both ways
 * (`forwardedHeaders`). v2's answers, its errors included, come back as they are. Around the one fetch,
 * as for NerdGraph calls: the key's slots (src/upstream/limits.ts), the read/write retry policy within
 * `UPSTREAM_TIMEOUT_MS` (src/upstream/retry.ts), the answer read within `UPSTREAM_MAX_BYTES`
 * (src/upstream/answer-body.ts), faults as v2 errors (mappings/upstream-errors.ts), and a write
 * whose answer was lost said to be maybe applied, as NerdGraph writes are (src/upstream/nerdgraph.ts).
 * With src/upstream/nerdgraph.ts, the only module that does upstream I/O; the key travels in its header only.
 */
import { rateLimitHeaderTable } from '../../mappings/rate-limit-headers'
import { forwardStatus } from '../../mappings/upstream-errors'
import { bodyLimits, checkEncoding, readCapped, getBodyOf } from './body'
import { V2Error, titles, tooManyRequests } from '../core/errors'
import { paramsFromBody } from './params'
import { bytesResponse } from './respond'
import {
  retryPolicies,
  systemClock,
  UpstreamFault,
  withRetry,
  type FaultKind,
  type RetryClock,
} from '../upstream/retry'
import { parseRetryAfter } from '../upstream/fault'
import { OverloadError, type UpstreamLimits } from '../upstream/limits'
import { Abort, asSignal, initFor } from '../upstream/abort'
import { AnswerTooLarge, defaultAnswerMaxBytes, readAnswer } from '../upstream/answer-body'
import { unconfirmed } from '../upstream/nerdgraph'

export interface ForwardOptions {
  /** `V2_URL`, e.g. `https://api.newrelic.com/v2`. */
  base: string
  timeoutMs: number
  /** `UPSTREAM_MAX_BYTES`: decoded bytes of v2's answer read at most. */
  maxBytes?: number
  /** Fingerprint of the key: the partition of the limits. */
  partition: string
  limits: UpstreamLimits
  /** v2bridge's public origin: `Link` and `Location` pointing into `base` are moved onto it. */
  origin?: string
  fetch?: typeof fetch
  clock?: RetryClock
  onUpstream?: (ms: number) => void
}

/** What goes to v2 and what comes back, allowlisted both ways: only what v2 reads (its key headers,
 * content negotiation, the client's name, the request id) travels up; only content headers, `Link`,
 * the rate-limit headers (mappings/rate-limit-headers.ts) and `Retry-After` come back. Cookies,
 * `Authorization`, `Forwarded`/`X-Forwarded-*`, `Via`, `Origin` or another key header never pass. */
const requestHeaders = [
  'x-api-key',
  'api-key',
  'accept',
  'content-type',
  'user-agent',
  'x-request-id',
]
export const forwardedHeaders = {
  request: requestHeaders,
  /** The legacy v0 call (compare mode `v2`) also takes a license key; v2 itself never does. */
  v0Request: [...requestHeaders, 'x-license-key'],
  response: [
    'content-type',
    'etag',
    'cache-control',
    'link',
    'location',
    'retry-after',
    ...Object.keys(rateLimitHeaderTable).map((h) => h.toLowerCase()),
  ],
} as const

/** The headers of `headers` that `allowed` names, nothing else. */
export function allowlisted(headers: Headers, allowed: readonly string[]): Headers {
  const out = new Headers()
  for (const name of allowed) {
    const value = headers.get(name)
    if (value !== null) out.set(name, value)
  }
  return out
}

const maxForwardUrl = 8 * 1024

/** The v2 URL a request goes to: `V2_URL` + the path after `/v2` + the query, as sent. The legacy
 * v0 `/deployments.xml` lives beside `/v2` on the same host (`https://api.newrelic.com/deployments.xml`). */
export function forwardUrl(base: string, url: URL): string {
  const root = base.replace(/\/+$/, '')
  if (!url.pathname.startsWith('/v2/'))
    return `${root.replace(/\/v2$/, '')}${url.pathname}${url.search}`
  return `${root}${url.pathname.slice(3)}${url.search}`
}

/**
 * Forwards `req`. A GET body (curl `-X GET -d`; src/http/body.ts `getBodyOf`) cannot travel on a
 * fetch GET: its parameters join the query string, where Rails reads them the same way
 * (src/http/params.ts).
 */
export async function forward(
  req: Request,
  getBody: (() => ReadableStream<Uint8Array> | null) | undefined,
  options: ForwardOptions
): Promise<Response> {
  const url = new URL(req.url)
  const v0 = !url.pathname.startsWith('/v2/')
  const headers = allowlisted(
    req.headers,
    v0 ? forwardedHeaders.v0Request : forwardedHeaders.request
  )
  let body: string | undefined
  checkEncoding(req.headers)
  const isRead = req.method === 'GET' || req.method === 'HEAD'
  if (isRead) {
    const text = await readCapped(
      getBodyOf(req, getBody),
      bodyLimits.read,
      req.headers.get('content-length')
    )
    for (const [k, v] of paramsFromBody(text, req.headers.get('content-type') ?? undefined))
      url.searchParams.append(k, v)
    headers.delete('content-type')
  } else {
    body = await readCapped(req.body, bodyLimits.forwarded, req.headers.get('content-length'))
  }
  const target = forwardUrl(options.base, url)
  // A GET body's parameters join the query: past 8 KiB (the request line most servers and proxies
  // take, as for `Link`, src/http/link-header.ts) v2 would refuse it, so v2bridge answers first.
  if (target.length > maxForwardUrl) throw new V2Error(414, 'URI Too Long')
  const clock = options.clock ?? systemClock
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const policy = retryPolicies[isRead ? 'read' : 'write']
  const deadline = clock.now() + options.timeoutMs
  const maxBytes = options.maxBytes ?? defaultAnswerMaxBytes
  /** The kind of the last failed attempt: whether a write may have run. */
  let lastKind: FaultKind | undefined

  const attempt = async (remainingMs: number): Promise<Response> => {
    const controller = new Abort()
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          const fault = fault504()
          controller.abort(fault)
          reject(fault)
        },
        Math.max(0, remainingMs)
      )
    })
    const sentAt = clock.now()
    try {
      return await Promise.race([
        options.limits.slot(options.partition, controller, async () => {
          const init: RequestInit = { method: req.method, headers, redirect: 'manual' }
          if (body !== undefined) init.body = body
          let res: Response
          try {
            res = await fetchImpl(
              target,
              initFor(fetchImpl, { ...init, signal: asSignal(controller) })
            )
          } catch (err) {
            throw controller.aborted ? controller.reason : faultOf('network', err)
          }
          const bytes = await readAnswer(res, 'bytes', maxBytes)
          return settle(res, bytes, (h) => onOrigin(h, options))
        }),
        timedOut,
      ])
    } catch (err) {
      if (err instanceof OverloadError) throw new UpstreamFault('final', tooManyRequests(1))
      // An answer too large to read is not retried, but a write it answered may have run.
      if (err instanceof AnswerTooLarge) {
        lastKind = 'badBody'
        throw faultOf('tooLarge', err)
      }
      if (err instanceof UpstreamFault) lastKind = err.kind
      throw err
    } finally {
      clearTimeout(timer)
      options.onUpstream?.(clock.now() - sentAt)
    }
  }
  const answer = withRetry(attempt, policy, {
    deadline,
    minAttemptMs: Math.min(1000, options.timeoutMs / 4),
    clock,
  })
  if (isRead) return answer
  return answer.catch((err: unknown) =>
    Promise.reject(unconfirmed(err, lastKind, titles.forwardedWriteUnconfirmed))
  )
}

const fault504 = () => faultOf('timeout')

/** The retry kind of each forwarding fault (src/upstream/retry.ts). */
const faultKinds = {
  timeout: 'timeout',
  network: 'network',
  badGateway: 'http5xx',
  tooLarge: 'final',
} as const satisfies Record<keyof typeof forwardStatus, FaultKind>

function faultOf(which: keyof typeof forwardStatus, cause?: unknown): UpstreamFault {
  const { status, title } = forwardStatus[which]
  return new UpstreamFault(faultKinds[which], new V2Error(status, title, { cause }))
}

/** v2's answer as it is, but 429 and 5xx: faults the retry policy may try again, then v2 errors. */
function settle(
  res: Response,
  bytes: Uint8Array<ArrayBuffer>,
  rebase: (h: Headers) => Headers
): Response {
  if (res.status === 429) {
    // v2 sends X-RateLimit-Reset (epoch seconds) on 429, Retry-After on overload (D-429).
    const reset = Number(res.headers.get('x-ratelimit-reset'))
    const seconds =
      parseRetryAfter(res.headers.get('retry-after')) ??
      (reset > 0
        ? parseRetryAfter(String(Math.max(1, Math.ceil(reset - Date.now() / 1000))))
        : undefined)
    throw new UpstreamFault('http429', tooManyRequests(seconds ?? 1), seconds)
  }
  if (res.status >= 500) {
    const fault = faultOf('badGateway')
    throw res.status === 501 ? new UpstreamFault('final', fault.error) : fault
  }
  const init = {
    status: res.status,
    headers: rebase(allowlisted(res.headers, forwardedHeaders.response)),
  }
  return res.status === 204 || res.status === 304
    ? new Response(null, init)
    : bytesResponse(bytes, init)
}

/**
 * v2's page links (and a redirect's target) name v2's own host. A client that follows them must stay
 * on v2bridge, as it does on the routes v2bridge answers, so URLs under `base` move to the public
 * origin's `/v2`; any other URL is left as v2 sent it.
 */
export function onOrigin(headers: Headers, options: Pick<ForwardOptions, 'base' | 'origin'>) {
  if (!options.origin) return headers
  const from = options.base.replace(/\/+$/, '')
  const to = `${options.origin}/v2`
  const move = (url: string) =>
    url === from || url.startsWith(`${from}/`) || url.startsWith(`${from}?`)
      ? to + url.slice(from.length)
      : url
  const link = headers.get('link')
  if (link)
    headers.set(
      'link',
      link.replace(/<([^>]*)>/g, (_, url: string) => `<${move(url)}>`)
    )
  const location = headers.get('location')
  if (location) headers.set('location', move(location))
  return headers
}

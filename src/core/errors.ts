/**
 * @module core/errors
 * The one error type of v2bridge: an HTTP status plus the v2 error title (`{"error":{"title"}}`:
 * newrelic-client-go `internal/http` REST 401 test, `errors.go`).
 * `app.onError` (src/app.ts) is the only place that turns it into a response.
 */
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { rateLimitHeaders } from '../../mappings/rate-limit-headers'

export interface V2ErrorOptions {
  /** Extra response headers (e.g. `Allow` on 405, rate-limit headers on 429). */
  headers?: Record<string, string>
  /** v2 `error.messages` (validation errors: newrelic-client-go `errors.go`,
   * opsmatters/newrelic-api). */
  messages?: string[]
  cause?: unknown
  /** The request line's `reason` when the v2 title alone would not tell an operator why (the
   * title stays v2's, as clients expect). Never holds a key. */
  reason?: string
}

export class V2Error extends HTTPException {
  readonly title: string
  readonly headers: Record<string, string>
  readonly messages: string[] | undefined
  readonly reason: string | undefined

  constructor(status: ContentfulStatusCode, title: string, options: V2ErrorOptions = {}) {
    super(status, { message: title, cause: options.cause })
    this.name = 'V2Error'
    this.title = title
    this.headers = options.headers ?? {}
    this.messages = options.messages
    this.reason = options.reason
  }
}

/** v2 titles used in more than one place (sources per line; tags in docs/sources.md). */
export const titles = {
  noKey: 'No API key specified', // observed body (GO internal/http client_test)
  badKey: 'Invalid API Key', // observed bodies (KEYR, UIOWA issue #8880)
  apiAccess: 'New Relic API access has not been enabled', // v2 403, SW11 reason
  notFound: 'Not found', // [INFERRED] proposal for unknown paths: v2's error shape, not an HTML 404
  noApplication: 'No Application found with the given ID', // SW11 reason
  serverError: 'A server error occurred, please contact New Relic support', // SW11 reason, without the HTML link
  tooManyRequests: 'Too many requests', // D-429 status line; the documented body is `{}`
  methodNotAllowed: 'Method not allowed', // [INFERRED] RFC 9110 §15.5.6 reason phrase
  bodyTooLarge: 'Request body too large', // [INFERRED] RFC 9110 §15.5.14
  clientClosed: 'Client closed the request', // logged only: nginx's 499, nobody reads the answer
  /** A write whose answer was lost after it was sent: it may have happened (issue 22, item 7). */
  writeUnconfirmed:
    'NerdGraph did not confirm the change, which may have been applied: check before retrying',
  /** The same for a write v2bridge forwarded to v2 (src/http/forward.ts; issue 40, item 6). */
  forwardedWriteUnconfirmed:
    "New Relic's REST API v2 did not confirm the change, which may have been applied: check before retrying",
} as const

/** A 429 with both v2 header families and `Retry-After` (D-429; mappings/rate-limit-headers.ts). */
export function tooManyRequests(retryAfterSeconds: number, cause?: unknown): V2Error {
  return new V2Error(429, titles.tooManyRequests, {
    headers: rateLimitHeaders(retryAfterSeconds),
    cause,
  })
}

/**
 * @module errors
 * The one error type of v2bridge: an HTTP status plus the v2 error title (contract §1.7).
 * `app.onError` (src/app.ts) is the only place that turns it into a response.
 */
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { rateLimitHeaders } from '../mappings/rate-limit-headers'

export interface V2ErrorOptions {
  /** Extra response headers (e.g. `Allow` on 405, rate-limit headers on 429). */
  headers?: Record<string, string>
  /** v2 `error.messages` (contract §1.7, validation errors). */
  messages?: string[]
  cause?: unknown
}

export class V2Error extends HTTPException {
  readonly title: string
  readonly headers: Record<string, string>
  readonly messages: string[] | undefined

  constructor(status: ContentfulStatusCode, title: string, options: V2ErrorOptions = {}) {
    super(status, { message: title, cause: options.cause })
    this.name = 'V2Error'
    this.title = title
    this.headers = options.headers ?? {}
    this.messages = options.messages
  }
}

/** v2 titles used in more than one place (contract §1.7, §8 item 1-2). */
export const titles = {
  noKey: 'No API key specified', // contract §1.7, observed body (GO client_test)
  badKey: 'Invalid API Key', // contract §1.7, KEYR/UIOWA
  notFound: 'Not found', // contract §2.17 proposal for unknown paths [INFERRED]
  noApplication: 'No Application found with the given ID', // SW11 reason
  serverError: 'A server error occurred, please contact New Relic support', // SW11 reason, without the HTML link
  tooManyRequests: 'Too many requests', // D-429 status line; the documented body is `{}`
  methodNotAllowed: 'Method not allowed', // [INFERRED] RFC 9110 §15.5.6 reason phrase
  bodyTooLarge: 'Request body too large', // [INFERRED] RFC 9110 §15.5.14
  clientClosed: 'Client closed the request', // logged only: nginx's 499, nobody reads the answer
} as const

/** A 429 with both v2 header families and `Retry-After` (contract §1.8). */
export function tooManyRequests(retryAfterSeconds: number, cause?: unknown): V2Error {
  return new V2Error(429, titles.tooManyRequests, {
    headers: rateLimitHeaders(retryAfterSeconds),
    cause,
  })
}

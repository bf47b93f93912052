/**
 * @module mappings/rate-limit-headers
 * The headers of a v2 429 (New Relic docs "API overload protection: Handling 429 errors", D-429):
 * both header families, the two Reset values equal, plus `Retry-After`. Normal responses carry none
 * of them.
 */

/** v2's documented limit: 1000 calls per minute per API key (D-429). */
export const v2RateLimit = 1000

/** The page D-429 links from `X-RateLimit-Docs`. */
export const rateLimitDocs =
  'https://docs.newrelic.com/docs/apis/rest-api-v2/requirements/api-overload-protection-preventing-429-errors'

/** Header name → value, given when the caller may try again (unix seconds) and in how many seconds. */
export const rateLimitHeaderTable = {
  'X-RateLimit-Limit': () => String(v2RateLimit), // D-429
  'X-RateLimit-Remaining': () => '0', // D-429; src/http/rate-usage.ts writes the key's real figure
  'X-RateLimit-Reset': (reset: number) => String(reset), // D-429: unix seconds when the period ends
  'X-RateLimit-Docs': () => rateLimitDocs, // D-429
  'NewRelic-OverloadProtection-Reset': (reset: number) => String(reset), // older D-429; MRF panics without it
  'NewRelic-OverloadProtection-Docs': () => rateLimitDocs, // older D-429
  'Retry-After': (_reset: number, seconds: number) => String(seconds), // D-429: general overload
} as const satisfies Record<string, (reset: number, seconds: number) => string>

/** The 429 headers for "try again in `retryAfterSeconds`" at time `nowMs`. */
export function rateLimitHeaders(
  retryAfterSeconds: number,
  nowMs = Date.now()
): Record<string, string> {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds))
  const reset = Math.ceil(nowMs / 1000) + seconds
  return Object.fromEntries(
    Object.entries(rateLimitHeaderTable).map(([name, value]) => [name, value(reset, seconds)])
  )
}

/** The figures of one key's current minute (src/http/rate-usage.ts): calls left, and the minute's end as
 * unix seconds in both Reset headers, which must agree (D-429; mrf/newrelic_exporter reads the older one). */
export function rateLimitUsageHeaders(usage: {
  remaining: number
  resetMs: number
}): Record<string, string> {
  const reset = String(Math.ceil(usage.resetMs / 1000))
  return {
    'X-RateLimit-Remaining': String(usage.remaining),
    'X-RateLimit-Reset': reset,
    'NewRelic-OverloadProtection-Reset': reset,
  }
}

/**
 * @module mappings/upstream-errors
 * NerdGraph GraphQL error classes → v2 status, title and fault kind (src/upstream/retry.ts decides from the kind
 * whether another attempt may help). `rank` picks the most severe when several errors come back.
 * Sources: newrelic/newrelic-client-go `internal/http/graphql.go`, `retry.go`; its issue #603 (401
 * `BAD_API_KEY`).
 * Titles never carry NerdGraph's own text.
 */
export interface UpstreamStatus {
  status: 401 | 403 | 404 | 422 | 429 | 500 | 502 | 504
  title: string
  rank: number
  kind: 'throttled' | 'transient' | 'final'
}

const rejected = 'NerdGraph rejected the query v2bridge sent'
const failed = 'NerdGraph failed to answer'

export const errorClassStatus = {
  BAD_API_KEY: { status: 401, title: 'Invalid API Key', rank: 90, kind: 'final' }, // error_code on HTTP 401
  FORBIDDEN: {
    status: 403,
    title: 'Access to this account is not allowed',
    rank: 60,
    kind: 'final',
  },
  TOO_MANY_REQUESTS: { status: 429, title: 'Too many requests', rank: 80, kind: 'throttled' }, // also HTTP 200
  TIMEOUT: { status: 504, title: 'NerdGraph query timed out', rank: 70, kind: 'transient' }, // NRDB timeout
  INTERNAL_SERVER_ERROR: { status: 502, title: failed, rank: 50, kind: 'transient' }, // client-go retries
  SERVER_ERROR: { status: 502, title: failed, rank: 50, kind: 'transient' }, // client-go retries
  INVALID_INPUT: { status: 502, title: rejected, rank: 40, kind: 'final' },
  NRQL_SYNTAX_ERROR: { status: 502, title: rejected, rank: 40, kind: 'final' },
  GRAPHQL_VALIDATION_FAILED: { status: 502, title: rejected, rank: 40, kind: 'final' },
  default: { status: 502, title: failed, rank: 0, kind: 'final' },
} as const satisfies Record<string, UpstreamStatus>

/**
 * Every shape in which NerdGraph says the key may not use an account, read as `FORBIDDEN` (v2's 404
 * for a read of another account's resource, 403 for a write): the `FORBIDDEN` class, the
 * `ACCESS_DENIED` class, and the message "Access denied." with no class at all, as live answers
 * another account (terraform-provider-newrelic issues #755 "Access Denied., null" and #833).
 */
export const noAccess = {
  classes: ['FORBIDDEN', 'ACCESS_DENIED'],
  classlessMessages: [/^\s*access denied\.?\s*$/i],
} as const

/** Transport-level faults (no GraphQL result to classify). */
export const transportStatus = {
  timeout: { status: 504, title: 'NerdGraph did not answer in time' },
  network: { status: 502, title: 'NerdGraph could not be reached' },
  http5xx: { status: 502, title: failed },
  badBody: { status: 502, title: 'NerdGraph sent a body that is not JSON' },
  httpOther: { status: 502, title: failed },
  // Past UPSTREAM_MAX_BYTES (src/upstream/answer-body.ts): never read whole, never retried.
  tooLarge: { status: 502, title: 'NerdGraph sent an answer larger than UPSTREAM_MAX_BYTES' },
} as const satisfies Record<string, { status: 502 | 504; title: string }>

const v2 = "New Relic's REST API v2"

/** Faults of a forwarded call (src/http/forward.ts); v2's own answers pass unchanged. */
export const forwardStatus = {
  timeout: { status: 504, title: `${v2} did not answer in time` },
  network: { status: 502, title: `${v2} could not be reached` },
  badGateway: { status: 502, title: `${v2} failed to answer` },
  tooLarge: { status: 502, title: `${v2} sent an answer larger than UPSTREAM_MAX_BYTES` },
} as const satisfies Record<string, { status: 502 | 504; title: string }>

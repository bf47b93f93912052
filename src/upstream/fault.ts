/**
 * @module upstream/fault
 * Classifies what one NerdGraph attempt returned: a result, judged by the partial-errors policy
 * (mappings/partial-errors.ts), or an `UpstreamFault` with the retry kind and the v2 error to answer
 * (mappings/upstream-errors.ts). Nothing NerdGraph said is copied into a title.
 */
import {
  optionalAlertsAlias,
  wholeRequestClasses,
  type PartialErrorPolicy,
} from '../../mappings/partial-errors'
import {
  errorClassStatus,
  noAccess,
  transportStatus,
  type UpstreamStatus,
} from '../../mappings/upstream-errors'
import { V2Error, titles, tooManyRequests } from '../core/errors'
import { throttledRetryAfterS, UpstreamFault } from './retry'

export interface GraphQLErrorLike {
  message: string
  path?: readonly (string | number)[]
  extensions?: Record<string, unknown>
}

export interface NerdGraphResult<T> {
  data: T
  /** Field errors kept under the `tolerate` policy (never under `fail`); deprecation notices dropped. */
  errors: GraphQLErrorLike[]
}

/** The class NerdGraph gave an error (`errorClass`, `error_code` or `code`), or ''; every "no
 * access" shape (mappings/upstream-errors.ts `noAccess`) is `FORBIDDEN`. */
export function errorClassOf(e: GraphQLErrorLike): string {
  const ext = e.extensions ?? {}
  const named = String(ext['errorClass'] ?? ext['error_code'] ?? ext['code'] ?? '')
  const denied =
    (noAccess.classes as readonly string[]).includes(named) ||
    (named === '' && noAccess.classlessMessages.some((m) => m.test(String(e.message))))
  return denied ? 'FORBIDDEN' : named
}

function statusOf(e: GraphQLErrorLike): UpstreamStatus {
  return (
    (errorClassStatus as Record<string, UpstreamStatus>)[errorClassOf(e)] ??
    errorClassStatus.default
  )
}

/** A GraphQL error list that fails the call: the most severe class decides. */
export function graphqlFault(errors: readonly GraphQLErrorLike[]): UpstreamFault {
  const worst = errors
    .map(statusOf)
    .reduce<UpstreamStatus>((a, b) => (b.rank > a.rank ? b : a), errorClassStatus.default)
  const error =
    worst.status === 429
      ? tooManyRequests(throttledRetryAfterS, errors)
      : new V2Error(worst.status, worst.title, { cause: errors })
  return new UpstreamFault(worst.kind, error)
}

/** A non-2xx answer: 401 → bad key, 403 → API access, 429 → throttled, 5xx → 502, other 4xx → by GraphQL class. */
export function httpFault(
  status: number,
  errors: readonly GraphQLErrorLike[],
  retryAfter: string | null
): UpstreamFault {
  if (status === 401) return new UpstreamFault('final', new V2Error(401, titles.badKey))
  // The key is valid but may not use the API: v2's 403 (SW11 reason; tags in docs/sources.md).
  if (status === 403) return new UpstreamFault('final', new V2Error(403, titles.apiAccess))
  if (status === 429) {
    const seconds = parseRetryAfter(retryAfter)
    return new UpstreamFault('http429', tooManyRequests(seconds ?? throttledRetryAfterS), seconds)
  }
  if (status >= 500) return transportFault('http5xx', status === 501 ? 'final' : 'http5xx')
  if (errors.length > 0) {
    const fault = graphqlFault(errors)
    return new UpstreamFault('final', fault.error)
  }
  return transportFault('httpOther', 'final')
}

export function transportFault(
  which: keyof typeof transportStatus,
  kind: UpstreamFault['kind'] = which === 'httpOther' ? 'final' : (which as UpstreamFault['kind'])
): UpstreamFault {
  const { status, title } = transportStatus[which]
  return new UpstreamFault(kind, new V2Error(status, title))
}

/** `Retry-After` as seconds (delta or HTTP date), bounded to an hour; undefined if absent or bad. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined
  const seconds = /^\s*\d+\s*$/.test(value)
    ? Number(value)
    : Math.ceil((Date.parse(value) - now) / 1000)
  return Number.isFinite(seconds) ? Math.min(3600, Math.max(1, seconds)) : undefined
}

const isDeprecationNotice = (e: GraphQLErrorLike) =>
  typeof e.message === 'string' && e.message.startsWith('This field is deprecated!')

/** Applies the partial-errors policy to one GraphQL result. */
export function settle<T>(
  data: T | null | undefined,
  all: GraphQLErrorLike[],
  partial: PartialErrorPolicy
): NerdGraphResult<T> {
  const errors = all.filter((e) => !isDeprecationNotice(e))
  if (data == null) throw errors.length ? graphqlFault(errors) : transportFault('badBody')
  const fatal = errors.filter(
    (e) =>
      partial === 'fail' ||
      (partial === 'alerts-optional' && !e.path?.includes(optionalAlertsAlias)) ||
      !e.path?.length ||
      wholeRequestClasses.has(errorClassOf(e))
  )
  if (fatal.length) throw graphqlFault(fatal)
  return { data, errors }
}

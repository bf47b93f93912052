/**
 * @module upstream/retry
 * When a NerdGraph call is tried again, as a table of policies the caller chooses per call. Reads retry
 * every transient fault (client-go `internal/http/retry.go` retries HTTP 429, 500, ≥ 502 and the
 * TIMEOUT / INTERNAL_SERVER_ERROR / SERVER_ERROR / TOO_MANY_REQUESTS classes); writes
 * retry only what proves NerdGraph never ran them. All attempts and pauses share one deadline.
 * NerdGraph's 429 is retried only when it says when (`Retry-After`) and that fits the deadline: its
 * limits count per minute (New Relic docs "Rate limits with NRQL": 3,000 queries per account and 120
 * of one query per user a minute) or per user in flight ("NerdGraph usage limits"), and the 429 does
 * not say which, so a blind retry would mostly earn more 429s.
 */

/** What went wrong with one attempt, in the vocabulary the policies are written in. */
export type FaultKind =
  | 'network' // fetch threw: DNS, refused, reset
  | 'timeout' // the attempt used up the remaining budget
  | 'http429' // NerdGraph refused the request before running it (a concurrency or NRQL rate limit)
  | 'http5xx' // 500 and 502–504 from NerdGraph or a proxy in front of it
  | 'badBody' // a 2xx whose body is not a GraphQL JSON result
  | 'throttled' // errorClass TOO_MANY_REQUESTS inside a 200
  | 'transient' // errorClass TIMEOUT / INTERNAL_SERVER_ERROR / SERVER_ERROR
  | 'final' // anything another attempt cannot fix (bad key, rejected query)

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number
  readonly retryOn: readonly FaultKind[]
  /** Of `retryOn`, the kinds retried only when NerdGraph said when (`Retry-After`). */
  readonly onlyWhenTold?: readonly FaultKind[]
}

/** `Retry-After` of v2bridge's 429 when NerdGraph's gave none: NerdGraph's rate limits count per
 * minute (docs above), so after a minute every query it counted has left the window. */
export const throttledRetryAfterS = 60

export const retryPolicies = {
  /** Reads are idempotent: every transient fault gets another attempt. */
  read: {
    maxAttempts: 3,
    retryOn: ['network', 'timeout', 'http429', 'http5xx', 'badBody', 'throttled', 'transient'],
    onlyWhenTold: ['http429', 'throttled'],
  },
  /** Writes are never retried blindly: only an HTTP 429, which NerdGraph sends before executing,
   * when it says when. */
  write: { maxAttempts: 3, retryOn: ['http429'], onlyWhenTold: ['http429'] },
  none: { maxAttempts: 1, retryOn: [] },
} as const satisfies Record<string, RetryPolicy>

export type RetryPolicyName = keyof typeof retryPolicies

/** A failed attempt: its kind, the v2 error to answer if it is the last, and NerdGraph's Retry-After. */
export class UpstreamFault extends Error {
  override name = 'UpstreamFault'
  constructor(
    readonly kind: FaultKind,
    readonly error: Error,
    readonly retryAfterSeconds?: number
  ) {
    super(kind)
  }
}

export interface RetryClock {
  now: () => number
  random: () => number
  sleep: (ms: number) => Promise<void>
}

export const systemClock: RetryClock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

/** Full-jitter exponential backoff: uniform in [0, min(cap, base·2^retry)). */
export function backoffMs(retry: number, random: () => number, base = 100, cap = 1000): number {
  return Math.floor(random() * Math.min(cap, base * 2 ** retry))
}

export interface RetryBudget {
  /** Epoch ms after which no attempt may run: the configured upstream timeout. */
  deadline: number
  /** Do not start an attempt with less time than this left. */
  minAttemptMs: number
  clock?: RetryClock
}

/**
 * Runs `attempt(remainingMs)` until it succeeds, its fault is not in the policy, the attempts are
 * spent, or the pause would leave less than `minAttemptMs` before the deadline. Throws the v2 error
 * of the last fault.
 */
export async function withRetry<T>(
  attempt: (remainingMs: number) => Promise<T>,
  policy: RetryPolicy,
  budget: RetryBudget
): Promise<T> {
  const clock = budget.clock ?? systemClock
  for (let n = 1; ; n++) {
    try {
      return await attempt(attemptMs(n, policy, budget, clock.now()))
    } catch (err) {
      if (!(err instanceof UpstreamFault)) throw err
      const told = err.retryAfterSeconds !== undefined || !policy.onlyWhenTold?.includes(err.kind)
      const retryable = n < policy.maxAttempts && policy.retryOn.includes(err.kind) && told
      const pause = Math.max(backoffMs(n - 1, clock.random), (err.retryAfterSeconds ?? 0) * 1000)
      if (!retryable || clock.now() + pause + budget.minAttemptMs > budget.deadline) throw err.error
      await clock.sleep(pause)
    }
  }
}

/**
 * Time one attempt may take. While a timed-out attempt could still be retried, it keeps a third of
 * what is left (at least twice `minAttemptMs`) for the retry, so one hung attempt cannot spend the
 * whole budget; the last attempt gets everything.
 */
export function attemptMs(n: number, policy: RetryPolicy, budget: RetryBudget, now: number) {
  const left = budget.deadline - now
  const min = budget.minAttemptMs
  // Room for the retry: its own minimum and the pause before it (the first backoff is < minimum).
  return n < policy.maxAttempts && policy.retryOn.includes('timeout')
    ? Math.max(Math.min(left, min), left - Math.max(2 * min, left / 3))
    : left
}

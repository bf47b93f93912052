/**
 * @module simulator/graphql/nrql-limits
 * The live NRQL limits, enforced per query (every `nrql` field is one query): 3,000 queries per
 * account a minute, 120 runs of one identical query per user a minute, HTTP 429 past either (New
 * Relic docs "Rate limits with NRQL": "Limits on number of queries", "Limit on repetitive queries"),
 * and the query timeout: 5 s unless the field's `timeout:` says otherwise, clamped to 5–120 s
 * (schema `Account.nrql`; docs "Rate limits with NRQL": "The default timeout for querying with
 * NerdGraph is 5 seconds"). Latency follows a documented model (`QueryCost`), not a measurement.
 * What no source shows, and how it is modeled here (the strict reading):
 * - the window: the last 60 s (sliding), not the clock's minute [unknown];
 * - refused queries count too, so a client that keeps asking stays refused [unknown: the docs say
 *   429 "until the rate drops below the threshold"];
 * - "the same query": the same text; "the same source": every request of the user [unknown];
 * - the 429's body and whether it carries `Retry-After` [unknown: the docs give the status only].
 */

/** The live limits and the cost model; each figure can be shrunk for a test, or switched off. */
export interface NrqlLimitSettings {
  /** NRQL queries per account in the last 60 s (Infinity: no limit). */
  perAccountPerMinute: number
  /** Runs of one identical NRQL query per user in the last 60 s (Infinity: no limit). */
  identicalPerUserPerMinute: number
  /** The latency model and the timeout; false: every query answers at once and never times out. */
  cost: QueryCost | false
}

/** Modeled duration of one query: `baseMs` + `msPerThousandRows` per 1,000 rows read; the answer
 * comes when that much time has passed (the evaluation's own time counted). Past its timeout it
 * answers the live TIMEOUT error when the timeout has passed. */
export interface QueryCost {
  baseMs: number
  msPerThousandRows: number
  /** Real ms waited per modeled ms: 1 waits what the model says; a test sets 0.001 to see a 5 s
   * timeout after 5 ms. The timeout is always judged on modeled time. */
  clockScale: number
}

/** The live figures (module doc). The cost defaults are modest, so the demo stays fast: 10 million
 * rows a second is quicker than the evaluator itself, so in practice only `baseMs` is waited. */
export const LIVE_NRQL_LIMITS: NrqlLimitSettings = {
  perAccountPerMinute: 3000,
  identicalPerUserPerMinute: 120,
  cost: { baseMs: 1, msPerThousandRows: 0.1, clockScale: 1 },
}

/** `timeout:` of `Account.nrql`: absent 5 s, clamped to 5–120 s (schema; docs above). */
export function nrqlTimeoutMs(timeout: number | null | undefined): number {
  const seconds = typeof timeout === 'number' && Number.isFinite(timeout) ? timeout : 5
  return Math.min(120, Math.max(5, seconds)) * 1000
}

/** The live TIMEOUT message (argoproj/argo-rollouts issue #3741 quotes it; newrelic/nr-reports
 * issue #8 shows the answer: HTTP 200, `nrql: null`, `extensions.errorClass: "TIMEOUT"`). */
export const TIMEOUT_MESSAGE = 'NRDB query duration exceeded the set timeout'

const WINDOW_MS = 60_000

/** The last `limit` attempt times of one counter: full and its oldest within 60 s → refused. */
class Window {
  private readonly times: number[] = []
  private head = 0
  constructor(private readonly limit: number) {}
  /** Counts one attempt at `now`; false when the last 60 s already hold `limit`. */
  take(now: number): boolean {
    if (this.limit === Infinity) return true
    const full = this.times.length - this.head >= this.limit
    const allowed = !full || (this.times[this.head] ?? 0) <= now - WINDOW_MS
    this.times.push(now)
    if (this.times.length - this.head > this.limit) this.head += 1
    if (this.head > 1024) {
      this.times.splice(0, this.head)
      this.head = 0
    }
    return allowed
  }
  last(): number {
    return this.times[this.times.length - 1] ?? -Infinity
  }
}

export type Refusal = 'account' | 'identical'

export interface NrqlLimits {
  settings: NrqlLimitSettings
  /** Counts one query; the limit it broke, or null. */
  admit(accountId: number, userId: number, nrql: string): Refusal | null
  /** Back to `settings` with no queries counted. */
  reset(settings?: NrqlLimitSettings): void
}

/** `clock`: wall time in ms (the limits count real minutes, whatever the dataset's clock);
 * `onRefused`: told of every query refused (server/limits.ts `Refusals` counts them). */
export function createNrqlLimits(
  initial: NrqlLimitSettings = LIVE_NRQL_LIMITS,
  clock: () => number = Date.now,
  onRefused?: (refusal: Refusal, accountId: number, userId: number) => void
): NrqlLimits {
  let accounts = new Map<number, Window>()
  let identical = new Map<string, Window>()
  const window = <K>(map: Map<K, Window>, key: K, limit: number) => {
    let w = map.get(key)
    if (!w) map.set(key, (w = new Window(limit)))
    return w
  }
  /** Forgets identical-query counters idle for a minute (bounded by what was asked lately). */
  const prune = (now: number) => {
    if (identical.size < 10_000) return
    for (const [k, w] of identical) if (w.last() <= now - WINDOW_MS) identical.delete(k)
  }
  const limits: NrqlLimits = {
    settings: initial,
    admit(accountId, userId, nrql) {
      const now = clock()
      const { perAccountPerMinute, identicalPerUserPerMinute } = limits.settings
      prune(now)
      const same = window(identical, `${userId}\u0000${nrql.trim()}`, identicalPerUserPerMinute)
      const sameOk = same.take(now)
      const accountOk = window(accounts, accountId, perAccountPerMinute).take(now)
      const refusal = !sameOk ? 'identical' : accountOk ? null : 'account'
      if (refusal) onRefused?.(refusal, accountId, userId)
      return refusal
    },
    reset(settings = initial) {
      limits.settings = settings
      accounts = new Map()
      identical = new Map()
    },
  }
  return limits
}

/** Waits out the modeled duration of a query that read `rows` rows in `elapsedMs` of real time;
 * false when the model passes `timeoutMs` (then it has waited the timeout). */
export async function pace(
  cost: QueryCost | false,
  rows: number,
  elapsedMs: number,
  timeoutMs: number
): Promise<boolean> {
  if (cost === false) return true
  const modeled = cost.baseMs + (rows / 1000) * cost.msPerThousandRows
  const within = modeled <= timeoutMs
  const wait = Math.min(modeled, timeoutMs) * cost.clockScale - elapsedMs
  if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait))
  return within
}

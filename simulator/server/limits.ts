/** @module simulator/server/limits — the live limits (concurrency, NRQL, write visibility) and injectable faults. */
import * as z from 'zod'
import type { Principal } from '../data/keys'
import { createRandom } from '../data/prng'
import { WRITE_VISIBILITY_MS } from '../data/visibility'
import { LIVE_NRQL_LIMITS, type NrqlLimitSettings, type Refusal } from '../graphql/nrql-limits'

/** 25 concurrent requests per user are guaranteed, "tracked and enforced per user, not per user key";
 * excess gets HTTP 429 (New Relic docs "NerdGraph usage limits"). */
export const MAX_CONCURRENT = 25

/** Every live limit the simulator enforces by default, each of which a test may shrink or switch
 * off (README "How it differs from the live NerdGraph"). */
export interface LiveLimits extends NrqlLimitSettings {
  /** NerdGraph requests in flight per user, all of the user's keys together (Infinity: no limit). */
  concurrentPerUser: number
  /** ms before a tag, rename, settings change or deployment shows in NerdGraph's reads (0: at once;
   * data/visibility.ts). */
  writeVisibilityMs: number
}

export const LIVE_LIMITS: LiveLimits = {
  ...LIVE_NRQL_LIMITS,
  concurrentPerUser: MAX_CONCURRENT,
  writeVisibilityMs: WRITE_VISIBILITY_MS,
}

const QueryCostSchema = z.strictObject({
  baseMs: z.number().min(0),
  msPerThousandRows: z.number().min(0),
  clockScale: z.number().min(0).max(1),
})

/** `POST /_sim/limits`: what it names changes, the rest stays; `null` switches a limit off. */
export const LiveLimitsSchema = z.strictObject({
  perAccountPerMinute: z.number().int().positive().nullish(),
  identicalPerUserPerMinute: z.number().int().positive().nullish(),
  cost: z.union([QueryCostSchema, z.literal(false)]).optional(),
  concurrentPerUser: z.number().int().positive().nullish(),
  writeVisibilityMs: z.number().int().min(0).max(600_000).optional(),
})

/** The settings after a `POST /_sim/limits` body: `null` is Infinity (no limit). */
export function mergeLimits(
  current: LiveLimits,
  patch: z.infer<typeof LiveLimitsSchema>
): LiveLimits {
  const next = { ...current }
  for (const [k, v] of Object.entries(patch)) {
    if (v !== undefined) Object.assign(next, { [k]: v === null ? Infinity : v })
  }
  return next
}

/** The lane of a principal's requests in flight: its user, whichever of the user's keys it sent. */
export const userLane = (principal: Principal) => `user:${principal.user.id}`

export interface Concurrency {
  /** Requests in flight allowed per label (a user). */
  limit: number
  /** Takes a slot; false when the user already has `limit` requests in flight. */
  acquire(label: string): boolean
  release(label: string): void
}

export function createConcurrency(limit = MAX_CONCURRENT): Concurrency {
  const inFlight = new Map<string, number>()
  const concurrency: Concurrency = {
    limit,
    acquire(label) {
      const n = inFlight.get(label) ?? 0
      if (n >= concurrency.limit) return false
      inFlight.set(label, n + 1)
      return true
    },
    release(label) {
      const n = (inFlight.get(label) ?? 1) - 1
      if (n <= 0) inFlight.delete(label)
      else inFlight.set(label, n)
    },
  }
  return concurrency
}

/** The limit behind a 429: requests in flight per user, or one of the NRQL limits. */
export type Limit = 'concurrency' | Refusal

/** What `/_sim/stats` reports as `limited`: the 429 answers per user by the limit that caused
 * each (a request with several refused queries counts once, by its last), and the NRQL queries
 * refused per account by limit. Keyed by user and account id. */
export interface LimitedStats {
  byUser: Record<string, Record<Limit, number>>
  byAccount: Record<string, Record<Refusal, number>>
}

export interface Refusals {
  /** One 429 answered to `userId` because of `limit`. */
  answered(limit: Limit, userId: number): void
  /** One NRQL query of `accountId` refused (graphql/nrql-limits.ts `onRefused`). */
  query(refusal: Refusal, accountId: number): void
  snapshot(): LimitedStats
  reset(): void
}

export function createRefusals(): Refusals {
  let byUser = new Map<number, Record<Limit, number>>()
  let byAccount = new Map<number, Record<Refusal, number>>()
  const row = <K extends string>(map: Map<number, Record<K, number>>, id: number, keys: K[]) => {
    let counts = map.get(id)
    if (!counts) map.set(id, (counts = Object.fromEntries(keys.map((k) => [k, 0])) as never))
    return counts
  }
  const copy = <V>(map: Map<number, V>) =>
    Object.fromEntries([...map].map(([id, v]) => [String(id), { ...v }]))
  return {
    answered: (limit, userId) =>
      row(byUser, userId, ['concurrency', 'account', 'identical'])[limit]++,
    query: (refusal, accountId) => row(byAccount, accountId, ['account', 'identical'])[refusal]++,
    snapshot: () => ({ byUser: copy(byUser), byAccount: copy(byAccount) }),
    reset() {
      byUser = new Map()
      byAccount = new Map()
    },
  }
}

/** errorClass values NerdGraph clients see [code: newrelic-client-go internal/http/graphql.go]. */
export const FAULT_ERROR_CLASSES = [
  'TIMEOUT',
  'TOO_MANY_REQUESTS',
  'INTERNAL_SERVER_ERROR',
] as const

export const FaultSchema = z.strictObject({
  latencyMs: z.number().int().min(0).max(120_000).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  status: z.number().int().min(400).max(599).optional(),
  errorClass: z.enum(FAULT_ERROR_CLASSES).optional(),
  body: z.enum(['html', 'truncated']).optional(),
  count: z.number().int().positive().optional(),
  /** The first `after` requests pass untouched (to fail the n-th request of one v2 call). */
  after: z.number().int().positive().optional(),
})
export type FaultConfig = z.infer<typeof FaultSchema>

export type FaultOutcome =
  | { kind: 'status'; status: number }
  | { kind: 'errorClass'; errorClass: (typeof FAULT_ERROR_CLASSES)[number] }
  | { kind: 'body'; body: 'html' | 'truncated' }

export interface FaultDecision {
  latencyMs: number
  outcome: FaultOutcome | null
}

export interface Faults {
  set(config: FaultConfig): void
  clear(): void
  current(): FaultConfig | null
  /** What to do to the next /graphql request (null: nothing). Counts down `count`. */
  next(): FaultDecision | null
}

function outcomeOf(config: FaultConfig): FaultOutcome | null {
  if (config.status !== undefined) return { kind: 'status', status: config.status }
  if (config.errorClass !== undefined) return { kind: 'errorClass', errorClass: config.errorClass }
  if (config.body !== undefined) return { kind: 'body', body: config.body }
  return null
}

/** Faults with a seeded roll: errorRate 1 always fires, fractional rates repeat for a given seed. */
export function createFaults(seed: number): Faults {
  let config: FaultConfig | null = null
  let remaining = Infinity
  let passing = 0
  let random = createRandom(seed)
  return {
    set(next) {
      const empty = Object.keys(next).length === 0
      config = empty ? null : next
      remaining = next.count ?? Infinity
      passing = next.after ?? 0
      random = createRandom(seed)
    },
    clear() {
      config = null
    },
    current: () => config,
    next() {
      if (!config) return null
      if (passing > 0) {
        passing -= 1
        return null
      }
      const active = config
      if (--remaining <= 0) config = null
      const outcome = outcomeOf(active)
      const fires = outcome !== null && random.next() < (active.errorRate ?? 1)
      return { latencyMs: active.latencyMs ?? 0, outcome: fires ? outcome : null }
    },
  }
}

const JSON_HEADERS = { 'content-type': 'application/json' }

function errorsBody(message: string, errorClass: string, withData: boolean): string {
  const errors = [{ message, extensions: { errorClass } }]
  return JSON.stringify(withData ? { data: null, errors } : { errors })
}

const MESSAGES: Record<(typeof FAULT_ERROR_CLASSES)[number], string> = {
  TIMEOUT: 'NRDB query duration exceeded the set timeout',
  TOO_MANY_REQUESTS: 'Too many requests',
  INTERNAL_SERVER_ERROR: 'Internal Server Error',
}

/** HTTP 401 for a missing or unknown key [issue: newrelic/newrelic-client-go#603]. */
export function badApiKey(): Response {
  const errors = [
    { extensions: { error_code: 'BAD_API_KEY' }, message: 'Bad API Key or no API Key provided' },
  ]
  return new Response(JSON.stringify({ errors }), { status: 401, headers: JSON_HEADERS })
}

/** HTTP 429, as NerdGraph answers concurrency overload (New Relic docs "NerdGraph usage limits") and
 * a query past the NRQL limits (docs "Rate limits with NRQL"). The docs give the status only: the
 * body is this simulator's guess and no `Retry-After` is sent [unknown]. */
export function tooManyRequests(): Response {
  return new Response(errorsBody('Too many requests', 'TOO_MANY_REQUESTS', false), {
    status: 429,
    headers: JSON_HEADERS,
  })
}

/** The response for a status or errorClass fault (body faults need the real response, see app.ts). */
export function faultResponse(outcome: Exclude<FaultOutcome, { kind: 'body' }>): Response {
  if (outcome.kind === 'errorClass') {
    const body = errorsBody(MESSAGES[outcome.errorClass], outcome.errorClass, true)
    return new Response(body, { status: 200, headers: JSON_HEADERS })
  }
  const { status } = outcome
  if (status === 429) return tooManyRequests()
  if (status >= 502 && status <= 504) {
    const html = `<html><head><title>${status}</title></head><body><h1>${status}</h1></body></html>`
    return new Response(html, { status, headers: { 'content-type': 'text/html' } })
  }
  if (status === 401) return badApiKey()
  const body =
    status >= 500
      ? errorsBody('Internal Server Error', 'INTERNAL_SERVER_ERROR', false)
      : JSON.stringify({ errors: [{ message: `Simulated HTTP ${status}` }] })
  return new Response(body, { status, headers: JSON_HEADERS })
}

/** @module simulator/server/limits — NerdGraph's per-user concurrency limit and injectable faults. */
import * as z from 'zod'
import { createRandom } from '../data/prng'

/** 25 concurrent requests per user are guaranteed; excess gets HTTP 429 [doc: nerdgraph-usage-limits.mdx]. */
export const MAX_CONCURRENT = 25

export interface Concurrency {
  /** Takes a slot; false when the key already has MAX_CONCURRENT requests in flight. */
  acquire(label: string): boolean
  release(label: string): void
}

export function createConcurrency(limit = MAX_CONCURRENT): Concurrency {
  const inFlight = new Map<string, number>()
  return {
    acquire(label) {
      const n = inFlight.get(label) ?? 0
      if (n >= limit) return false
      inFlight.set(label, n + 1)
      return true
    },
    release(label) {
      const n = (inFlight.get(label) ?? 1) - 1
      if (n <= 0) inFlight.delete(label)
      else inFlight.set(label, n)
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

/** HTTP 429 as NerdGraph answers concurrency overload [doc: nerdgraph-usage-limits.mdx]. */
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

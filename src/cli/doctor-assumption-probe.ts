/**
 * @module cli/doctor-assumption-probe
 * What every assumption probe of doctor shares (src/cli/doctor-assumptions.ts lists them): its
 * context, its verdict, and the one-query NRQL read it asks with the caller's key.
 */
import { nrqlDocument, type NrqlData } from '../upstream/nrql-document'

/** `not probed`: the write probe, without `--write-probe`. */
export type Verdict = 'confirmed' | 'contradicted' | 'unknown' | 'not probed'

export interface AssumptionResult {
  id: string
  statement: string
  verdict: Verdict
  /** What the probe saw. */
  seen: string
  /** Where a user reads what to do when it is contradicted. */
  covers: string
}

export interface GqlAnswer<T> {
  status: number
  data: T | undefined
  errors: { message: string; extensions?: { errorClass?: string } }[]
}

/** One read-only GraphQL request with the caller's key (doctor's `post`). */
export type Ask = <T>(query: string, variables?: Record<string, unknown>) => Promise<GqlAnswer<T>>

export interface ProbeContext {
  ask: Ask
  key: string
  /** An APM application of the key's, its account. */
  app: { guid: string; accountId: number } | undefined
  /** The accounts the key sees. */
  accounts: readonly number[]
  /** Epoch ms. */
  now: number
  /** A monotonic clock in ms, which the timed probes read (performance.now by default). */
  clock?: () => number
}

export interface Probe {
  id: string
  statement: string
  covers: string
  run(ctx: ProbeContext, app: { guid: string; accountId: number }): Promise<[Verdict, string]>
}

export const minute = 60_000
export const hour = 60 * minute
export const doc = (id: string) => `docs/assumptions.md#${id}`

export async function nrql(ctx: ProbeContext, accountId: number, query: string) {
  const answer = await ctx.ask<NrqlData>(nrqlDocument, { accountId, nrql: query })
  return { answer, result: answer.data?.actor.account?.nrql ?? undefined }
}

/** NerdGraph refused the request for a limit: HTTP 429 or `TOO_MANY_REQUESTS` (docs "NerdGraph
 * usage limits", "Rate limits with NRQL"). */
export const throttled = (a: GqlAnswer<unknown>) =>
  a.status === 429 ||
  a.errors.some(
    (e) => e.extensions?.errorClass === 'TOO_MANY_REQUESTS' || /too many/i.test(e.message)
  )

export const errorsOf = (a: GqlAnswer<unknown>) =>
  a.errors.map((e) => e.message).join('; ') || `HTTP ${a.status}`

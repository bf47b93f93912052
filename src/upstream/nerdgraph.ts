/**
 * @module upstream/nerdgraph
 * The only module that talks to NerdGraph: one POST per attempt through the GraphQL client of
 * src/upstream/worker-graphql-request.ts (graphql-request's behaviour, without its per-request
 * building), the caller's key as `API-Key`. Around it: identical reads coalesced and attempts limited per user
 * (src/upstream/limits.ts), NRQL answers shared across callers that may read the account
 * (src/upstream/reuse.ts), retries by policy within one deadline (src/upstream/retry.ts), faults mapped to v2
 * statuses (src/upstream/fault.ts), and GraphQL errors beside data judged per operation
 * (mappings/partial-errors.ts).
 */
import { ClientError, GraphQLClient } from './worker-graphql-request'
import { partialErrorPolicyFor, type PartialErrorPolicy } from '../../mappings/partial-errors'
import { titles, tooManyRequests, V2Error } from '../core/errors'
import {
  retryPolicies,
  systemClock,
  UpstreamFault,
  withRetry,
  type FaultKind,
  type RetryClock,
  type RetryPolicyName,
} from './retry'
import {
  httpFault,
  settle,
  transportFault,
  type GraphQLErrorLike,
  type NerdGraphResult,
} from './fault'
import { createUpstreamLimits, OverloadError, type UpstreamLimits } from './limits'
import { AnswerTooLarge, defaultAnswerMaxBytes } from './answer-body'
import { Abort, initFor } from './abort'
import { copyJson } from './json-copy'
import { withRequestedFields } from './answer-shape'
import {
  accessDocument,
  createSharedReads,
  type AccessData,
  type SharedReads,
  type StoredAnswer,
} from './reuse'
import type { SharedAnswerStore } from './answer-store'
import type { Telemetry } from './telemetry'

export type { GraphQLErrorLike, NerdGraphResult }

export interface QueryOptions {
  /** Default: `read` for `query` documents, `write` for `mutation` documents. */
  retry?: RetryPolicyName
  /** Default: the operation's row in mappings/partial-errors.ts. */
  partial?: PartialErrorPolicy
  /** A lookup (v2 ID → account, GUID, host…) rather than the answer itself: explain mode sends it,
   * and records every other document instead of sending it (src/upstream/explain-client.ts). */
  lookup?: true
  /** A budget of this call's own, in ms, instead of what is left of the request's: a read-back
   * after a write whose answer was lost (src/resources/deployments/create.ts). */
  ownBudgetMs?: number
}

export interface NerdGraphOptions {
  endpoint: string
  apiKey: string
  /** Fingerprint of the key: the partition of limits and coalescing. */
  partition: string
  /** Budget of one call: every attempt, queueing and pause included. */
  timeoutMs: number
  fetch?: typeof fetch
  /** Shared by every request of one app instance; a private one otherwise. */
  limits?: UpstreamLimits
  /** NRQL answers shared across callers (src/upstream/reuse.ts); a private one per `createUpstream`. */
  reuse?: SharedReads
  /** false: no answer is shared across keys (`SHARED_ANSWERS`); each key's reads are its own. */
  share?: boolean
  /** The second tier of shared answers (src/upstream/answer-store.ts): the Worker's Cache API. */
  answerStore?: SharedAnswerStore
  clock?: RetryClock
  /** Called once per upstream request with its duration, for the request log. */
  onUpstream?: (ms: number) => void
  /** Counts requests, retries and faults for `/metrics` (src/upstream/telemetry.ts). */
  telemetry?: Pick<Telemetry, 'upstreamAttempt' | 'upstreamRetry' | 'upstreamFault'>
  /** `UPSTREAM_MAX_BYTES`: an answer's body past it is not read (src/upstream/answer-body.ts). */
  maxAnswerBytes?: number
}

export interface NerdGraph {
  query<T>(
    document: string,
    variables?: Record<string, unknown>,
    options?: QueryOptions
  ): Promise<NerdGraphResult<T>>
}

/** Name and kind of the first operation in a document. */
export function operationOf(document: string): { name: string | undefined; isMutation: boolean } {
  const m = /^(?:\s|#[^\n]*\n)*(query|mutation|subscription)?\s*([A-Za-z_]\w*)?/.exec(document)
  return { name: m?.[2], isMutation: m?.[1] === 'mutation' }
}

/** What one caller's client needs; the rest is shared by every caller of an app (`createUpstream`). */
export type CallerOptions = Pick<
  NerdGraphOptions,
  'apiKey' | 'partition' | 'timeoutMs' | 'onUpstream'
> & {
  /** Epoch ms when the v2 request's `UPSTREAM_TIMEOUT_MS` runs out (src/app.ts). */
  deadline?: number
  /** Called when NerdGraph answered with a GraphQL result (HTTP 2xx): it accepted the key. Only
   * then may a call grow anything kept per key (the migration report, src/report/record.ts). */
  onAccepted?: () => void
}

export interface Upstream {
  /** A client bound to one caller's key, over the shared connection settings. */
  forCaller(caller: CallerOptions): NerdGraph
}

/**
 * The shared half of the client, built once per app: one `GraphQLClient`, and what each document's
 * first line says (operation name, query or mutation) read once per document, never by parsing it.
 * The client is the small one the Worker also gets for graphql-request (wrangler.toml `[alias]`):
 * graphql-request 7 itself, on every call, builds a `Headers` and a `URL`, spreads its options into
 * new objects and, unless told `excludeOperationName`, runs graphql-js `parse` (its
 * build/legacy/helpers/runRequest.js and helpers/analyzeDocument.js), about a quarter of this
 * module's CPU per call for nothing v2bridge uses; test/upstream/worker-graphql-request.test.ts
 * holds the two to the same requests and answers. NerdGraph needs no `operationName` beside a
 * one-operation document (GraphQL over HTTP: "operationName … optional").
 */
export function createUpstream(
  options: Pick<
    NerdGraphOptions,
    | 'endpoint'
    | 'fetch'
    | 'limits'
    | 'reuse'
    | 'share'
    | 'answerStore'
    | 'clock'
    | 'telemetry'
    | 'maxAnswerBytes'
  >
): Upstream {
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const limits = options.limits ?? createUpstreamLimits()
  const store = options.answerStore
  const reuse = options.reuse ?? createSharedReads({}, store && { store, scope: options.endpoint })
  const share = options.share ?? true
  const clock = options.clock ?? systemClock
  const telemetry = options.telemetry
  const client = new GraphQLClient(options.endpoint, {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      try {
        return await fetchImpl(input, init && initFor(fetchImpl, init))
      } catch (err) {
        const signal = init?.signal
        throw signal?.aborted ? signal.reason : new FetchFailed('fetch failed', { cause: err })
      }
    },
    headers: { 'User-Agent': 'v2bridge' },
    errorPolicy: 'all',
    maxBytes: options.maxAnswerBytes ?? defaultAnswerMaxBytes,
  })
  const operations = new Map<string, ReturnType<typeof operationOf>>()
  const operation = (document: string) => {
    let op = operations.get(document)
    if (!op) operations.set(document, (op = operationOf(document)))
    return op
  }

  return { forCaller }

  function forCaller(caller: CallerOptions): NerdGraph {
    const requestHeaders = { 'API-Key': caller.apiKey }

    /** One POST within `remainingMs`, holding one of the key's slots while it runs. */
    async function attempt<T>(body: Body, partial: PartialErrorPolicy, remainingMs: number) {
      const controller = new Abort()
      let sentAt: number | undefined
      let timer: ReturnType<typeof setTimeout> | undefined
      try {
        // The timer holds the deadline even if a fetch ignores its abort signal.
        const res = await new Promise<Awaited<ReturnType<typeof client.rawRequest<T>>>>(
          (resolve, reject) => {
            timer = setTimeout(
              () => {
                const fault = transportFault('timeout')
                controller.abort(fault)
                reject(fault)
              },
              Math.max(0, remainingMs)
            )
            limits
              .slot(limits.lane(caller.partition), controller, () => {
                sentAt = clock.now()
                const { query, variables, json } = body
                return client.rawRequest<T>({
                  query,
                  variables,
                  json,
                  requestHeaders,
                  signal: controller,
                })
              })
              .then(resolve, reject)
          }
        )
        caller.onAccepted?.()
        const result = settle<T>(res.data, (res.errors ?? []) as GraphQLErrorLike[], partial)
        return withRequestedFields(body.query, result) // a field asked for is absent: 502
      } catch (err) {
        // Still waiting for a slot when the budget ran out: not a slow NerdGraph (504) but too
        // many requests of this key at once, so 429 (v2's "try again later", D-429).
        const queuedOut =
          sentAt === undefined && err instanceof UpstreamFault && err.kind === 'timeout'
        const fault = queuedOut ? new UpstreamFault('final', tooManyRequests(1)) : toFault(err)
        const kind = fault instanceof UpstreamFault ? fault.kind : 'final'
        // An answer too large to read is not retried, but a write it answered may have run.
        body.lastKind = err instanceof AnswerTooLarge ? 'badBody' : kind
        telemetry?.upstreamFault(queuedOut || err instanceof OverloadError ? 'overload' : kind)
        throw fault
      } finally {
        clearTimeout(timer)
        if (sentAt !== undefined) {
          const ms = clock.now() - sentAt
          caller.onUpstream?.(ms)
          telemetry?.upstreamAttempt(ms / 1000)
        }
      }
    }

    /** What the key's own answer tells: its user (the lane of its slots), and that it may read
     * `account` (NerdGraph answered it without errors); true then, and the answer may be shared. */
    function learn(result: NerdGraphResult<unknown>, account: number | undefined): boolean {
      const user = userOf(result.data)
      if (user !== undefined) limits.learnUser(caller.partition, user)
      if (account === undefined || result.errors.length > 0 || !accountAnswered(result.data))
        return false
      reuse.proved(caller.partition, account, clock.now())
      return true
    }

    /** A read of an account the key may read: a kept answer, the identical request in flight
     * (whoever's key sent it), the store's answer (`stored`, when already read), or this key's own
     * request, kept for the next caller. A request of another key that failed for that key (401,
     * 403) does not answer this one: it asks itself. */
    async function shared<T>(
      id: string,
      variables: Record<string, unknown>,
      run: () => Promise<NerdGraphResult<T>>,
      stored: StoredAnswer | undefined
    ): Promise<NerdGraphResult<T>> {
      const kept = reuse.get(id, clock.now()) as NerdGraphResult<T> | undefined
      if (kept) {
        caller.onAccepted?.() // NerdGraph accepted this key when it proved the account
        return copyJson(kept)
      }
      let leader = false
      let fromStore = false
      const result = await limits
        .coalesce(`shared\u0000${id}`, async () => {
          leader = true
          const found = stored ?? (await reuse.fromStore(id, clock.now()))
          if (found) {
            fromStore = true
            reuse.keep(id, found, clock.now())
            return found.value as NerdGraphResult<T>
          }
          const answer = await run()
          if (answer.errors.length === 0) await reuse.set(id, answer, variables, clock.now())
          return answer
        })
        .catch((err: unknown) => {
          if (leader || !(err instanceof V2Error) || (err.status !== 401 && err.status !== 403))
            throw err
          leader = true
          return run()
        })
      if (!leader || fromStore) caller.onAccepted?.()
      return leader && !fromStore ? result : copyJson(result)
    }

    /** Asks NerdGraph which accounts the key may read (and its user); a failure leaves it unknown. */
    async function checkAccess(): Promise<void> {
      const answer = await own.query<AccessData>(accessDocument).catch(() => undefined)
      const now = clock.now()
      for (const { id } of answer?.data.actor.accounts ?? [])
        reuse.proved(caller.partition, id, now)
    }

    const own: NerdGraph = {
      async query<T>(
        document: string,
        variables: Record<string, unknown> = {},
        opts: QueryOptions = {}
      ) {
        const op = operation(document)
        const policy = retryPolicies[opts.retry ?? (op.isMutation ? 'write' : 'read')]
        const partial = opts.partial ?? partialErrorPolicyFor(op.name)
        // Serialised once: the coalescing key below and the body sent upstream.
        const json = JSON.stringify({ query: document, variables })
        const body: Body = { query: document, variables, json }
        // The request's budget when the app gives one (every call, retry and wait of a v2 request
        // shares it), else this call's own.
        const deadline = opts.ownBudgetMs
          ? clock.now() + opts.ownBudgetMs
          : (caller.deadline ?? clock.now() + caller.timeoutMs)
        const minAttemptMs = Math.min(1000, caller.timeoutMs / 4)
        let attempts = 0
        const run = () =>
          withRetry(
            (ms) => {
              if (attempts++ > 0) telemetry?.upstreamRetry()
              return attempt<T>(body, partial, ms)
            },
            policy,
            {
              deadline,
              minAttemptMs,
              clock,
            }
          )
        if (op.isMutation)
          return run().catch((err: unknown) =>
            Promise.reject(unconfirmed(err, body.lastKind, titles.writeUnconfirmed))
          )
        const account = share ? reuse.accountOf(document, variables) : undefined
        const sharedId = `${partial}\u0000${json}`
        let stored: StoredAnswer | undefined
        if (account !== undefined && !reuse.mayRead(caller.partition, account, clock.now())) {
          // Another caller's answer is there: worth one small request to learn the key's accounts.
          // The store's answer is only looked at here; it is served below, once the key is proven.
          const there =
            reuse.has(sharedId, clock.now()) ||
            limits.running(`shared\u0000${sharedId}`) ||
            (stored = await reuse.fromStore(sharedId, clock.now())) !== undefined
          if (there) await checkAccess()
        }
        if (account !== undefined && reuse.mayRead(caller.partition, account, clock.now()))
          return shared<T>(sharedId, variables, run, stored)
        const id = `${caller.partition}\u0000${partial}\u0000${json}`
        let leader = false
        const result = await limits.coalesce(id, () => {
          leader = true
          return run()
        })
        if (!leader)
          caller.onAccepted?.() // the leader's answer was a GraphQL result
        else if (learn(result, account)) await reuse.set(sharedId, result, variables, clock.now())
        // Followers get their own copy: a route may reshape what it receives.
        return leader ? result : copyJson(result)
      },
    }
    return own
  }
}

/** Creates a client bound to one caller's key (a one-caller `createUpstream`). */
export function createNerdGraph(options: NerdGraphOptions): NerdGraph {
  return createUpstream(options).forCaller(options)
}

/** One call's request (one object per call, whatever its attempts). */
interface Body {
  query: string
  variables: Record<string, unknown>
  json: string
  /** The kind of the call's last failed attempt. */
  lastKind?: FaultKind
}

/** `actor.user.id` of an answer that asked it (the key check, src/upstream/key-check.ts). */
function userOf(data: unknown): number | undefined {
  const id = (data as { actor?: { user?: { id?: unknown } | null } } | null)?.actor?.user?.id
  return typeof id === 'number' ? id : undefined
}

/** Whether an answer holds its account (`actor.account` not null). */
function accountAnswered(data: unknown): boolean {
  return (data as { actor?: { account?: unknown } } | null)?.actor?.account != null
}

class FetchFailed extends Error {
  override name = 'FetchFailed'
}

/** A write that failed with a 5xx after it was sent (a lost, garbled or too large answer, a
 * timeout, the upstream failing mid-way) may have happened: it is never answered with a read's
 * title, so no client retries it blindly. A 429 was refused before running (src/upstream/retry.ts).
 * The rule of every write, NerdGraph's and those forwarded to v2 (src/http/forward.ts). */
export function unconfirmed(err: unknown, kind: FaultKind | undefined, title: string): unknown {
  if (!(err instanceof V2Error) || err.status < 500 || !kind || !mayHaveRun.has(kind)) return err
  return new V2Error(err.status, title, { cause: err })
}

/** Faults after which a sent mutation may have run: no answer, a lost or garbled one, or NerdGraph
 * failing while it ran. A rejected document ('final') or a 429 did not run. */
const mayHaveRun = new Set<FaultKind>(['timeout', 'network', 'http5xx', 'badBody', 'transient'])

function toFault(err: unknown): unknown {
  if (err instanceof UpstreamFault) return err
  if (err instanceof OverloadError) return new UpstreamFault('final', tooManyRequests(1))
  if (err instanceof ClientError) {
    const errors = (err.response.errors ?? []) as GraphQLErrorLike[]
    return httpFault(err.response.status, errors, err.response.headers.get('retry-after'))
  }
  if (err instanceof FetchFailed) return transportFault('network')
  if (err instanceof AnswerTooLarge) return transportFault('tooLarge', 'final')
  // The client throws while parsing a 2xx body that is not a GraphQL JSON result.
  return transportFault('badBody')
}

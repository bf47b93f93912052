/**
 * @module compare
 * Compare mode (`V2_COMPARE`, issue 24): which calls are compared and how one comparison runs. A
 * call is compared when it is sampled (`V2_COMPARE_SAMPLE`) and a place is free (at most
 * `V2_COMPARE_IN_FLIGHT` comparisons running, `V2_COMPARE_PER_KEY` per key); otherwise it is
 * skipped and counted, never queued, so comparing adds no wait to an answer and few requests to a
 * key's NerdGraph slots. One comparison takes v2's answer and v2bridge's, asks v2 a second time
 * for a sample of calls to learn noise (`noise.ts`), and hands an outcome (`aggregate.ts`) on.
 */
import type { Context } from 'hono'
import type { Env } from '../http/env'
import { bytesResponse, renderedBytes } from '../http/respond'
import { requestLine, type RequestLogLine } from '../core/request-log'
import { compareAnswers } from './diff'
import { learnNoise, sortDifferences, type Bands } from './noise'
import { compareRules } from './rules'
import { answerOf, type Answer } from './tree'
import type { Outcome } from './aggregate'

export type { Outcome, Verification, VerificationBounds } from './aggregate'
export { addOutcome, verificationLine } from './aggregate'

export type { CompareMode, CompareSettings } from '../core/config'
import type { CompareSettings } from '../core/config'

/** An answer read to its end: its bytes as rendered when it has them (src/http/respond.ts). */
export async function answerFrom(res: Response): Promise<Answer> {
  const bytes = renderedBytes(res)
  return answerOf(res.status, res.headers, bytes ? decoder.decode(bytes) : await res.text())
}

const decoder = new TextDecoder()

/** A second reader of `res`'s answer for the comparison: the same bytes in a response of their own
 * when they were rendered (the caller's copy keeps the runtime's direct write), else a clone. */
export function copyOf(res: Response): Response {
  const bytes = renderedBytes(res)
  if (!bytes || res.status === 204 || res.status === 304) return res.clone()
  return bytesResponse(bytes, { status: res.status, headers: new Headers(res.headers) })
}

export interface Operation {
  method: string
  path: string
}

export class Comparer {
  private running = 0
  private readonly byKey = new Map<string, number>()
  private readonly bands = new Map<string, Bands>()
  private readonly calls = new Map<string, number>()

  constructor(private readonly random: () => number = Math.random) {}

  /** A place for one comparison of `keyHash`'s call, or undefined when it is skipped. */
  admit(settings: CompareSettings, keyHash: string): (() => void) | undefined {
    const mine = this.byKey.get(keyHash) ?? 0
    if (this.random() >= settings.sample) return undefined
    if (this.running >= settings.inFlight || mine >= settings.perKey) return undefined
    this.running += 1
    this.byKey.set(keyHash, mine + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      this.running -= 1
      const left = (this.byKey.get(keyHash) ?? 1) - 1
      if (left > 0) this.byKey.set(keyHash, left)
      else this.byKey.delete(keyHash)
    }
  }

  /** Comparisons running now. */
  get inFlight(): number {
    return this.running
  }

  /** Compares v2's answer with v2bridge's; `again` asks v2 once more when this call learns noise. */
  async compare(
    op: Operation,
    v2: Promise<Response>,
    bridge: Promise<Response>,
    again: () => Promise<Response>
  ): Promise<Outcome> {
    const key = `${op.method} ${op.path}`
    const bands: Bands = this.bands.get(key) ?? new Map()
    this.bands.set(key, bands)
    const outcome = (
      result: Outcome['result'],
      sorted = { differences: [], noisy: [], cosmetic: [] } as ReturnType<typeof sortDifferences>
    ): Outcome => ({
      ...op,
      result,
      differences: sorted.differences,
      noisy: sorted.noisy.map((p) => [p, bands.get(p)!] as const),
      cosmetic: [...new Set(sorted.cosmetic.map((d) => d.path))],
    })
    let a: Answer
    let b: Answer
    try {
      ;[a, b] = await Promise.all([v2.then(answerFrom), bridge.then(answerFrom)])
    } catch {
      return outcome('error')
    }
    const n = this.calls.get(key) ?? 0
    this.calls.set(key, n + 1)
    const { first, every } = compareRules.noise
    if (n < first || n % every === 0)
      await again()
        .then(answerFrom)
        .then((again) => learnNoise(bands, compareAnswers(a, again)))
        .catch(() => undefined) // a failed second call teaches nothing
    const sorted = sortDifferences(compareAnswers(a, b), bands)
    return outcome(sorted.differences.length ? 'differing' : 'equal', sorted)
  }
}

/** Runs `job` after the answer is sent: Node hands `afterResponse` in its bindings (the response's
 * `close`), Workers keep it alive with `waitUntil`; elsewhere (tests) on the next turn. */
export function afterAnswer(c: Context<Env>, job: () => Promise<unknown>): void {
  const run = () => job().catch(() => undefined)
  if (c.env?.afterResponse) return c.env.afterResponse(() => void run())
  try {
    c.executionCtx.waitUntil(run())
  } catch {
    setTimeout(run, 0)
  }
}

/** The request log's line of a differing comparison: the operation and its differing paths, no
 * key, no path of the call (it names IDs), no value. */
export function comparisonLine(c: Context<Env>, o: Outcome): RequestLogLine {
  const operation = `${o.method} ${o.path}`
  return requestLine({
    requestId: c.get('requestId'),
    method: o.method,
    route: o.path,
    path: o.path,
    status: c.res.status,
    upstreamRequests: 0,
    upstreamMs: 0,
    totalMs: 0,
    operation,
    differs: [...new Set(o.differences.map((d) => d.path))],
  })
}

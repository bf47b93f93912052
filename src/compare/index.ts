/**
 * @module compare
 * Compare mode (`V2_COMPARE`, issue 24): which calls are compared and how one comparison runs. A
 * call is compared when it is sampled (`V2_COMPARE_SAMPLE`) and a place is free (at most
 * `V2_COMPARE_IN_FLIGHT` comparisons running, `V2_COMPARE_PER_KEY` per key); otherwise it is
 * skipped and counted, never queued, so comparing adds no wait to an answer; its v2 reads have
 * a budget of their own, apart from the key's NerdGraph slots (src/app.ts). One comparison takes
 * v2's answer and v2bridge's, reads v2 again to learn noise per key and list item and before it
 * reports a difference (`noise.ts`), names the differences docs/differences.md explains
 * (`documented.ts`), and hands an outcome (`aggregate.ts`) on.
 */
import type { Context } from 'hono'
import type { Env } from '../http/env'
import { bytesResponse, renderedBytes } from '../http/respond'
import { requestLine, type RequestLogLine } from '../core/request-log'
import { compareAnswersInSlices as compareAnswers, TooLarge, turn, type Difference } from './diff'
import { documentedRow } from './documented'
import {
  byPlace,
  learnNoise,
  mayBeNoise,
  numbersMoved,
  sortDifferences,
  type Band,
  type Bands,
  type Sorted,
  type Spreads,
} from './noise'
import { compareRules } from './rules'
import { answerOf, type Answer } from './tree'
import type { Outcome } from './aggregate'

export type { Outcome, Verification, VerificationBounds } from './aggregate'
export { addOutcome, verificationLine } from './aggregate'

export type { CompareMode, CompareSettings } from '../core/config'
import type { CompareSettings } from '../core/config'

/** An answer read to its end: its bytes as rendered when it has them (src/http/respond.ts). */
export async function answerFrom(res: Response): Promise<Answer> {
  return answerOf(res.status, res.headers, await textFrom(res))
}

/** An answer's text: its bytes as rendered when it has them, else read to its end. */
async function textFrom(res: Response): Promise<string> {
  const bytes = renderedBytes(res)
  return bytes ? decoder.decode(bytes) : res.text()
}

/** Whether two byte strings are the same: compared four bytes at a time where both are aligned (a
 * v2 answer read again is compared before it is decoded). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false
  let i = 0
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = a.byteLength >>> 2
    const wa = new Uint32Array(a.buffer, a.byteOffset, words)
    const wb = new Uint32Array(b.buffer, b.byteOffset, words)
    for (; i < words; i++) if (wa[i] !== wb[i]) return false
    i = words * 4
  }
  for (; i < a.byteLength; i++) if (a[i] !== b[i]) return false
  return true
}

/** Whether two answers' status, media type and links are the same. */
function sameHead(a: Answer, b: Answer): boolean {
  if (a.status !== b.status || a.contentType !== b.contentType) return false
  const [la, lb] = [Object.keys(a.links), Object.keys(b.links)]
  return la.length === lb.length && la.every((rel) => a.links[rel] === b.links[rel])
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

/** One comparison remembered (`compareRules.memo`): both answers' bytes and heads, v2's answer
 * parsed, and the differences found between them. */
interface Memo {
  v2: Uint8Array
  v2Head: Answer
  a: Answer
  bridge: Uint8Array
  bridgeHead: Answer
  all: readonly Difference[]
}

const headOf = (res: Response) => answerOf(res.status, res.headers, '')

/** Sets `key` as the most recently used of `map`, which keeps at most `max` (the least recent goes). */
function setRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key)
  const oldest = map.keys().next()
  if (map.size >= max && !oldest.done) map.delete(oldest.value)
  map.set(key, value)
}

/** What one key has learned: per operation its comparisons so far and its bands (item paths). */
interface KeyNoise {
  calls: Map<string, number>
  bands: Map<string, Bands>
  paths: number
}

export class Comparer {
  private running = 0
  private readonly byKey = new Map<string, number>()
  /** Per key, the least recently seen first (bounded by `noise.keys`). */
  private readonly noise = new Map<string, KeyNoise>()
  /** Per key and operation, the least recently used first (bounded by `memo.entries`). */
  private readonly memo = new Map<string, Memo>()

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

  /** Keys with learned noise now. */
  get keys(): number {
    return this.noise.size
  }

  private noiseOf(keyHash: string): KeyNoise {
    const mine = this.noise.get(keyHash) ?? { calls: new Map(), bands: new Map(), paths: 0 }
    setRecent(this.noise, keyHash, mine, compareRules.noise.keys)
    return mine
  }

  /** The comparison remembered under `at` when both answers are byte for byte its own. */
  private recall(at: string, v2: Response, bridge: Response): Memo | undefined {
    const memo = this.memo.get(at)
    const [theirs, mine] = [renderedBytes(v2), renderedBytes(bridge)]
    if (!memo || !theirs || !mine) return undefined
    if (!sameBytes(theirs, memo.v2) || !sameBytes(mine, memo.bridge)) return undefined
    if (!sameHead(headOf(v2), memo.v2Head) || !sameHead(headOf(bridge), memo.bridgeHead))
      return undefined
    setRecent(this.memo, at, memo, compareRules.memo.entries)
    return memo
  }

  /** The differences of `a` (v2's, read as `v2Bytes`) from `b` (v2bridge's, `bridge`), remembered
   * under `at` when both answers' bytes are at hand and under `memo.bytes`. */
  private async compared(
    at: string,
    a: Answer,
    b: Answer,
    v2Bytes: Uint8Array | undefined,
    bridge: Response
  ): Promise<readonly Difference[]> {
    const all = await compareAnswers(a, b)
    const bridgeBytes = renderedBytes(bridge)
    this.memo.delete(at)
    const { bytes, entries } = compareRules.memo
    if (!v2Bytes || !bridgeBytes || v2Bytes.byteLength > bytes || bridgeBytes.byteLength > bytes)
      return all
    // Bytes that are a view of a larger buffer are copied: the memo holds what it counts.
    const own = (u: Uint8Array) => (u.byteLength === u.buffer.byteLength ? u : u.slice())
    const memo: Memo = {
      v2: own(v2Bytes),
      v2Head: { ...a, body: undefined },
      a,
      bridge: own(bridgeBytes),
      bridgeHead: { ...b, body: undefined },
      all,
    }
    setRecent(this.memo, at, memo, entries)
    return all
  }

  /** Compares v2's answer with v2bridge's for `keyHash`'s call; `again` reads v2 once more, to
   * learn noise and before a difference is reported (`compareRules.noise`). A call v2 refused
   * the key of (401) verifies nothing: skipped. */
  async compare(
    op: Operation,
    v2: Promise<Response>,
    bridge: Promise<Response>,
    again: () => Promise<Response>,
    keyHash = ''
  ): Promise<Outcome> {
    const key = `${op.method} ${op.path}`
    const at = `${keyHash} ${key}`
    let a: Answer
    let b: Answer | undefined
    let mineRes: Response
    let firstText: string | undefined
    let firstBytes: Uint8Array | undefined
    let seen: Memo | undefined
    try {
      // Each answer is decoded and parsed in a turn of its own (diff.ts `turn`), as the walk is.
      const [theirs, mine] = await Promise.all([v2, bridge])
      mineRes = mine
      await turn()
      firstBytes = renderedBytes(theirs)
      seen = this.recall(at, theirs, mine)
      if (seen) a = seen.a
      else {
        firstText = await textFrom(theirs)
        a = answerOf(theirs.status, theirs.headers, firstText)
        await turn()
        b = await answerFrom(mine)
      }
    } catch {
      return outcomeOf(op, 'error')
    }
    // v2bridge's answer parsed when a read of v2 needs it (a remembered comparison has not).
    const mineParsed = async () => (b ??= await answerFrom(mineRes))
    const firstTextOf = () => (firstText ??= decoder.decode(firstBytes))
    if (a.status === 401) return outcomeOf(op, 'skipped')
    const mine = this.noiseOf(keyHash)
    const bands = mine.bands.get(key) ?? new Map<string, Band>()
    mine.bands.set(key, bands)
    const n = mine.calls.get(key) ?? 0
    mine.calls.set(key, n + 1)
    const { first, every, reads: learning, most, paths } = compareRules.noise
    try {
      const all = seen?.all ?? (await this.compared(at, a, await mineParsed(), firstBytes, mineRes))
      const reads: ReturnType<typeof byPlace>[] = []
      let asFirst: ReturnType<typeof byPlace> | undefined
      const spreads: Spreads = new Map()
      const readAgain = async () => {
        try {
          const res = await again()
          await turn()
          const bytes = renderedBytes(res)
          const same = !!bytes && !!firstBytes && sameBytes(bytes, firstBytes)
          const text = same ? undefined : await textFrom(res)
          // Another status than the first read's (a 429 or 5xx after a 200) says nothing of noise:
          // its body shares no item with either answer, so it would seem to agree with any text.
          if (res.status !== a.status) return false
          const head = headOf(res)
          const identical = same || text === firstTextOf()
          // v2's first answer again, to the byte: nothing moved, and it differs from v2bridge's as
          // the first did; it is not parsed and walked again (issue 40: a list of 20,000 items
          // read ten times).
          if (identical && sameHead(head, a)) {
            reads.push((asFirst ??= byPlace(all)))
            return true
          }
          await turn()
          const r = identical
            ? { ...head, body: a.body }
            : answerOf(res.status, res.headers, text ?? '')
          const moved = await compareAnswers(a, r)
          mine.paths += learnNoise(bands, moved, paths - mine.paths, spreads)
          const against = await compareAnswers(r, await mineParsed())
          await turn()
          reads.push(byPlace(against))
          return true
        } catch {
          return false // a failed read teaches nothing
        }
      }
      if (n < first || n % every === 0) while (reads.length + 1 < learning && (await readAgain()));
      let sorted = sortDifferences(all, bands, reads, numbersMoved(spreads))
      // Before reporting: read again while v2 may still account for a difference.
      while (
        sorted.differences.length &&
        reads.length + 1 < most &&
        (reads.length + 1 < learning ||
          sorted.differences.some((d) => mayBeNoise(d, bands, numbersMoved(spreads)))) &&
        (await readAgain())
      ) {
        await turn() // up to `differences` × `most` lookups: the loop's turn first
        sorted = sortDifferences(all, bands, reads, numbersMoved(spreads))
      }
      return outcomeOf(op, 'equal', sorted, bands)
    } catch (err) {
      if (err instanceof TooLarge) return outcomeOf(op, 'skipped')
      throw err
    }
  }
}

const none: Sorted = { differences: [], noisy: [], cosmetic: [] }

/** An outcome: `equal`, or `differing` when a difference is left beyond noise and the documented
 * ones (documented.ts), `documented` when only documented ones are. */
function outcomeOf(
  op: Operation,
  result: Outcome['result'],
  sorted = none,
  bands?: Bands
): Outcome {
  const operation = `${op.method} ${op.path}`
  const documented: [string, string][] = []
  const differences = sorted.differences.filter((d) => {
    const row = documentedRow(operation, d)
    if (row && !documented.some(([p]) => p === d.path)) documented.push([d.path, row])
    return !row
  })
  const noisy = new Map<string, Band>()
  for (const d of sorted.noisy) {
    const band = bands?.get(d.at)
    if (!band) continue
    const n = noisy.get(d.path) ?? { abs: 0, rel: 0, kinds: [] }
    n.abs = Math.max(n.abs, band.abs)
    n.rel = Math.max(n.rel, band.rel)
    for (const k of band.kinds) if (!n.kinds.includes(k)) n.kinds.push(k)
    noisy.set(d.path, n)
  }
  if (result === 'equal')
    result = differences.length ? 'differing' : documented.length ? 'documented' : 'equal'
  return {
    ...op,
    result,
    differences,
    documented,
    noisy: [...noisy],
    cosmetic: [...new Set(sorted.cosmetic.map((d) => d.path))],
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

/**
 * @module compare/diff
 * Two answers of one call → their differences (pure), by the rules of `rules.ts`: status, media
 * type and `Link` relations, then the body tree by normalised path (`applications[].name`):
 * missing and extra fields, type changes, null against absent, values (numbers within their
 * tolerance), list items matched by identity and in order. An object's key order comes back as
 * `keys`, which callers count as cosmetic. Linear in the size of the answers, and bounded
 * (`compareRules.limits`). `v2` is the reference side, `bridge` the other. The walk pauses every
 * `limits.slice` nodes: `compareAnswersInSlices` gives the event loop its turn there, so a large
 * answer never holds other callers' requests (issue 40: 20,000 items held the loop 0.5 s).
 */
import { compareRules, sameTime, toleranceOf } from './rules'
import type { Answer, Tree } from './tree'

/** `missing`: v2 has it, v2bridge not; `extra`: the other way; `null`: null on one side, absent on
 * the other; `type`: another JSON type; `value`: another value; `order`: list items in another
 * order; `keys`: an object's keys in another order (cosmetic). */
export type Kind = 'missing' | 'extra' | 'type' | 'null' | 'value' | 'order' | 'keys'

export interface Difference {
  /** Normalised: `applications[].name`, the same for every item (what reports count). */
  path: string
  /** The place in this answer: each list item by its identity (`applications[id:1].name`), so
   * noise is learned per item (noise.ts). Never reported: identities are data. */
  at: string
  kind: Kind
  v2?: Tree | undefined
  bridge?: Tree | undefined
  /** Numbers: the absolute and the relative size of the difference. */
  abs?: number
  rel?: number
}

/** A comparison past its work bound (`compareRules.limits`): too large to compare. */
export class TooLarge extends Error {
  override name = 'TooLarge'
}

const { answer: answerPaths, limits } = compareRules

/** Where a comparison is: the differences so far, the nodes it may still visit, and the nodes
 * left before its next pause. */
interface Walk {
  out: Difference[]
  nodes: number
  slice: number
}

/** A walk that pauses (`yield`) between slices of work. */
type Steps = Generator<void, void, void>

/** `v2` against `bridge`, run to its end at once. */
export function compareAnswers(v2: Answer, bridge: Answer): Difference[] {
  const w = newWalk()
  for (const _ of answerSteps(v2, bridge, w));
  return w.out
}

/** `v2` against `bridge`, giving the event loop its turn between slices of `limits.slice` nodes. */
export async function compareAnswersInSlices(v2: Answer, bridge: Answer): Promise<Difference[]> {
  const w = newWalk()
  for (const _ of answerSteps(v2, bridge, w)) await turn()
  return w.out
}

/** The differences of two trees (`order` checks key and list order). */
export function compareTrees(v2: Tree | undefined, bridge: Tree | undefined): Difference[] {
  const w = newWalk()
  for (const _ of walk({ path: '', at: '' }, v2, bridge, w));
  return w.out
}

/**
 * The event loop's turn, shared by every comparison: in one turn of the loop comparisons run their
 * slices one after another, in the order they asked, up to `perTurn` (a few milliseconds, or a
 * count where the runtime's clock stands still while code runs, as on Workers); the rest wait for
 * the next turn, and callers' requests have the rest of each turn (issue 40: four comparisons of a
 * 20,000-item list took four slices of every turn, each its own). A turn is a macrotask, after the
 * I/O callbacks waiting: `setImmediate` where the runtime has it (Node: no 1 ms timer clamp; one
 * queued by an immediate runs on the next turn), a timer elsewhere.
 */
export function turn(): Promise<void> {
  return new Promise((go) => {
    waiting.push(go)
    if (lane.slices < perTurn.slices && performance.now() - lane.startedAt < perTurn.ms) {
      // Room left in this turn: the first in line goes on now.
      lane.slices += 1
      waiting.shift()!()
    } else if (waiting.length === 1) later(nextTurn)
  })
}

/** What comparisons may spend of one turn of the loop (tests narrow it to see each turn). */
export const perTurn = { ms: 2, slices: 16 }
/** Comparisons waiting for their next slice, first come first served. */
const waiting: (() => void)[] = []
/** When the lane's current turn began, and the slices run in it. */
const lane = { startedAt: -Infinity, slices: 0 }
const later = (run: () => void) =>
  typeof setImmediate === 'function' ? setImmediate(run) : setTimeout(run, 0)

/** A new turn: the first waiting comparison runs its slice (after this callback, as its promise
 * settles), and those after it while the turn has room (`turn`). */
function nextTurn() {
  lane.startedAt = performance.now()
  lane.slices = 1
  const go = waiting.shift()
  if (waiting.length) later(nextTurn)
  go?.()
}

const newWalk = (): Walk => ({ out: [], nodes: limits.nodes, slice: limits.slice })

function* answerSteps(v2: Answer, bridge: Answer, w: Walk): Steps {
  const top = (p: string) => ({ path: p, at: p })
  value(top(answerPaths.status), v2.status, bridge.status, w)
  value(top(answerPaths.contentType), v2.contentType, bridge.contentType, w)
  yield* walk(top(answerPaths.link), v2.links, bridge.links, w, false)
  if (v2.body !== undefined || bridge.body !== undefined)
    yield* walk(top(''), v2.body, bridge.body, w)
}

/** Counts `n` nodes of work against the bound; true when a pause is due. */
function spend(w: Walk, n: number): boolean {
  w.nodes -= n
  if (w.nodes < 0) throw new TooLarge('too large to compare')
  return pace(w, n)
}

/** Counts `n` steps of work on nodes already counted; true when a pause is due. */
function pace(w: Walk, n: number): boolean {
  w.slice -= n
  if (w.slice > 0) return false
  w.slice = limits.slice
  return true
}

interface Place {
  path: string
  at: string
}

const kindOf = (t: Tree | undefined) =>
  t === undefined ? 'absent' : t === null ? 'null' : Array.isArray(t) ? 'list' : typeof t
/** A path segment: a field name as v2 spells them; any other key (a map keyed by data, such as a
 * channel's custom headers) is `*`, so paths never carry what a caller stored. */
const join = (p: Place, key: string): Place => {
  const segment = fieldName.test(key) ? key : '*'
  return {
    path: p.path ? `${p.path}.${segment}` : segment,
    at: p.at ? `${p.at}.${segment}` : segment,
  }
}
const fieldName = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/
const named = (p: Place): Place => ({ path: p.path || '(body)', at: p.at || '(body)' })

function push(w: Walk, d: Difference) {
  if (!full(w)) w.out.push(d)
}

/** Whether the differences kept reached their bound (what is found past it is dropped). */
const full = (w: Walk) => w.out.length >= limits.differences

function* walk(p: Place, a: Tree | undefined, b: Tree | undefined, w: Walk, order = true): Steps {
  if (spend(w, 1)) yield
  if (a === b && typeof a === 'object') return // one tree on both sides (index.ts): no difference
  const [ka, kb] = [kindOf(a), kindOf(b)]
  if (ka !== kb) {
    const kind =
      ka === 'absent'
        ? kb === 'null'
          ? 'null'
          : 'extra'
        : kb === 'absent'
          ? ka === 'null'
            ? 'null'
            : 'missing'
          : 'type'
    push(w, { ...named(p), kind, v2: a, bridge: b })
  } else if (ka === 'list') yield* list(p, a as Tree[], b as Tree[], w)
  else if (ka === 'object') {
    const [oa, ob] = [a as Record<string, Tree>, b as Record<string, Tree>]
    const [keysA, keysB] = [Object.keys(oa), Object.keys(ob)]
    for (const k of keysA) yield* walk(join(p, k), oa[k], ob[k], w, order)
    // The same keys in the same order (most objects): nothing extra, nothing out of order.
    if (sameKeys(keysA, keysB)) return
    for (const k of keysB) if (!(k in oa)) yield* walk(join(p, k), undefined, ob[k], w, order)
    // Key order: cosmetic (JSON objects are unordered, RFC 8259 §4).
    if (order && !sameOrder(keysA, keysB)) push(w, { ...named(p), kind: 'keys' })
  } else value(named(p), a!, b!, w)
}

/** Whether both lists of keys are the same, in the same order. */
function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Whether the keys both have come in the same order (linear). */
function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  const inA = new Set(a)
  const inB = new Set(b)
  const common = b.filter((k) => inA.has(k))
  let i = 0
  for (const k of a) if (inB.has(k) && common[i++] !== k) return false
  return true
}

function value(p: Place, a: Tree, b: Tree, w: Walk) {
  if (typeof a === 'number' && typeof b === 'number') {
    const abs = Math.abs(a - b)
    const scale = Math.max(Math.abs(a), Math.abs(b))
    const rel = scale === 0 ? 0 : abs / scale
    const t = toleranceOf(p.path)
    if (abs > t.abs && rel > t.rel) push(w, { ...p, kind: 'value', v2: a, bridge: b, abs, rel })
  } else if (a !== b && !(typeof a === 'string' && typeof b === 'string' && sameTime(p.path, a, b)))
    push(w, { ...p, kind: 'value', v2: a, bridge: b })
}

/** An item's identity by the first rule whose fields it has; scalars are their own identity. */
function identity(item: Tree, index: number): string {
  if (item === null || typeof item !== 'object' || Array.isArray(item))
    return `=${JSON.stringify(item)}`.slice(0, limits.identity)
  rules: for (const fields of compareRules.identity) {
    let id = ''
    for (const f of fields) {
      const v = item[f]
      if (v === undefined || v === null) continue rules
      id += `${id ? '|' : ''}${f}:${typeof v === 'number' ? v : JSON.stringify(v)}`
    }
    return id.length > limits.identity ? id.slice(0, limits.identity) : id
  }
  return `#${index}`
}

/** Identity → item, a repeated identity numbered by its occurrence (`id:1~2`): one pass, one
 * counter per identity. `~n` after an identity is never an identity of its own: each ends with
 * a JSON value or an index. */
function* keyed(items: readonly Tree[], w: Walk): Generator<void, Map<string, Tree>, void> {
  const known = keyedLists.get(items)
  if (known) return known
  const map = new Map<string, Tree>()
  const seen = new Map<string, number>()
  for (let i = 0; i < items.length; i++) {
    if (spend(w, 1)) yield
    const id = identity(items[i]!, i)
    const n = (seen.get(id) ?? 0) + 1
    seen.set(id, n)
    map.set(n === 1 ? id : `${id}~${n}`, items[i]!)
  }
  keyedLists.set(items, map)
  return map
}

/** Each list's items by identity, kept while the list lives: one answer is compared with several
 * (v2's first read with v2bridge's and with each later read, noise.ts), its lists keyed once. */
const keyedLists = new WeakMap<readonly Tree[], Map<string, Tree>>()

/** Items matched by identity; the same items in another order differ (`order`): v2's lists have
 * an order clients page by. */
function* list(p: Place, a: Tree[], b: Tree[], w: Walk): Steps {
  const path = `${p.path}[]`
  const item = (k: string): Place => ({ path, at: `${p.at}[${k}]` })
  const ma = yield* keyed(a, w)
  const mb = yield* keyed(b, w)
  for (const [k, v] of ma) {
    if (mb.has(k)) yield* walk(item(k), v, mb.get(k), w)
    else {
      if (pace(w, 1)) yield
      if (!full(w)) push(w, { ...item(k), kind: 'missing', v2: shown(k, v) })
    }
  }
  for (const [k, v] of mb) {
    if (ma.has(k)) continue
    if (pace(w, 1)) yield
    if (!full(w)) push(w, { ...item(k), kind: 'extra', bridge: shown(k, v) })
  }
  if (!(yield* inOrder(ma, mb, w))) push(w, { path, at: `${p.at}[]`, kind: 'order' })
}

/** Whether the items both lists have come in the same order: one pass over each, pausing as the
 * walk does. */
function* inOrder(
  ma: Map<string, Tree>,
  mb: Map<string, Tree>,
  w: Walk
): Generator<void, boolean, void> {
  const inB = mb.keys()
  for (const k of ma.keys()) {
    if (pace(w, 1)) yield
    if (!mb.has(k)) continue
    let next = inB.next()
    while (!next.done && !ma.has(next.value)) next = inB.next()
    if (next.value !== k) return false
  }
  return true
}

/** A missing or extra item as an example shows it: its identity, or the scalar. */
const shown = (key: string, item: Tree): Tree =>
  item === null || typeof item !== 'object' ? item : key.startsWith('#') ? `item ${key}` : key

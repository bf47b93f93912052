/**
 * @module compare/diff
 * Two answers of one call → their differences (pure), by the rules of `rules.ts`: status, media
 * type and `Link` relations, then the body tree by normalised path (`applications[].name`):
 * missing and extra fields, type changes, null against absent, values (numbers within their
 * tolerance), list items matched by identity. Key order and list order come back as `order`, which
 * callers count as cosmetic. `v2` is the reference side, `bridge` the other.
 */
import { compareRules, sameTime, toleranceOf } from './rules'
import type { Answer, Tree } from './tree'

/** `missing`: v2 has it, v2bridge not; `extra`: the other way; `null`: null on one side, absent on
 * the other; `type`: another JSON type; `value`: another value; `order`: keys or items in another
 * order (cosmetic). */
export type Kind = 'missing' | 'extra' | 'type' | 'null' | 'value' | 'order'

export interface Difference {
  path: string
  kind: Kind
  v2?: Tree | undefined
  bridge?: Tree | undefined
  /** Numbers: the absolute and the relative size of the difference. */
  abs?: number
  rel?: number
}

const { answer: answerPaths } = compareRules

export function compareAnswers(v2: Answer, bridge: Answer): Difference[] {
  const out: Difference[] = []
  value(answerPaths.status, v2.status, bridge.status, out)
  value(answerPaths.contentType, v2.contentType, bridge.contentType, out)
  walk(answerPaths.link, v2.links, bridge.links, out, false)
  if (v2.body !== undefined || bridge.body !== undefined) walk('', v2.body, bridge.body, out)
  return out
}

/** The differences of two trees (`order` checks key and list order). */
export function compareTrees(v2: Tree | undefined, bridge: Tree | undefined): Difference[] {
  const out: Difference[] = []
  walk('', v2, bridge, out)
  return out
}

const kindOf = (t: Tree | undefined) =>
  t === undefined ? 'absent' : t === null ? 'null' : Array.isArray(t) ? 'list' : typeof t
/** A path segment: a field name as v2 spells them; any other key (a map keyed by data, such as a
 * channel's custom headers) is `*`, so paths never carry what a caller stored. */
const join = (path: string, key: string) => {
  const segment = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(key) ? key : '*'
  return path ? `${path}.${segment}` : segment
}

function walk(
  path: string,
  a: Tree | undefined,
  b: Tree | undefined,
  out: Difference[],
  order = true
) {
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
    out.push({ path: path || '(body)', kind, v2: a, bridge: b })
  } else if (ka === 'list') list(path, a as Tree[], b as Tree[], out)
  else if (ka === 'object') {
    const [oa, ob] = [a as Record<string, Tree>, b as Record<string, Tree>]
    for (const k of Object.keys(oa)) walk(join(path, k), oa[k], ob[k], out, order)
    for (const k of Object.keys(ob))
      if (!(k in oa)) walk(join(path, k), undefined, ob[k], out, order)
    const common = Object.keys(oa).filter((k) => k in ob)
    if (
      order &&
      common.join() !==
        Object.keys(ob)
          .filter((k) => k in oa)
          .join()
    )
      out.push({ path: path || '(body)', kind: 'order' })
  } else value(path || '(body)', a!, b!, out)
}

function value(path: string, a: Tree, b: Tree, out: Difference[]) {
  if (typeof a === 'number' && typeof b === 'number') {
    const abs = Math.abs(a - b)
    const scale = Math.max(Math.abs(a), Math.abs(b))
    const rel = scale === 0 ? 0 : abs / scale
    const t = toleranceOf(path)
    if (abs > t.abs && rel > t.rel) out.push({ path, kind: 'value', v2: a, bridge: b, abs, rel })
  } else if (a !== b && !(typeof a === 'string' && typeof b === 'string' && sameTime(path, a, b)))
    out.push({ path, kind: 'value', v2: a, bridge: b })
}

/** An item's identity by the first rule whose fields it has; scalars are their own identity. */
function identity(item: Tree, index: number): string {
  if (item === null || typeof item !== 'object' || Array.isArray(item))
    return `=${JSON.stringify(item)}`
  for (const fields of compareRules.identity)
    if (fields.every((f) => item[f] !== undefined && item[f] !== null))
      return fields.map((f) => `${f}:${JSON.stringify(item[f])}`).join('|')
  return `#${index}`
}

/** Identity → item, a repeated identity numbered by its occurrence. */
function keyed(items: Tree[]): Map<string, Tree> {
  const map = new Map<string, Tree>()
  items.forEach((item, i) => {
    const id = identity(item, i)
    let key = id
    for (let n = 2; map.has(key); n++) key = `${id}~${n}`
    map.set(key, item)
  })
  return map
}

function list(path: string, a: Tree[], b: Tree[], out: Difference[]) {
  const item = `${path}[]`
  const [ma, mb] = [keyed(a), keyed(b)]
  for (const [k, v] of ma) {
    if (mb.has(k)) walk(item, v, mb.get(k), out)
    else out.push({ path: item, kind: 'missing', v2: shown(k, v) })
  }
  for (const [k, v] of mb)
    if (!ma.has(k)) out.push({ path: item, kind: 'extra', bridge: shown(k, v) })
  const common = [...ma.keys()].filter((k) => mb.has(k))
  if (common.join('\n') !== [...mb.keys()].filter((k) => ma.has(k)).join('\n'))
    out.push({ path: item, kind: 'order' })
}

/** A missing or extra item as an example shows it: its identity, or the scalar. */
const shown = (key: string, item: Tree): Tree =>
  item === null || typeof item !== 'object' ? item : key.startsWith('#') ? `item ${key}` : key

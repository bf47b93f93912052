/**
 * @module compare/aggregate
 * Comparison outcomes → aggregates per operation row (pure), as the migration report keeps them:
 * calls compared, equal, differing, skipped, errors and not compared (writes); per differing path
 * a count, the largest difference and a few example values (values only, never keys); the noisy
 * paths with their band. Bounded by the report's bounds (src/report/entries.ts), passed in.
 */
import { compareRules } from './rules'
import type { Difference, Kind } from './diff'
import type { Band } from './noise'
import type { Tree } from './tree'

export type Result = 'equal' | 'differing' | 'documented' | 'skipped' | 'error' | 'not_compared'

/** One comparison (or a call not compared) of one operation row. */
export interface Outcome {
  method: string
  /** The operation's path template (mappings/operations.ts). */
  path: string
  result: Result
  /** Beyond noise, and not documented. */
  differences: readonly Difference[]
  /** Differences docs/differences.md explains: the path and the row (documented.ts). */
  documented?: readonly (readonly [string, string])[]
  /** Paths whose differences stayed within their band, with the band. */
  noisy: readonly (readonly [string, Band])[]
  /** Paths that differ in key or list order only. */
  cosmetic: readonly string[]
}

export interface PathCount {
  path: string
  count: number
  kinds: Kind[]
  /** The largest relative difference of a number (0.004 = 0.4%); null when no number differed. */
  largest: number | null
  examples: string[]
}

export interface Verification {
  method: string
  path: string
  compared: number
  equal: number
  differing: number
  /** Calls whose only differences docs/differences.md explains. */
  documented: number
  skipped: number
  errors: number
  notCompared: number
  paths: PathCount[]
  /** Documented differences: the path, the row of docs/differences.md, the calls it showed in. */
  documentedPaths: { path: string; row: string; count: number }[]
  noisy: { path: string; abs: number; rel: number; kinds: Kind[] }[]
  cosmetic: string[]
}

export interface VerificationBounds {
  entriesPerKey: number
  namesPerEntry: number
  nameLength: number
}

const textBytes = (text: string) => 16 + 2 * text.length
const { count: exampleCount, length: exampleLength } = compareRules.examples

/** A tree as JSON, cut at `max` characters without writing the rest: a large answer is never
 * serialised whole for an example. */
function preview(t: Tree | undefined, max: number): string {
  let out = ''
  const put = (s: string) => {
    out += s.length > max - out.length ? s.slice(0, Math.max(0, max - out.length)) : s
    return out.length < max
  }
  const go = (v: Tree): boolean => {
    if (v === null || typeof v !== 'object')
      return put(typeof v === 'string' ? JSON.stringify(v.slice(0, max)) : JSON.stringify(v))
    const list = Array.isArray(v)
    if (!put(list ? '[' : '{')) return false
    let first = true
    for (const k in v) {
      if (!first && !put(',')) return false
      first = false
      if (!list && !put(`${JSON.stringify(k.slice(0, max))}:`)) return false
      if (!go((v as Record<string, Tree>)[k]!)) return false
    }
    return put(list ? ']' : '}')
  }
  if (t === undefined) return '(absent)'
  go(t)
  return out
}

/** A copy of a short text that shares no memory with the answer it was cut from (a V8 slice keeps
 * its whole parent alive). */
const owned = (s: string) => JSON.parse(JSON.stringify(s)) as string

/** `v2 → v2bridge`, cut to the example length; its own bytes. */
export const exampleOf = (d: Difference) =>
  owned(
    `${preview(d.v2, exampleLength)} → ${preview(d.bridge, exampleLength)}`.slice(0, exampleLength)
  )

const counters = {
  equal: 'equal',
  differing: 'differing',
  documented: 'documented',
  skipped: 'skipped',
  error: 'errors',
  not_compared: 'notCompared',
} as const

/** Adds one outcome to a key's verification (in place) within `budget` bytes; the bytes added. */
export function addOutcome(
  into: Map<string, Verification>,
  o: Outcome,
  bounds: VerificationBounds,
  budget = Infinity
): number {
  const key = `${o.method} ${o.path}`
  let v = into.get(key)
  let added = 0
  if (!v) {
    added = 200 + textBytes(key)
    if (into.size >= bounds.entriesPerKey || added > budget) return 0
    v = {
      method: o.method,
      path: o.path,
      compared: 0,
      equal: 0,
      differing: 0,
      documented: 0,
      skipped: 0,
      errors: 0,
      notCompared: 0,
      paths: [],
      documentedPaths: [],
      noisy: [],
      cosmetic: [],
    }
    into.set(key, v)
  }
  // Kept before documented differences were counted (a Durable Object's stored value).
  v.documented ??= 0
  v.documentedPaths ??= []
  v[counters[o.result]] += 1
  if (o.result !== 'skipped' && o.result !== 'not_compared') v.compared += 1
  const room = (path: string, list: { length: number }) =>
    list.length < bounds.namesPerEntry && added + textBytes(path) + 64 <= budget
  const seen = new Set<string>()
  for (const d of o.differences) {
    const path = owned(d.path.slice(0, bounds.nameLength))
    let p = v.paths.find((x) => x.path === path)
    if (!p) {
      if (!room(path, v.paths)) continue
      v.paths.push((p = { path, count: 0, kinds: [], largest: null, examples: [] }))
      added += textBytes(path) + 64
    }
    if (!seen.has(path)) p.count += 1 // a path counts once per call
    seen.add(path)
    if (!p.kinds.includes(d.kind)) p.kinds.push(d.kind)
    if (d.rel !== undefined) p.largest = Math.max(p.largest ?? 0, d.rel)
    if (p.examples.length < exampleCount) {
      const example = exampleOf(d)
      if (!p.examples.includes(example) && added + textBytes(example) <= budget) {
        p.examples.push(example)
        added += textBytes(example)
      }
    }
  }
  for (const [raw, row] of o.documented ?? []) {
    const path = raw.slice(0, bounds.nameLength)
    let p = v.documentedPaths.find((x) => x.path === path)
    if (!p) {
      if (!room(path, v.documentedPaths)) continue
      v.documentedPaths.push((p = { path, row, count: 0 }))
      added += textBytes(path) + 64 // the row: one of documented.ts's texts, not a copy
    }
    p.count += 1
  }
  for (const [raw, band] of o.noisy) {
    const path = raw.slice(0, bounds.nameLength)
    let n = v.noisy.find((x) => x.path === path)
    if (!n) {
      if (!room(path, v.noisy)) continue
      v.noisy.push((n = { path, abs: 0, rel: 0, kinds: [] }))
      added += textBytes(path) + 64
    }
    n.abs = Math.max(n.abs, band.abs)
    n.rel = Math.max(n.rel, band.rel)
    for (const k of band.kinds) if (!n.kinds.includes(k)) n.kinds.push(k)
  }
  for (const raw of o.cosmetic) {
    const path = raw.slice(0, bounds.nameLength)
    if (v.cosmetic.includes(path) || !room(path, v.cosmetic)) continue
    v.cosmetic.push(path)
    added += textBytes(path)
  }
  v.paths.sort((a, b) => b.count - a.count || a.path.localeCompare(b.path))
  return added
}

const number = (n: number) => n.toLocaleString('en-US')
const percent = (r: number) => `${Number((r * 100).toPrecision(2))}%`

/** One line per operation: "GET /v2/applications/{id}/metrics/data: 1,204 compared, 1,198 equal;
 * `metrics[].timeslices[].values.average_response_time` differs in 6 (largest 0.4%)". */
export function verificationLine(v: Verification): string {
  let line = `${v.method} ${v.path}: ${number(v.compared)} compared, ${number(v.equal)} equal`
  const also = [
    v.documented && `${number(v.documented)} with documented differences only`,
    v.errors && `${number(v.errors)} errors`,
    v.skipped && `${number(v.skipped)} skipped`,
    v.notCompared && `${number(v.notCompared)} not compared (writes)`,
  ].filter(Boolean)
  if (also.length) line += `, ${also.join(', ')}`
  const paths = v.paths.map(
    (p) =>
      `\`${p.path}\` differs in ${number(p.count)}${p.largest !== null ? ` (largest ${percent(p.largest)})` : ''}`
  )
  return paths.length ? `${line}; ${paths.join('; ')}` : line
}

/**
 * @module compare/noise
 * Noise learned Diffy's way (twitter/diffy, "Diffy: Testing services without writing tests"): what
 * differs between v2's own answers to one call is noise. Learned per list item and path (the
 * difference's `at`, diff.ts), never across items, so the jitter of a large item hides nothing on a
 * small one: a number's band is its largest spread between two v2 reads relative to its own value;
 * a time's is its largest move. A difference of v2bridge is noise only when v2's reads account
 * for it: a number no further from each v2 read than its item's spread, a time within the move
 * plus its granularity of some v2 read, anything else equal to some v2 read. Pure.
 */
import { compareRules, timeGranularityOf } from './rules'
import type { Difference, Kind } from './diff'

export interface Band {
  /** Numbers: the largest spread; times: the largest move in milliseconds. */
  abs: number
  /** Numbers: the largest spread relative to the value. */
  rel: number
  kinds: Kind[]
}

/** Item path (`at`) → band. */
export type Bands = Map<string, Band>

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/
/** Milliseconds between two texts that are both times, else undefined. */
export function timeApart(a: unknown, b: unknown): number | undefined {
  if (typeof a !== 'string' || typeof b !== 'string' || !isoTime.test(a) || !isoTime.test(b))
    return undefined
  const ms = Math.abs(Date.parse(a) - Date.parse(b))
  return Number.isFinite(ms) ? ms : undefined
}

/** The range of each item path's values over one comparison's v2 reads (numbers, or times in
 * milliseconds). */
export type Spreads = Map<string, { lo: number; hi: number; scale: number; number: boolean }>

const numberOf = (t: unknown) =>
  typeof t === 'number' ? t : typeof t === 'string' && isoTime.test(t) ? Date.parse(t) : NaN

/** Adds the differences between the first v2 read of a call and a further one to `spreads` and
 * the item paths' `bands` (the largest range seen over one call's reads); `room` is how many new
 * item paths may still be added; returns how many were. */
export function learnNoise(
  bands: Bands,
  between: readonly Difference[],
  room = Infinity,
  spreads: Spreads = new Map()
): number {
  let added = 0
  for (const d of between) {
    if (d.kind === 'keys') continue
    let band = bands.get(d.at)
    if (!band) {
      if (added >= room) continue
      bands.set(d.at, (band = { abs: 0, rel: 0, kinds: [] }))
      added += 1
    }
    const [first, other] = [numberOf(d.v2), numberOf(d.bridge)]
    if (Number.isFinite(first) && Number.isFinite(other)) {
      const s = spreads.get(d.at) ?? {
        lo: first,
        hi: first,
        scale: Math.abs(first),
        number: d.abs !== undefined,
      }
      s.lo = Math.min(s.lo, other)
      s.hi = Math.max(s.hi, other)
      s.scale = Math.max(s.scale, Math.abs(other))
      spreads.set(d.at, s)
      band.abs = Math.max(band.abs, s.hi - s.lo)
      // Relative to the item's own values; times only move.
      if (d.abs !== undefined && s.scale > 0) band.rel = Math.max(band.rel, (s.hi - s.lo) / s.scale)
    }
    if (!band.kinds.includes(d.kind)) band.kinds.push(d.kind)
  }
  return added
}

export interface Sorted {
  /** Beyond noise: what the comparison reports. */
  differences: Difference[]
  /** An object's key order only. */
  cosmetic: Difference[]
  /** Differences v2's reads account for. */
  noisy: Difference[]
}

/** The differences of each further v2 read with v2bridge's answer, by item path. */
export type Reads = readonly ReadonlyMap<string, Difference>[]

/** Indexes one read's differences with v2bridge's answer by item path. */
export const byPlace = (ds: readonly Difference[]) => new Map(ds.map((d) => [d.at, d]))

/** The places that hold `at` (`a[id:1].b` → `(body)`, `a`, `a[id:1]`); cut also inside an
 * identity, which only adds places no difference has. */
function holders(at: string): string[] {
  const out = ['(body)']
  for (let i = 1; i < at.length; i++) if (at[i] === '.' || at[i] === '[') out.push(at.slice(0, i))
  return out
}

/** Whether v2's reads account for `d` (a difference of the first v2 read with v2bridge's). A read
 * that lacks what holds `d`'s place (the item, or the object around the value) says nothing of it. */
export function accounted(d: Difference, reads: Reads, bands: Bands, moved = false): boolean {
  const band = bands.get(d.at)
  const above = holders(d.at)
  const others = reads
    .filter((r) => !above.some((p) => (r.get(p)?.kind ?? 'keys') !== 'keys'))
    .map((r) => r.get(d.at))
  if (d.abs !== undefined) {
    // Where v2's numbers moved in this call, a value is also allowed the step of its rounding.
    const step = moved ? roundingStep(Number(d.v2)) : 0
    if (!band && !step) return false
    // No further from every v2 read than `factor` times the item's own spread, plus that step.
    const spread = Math.max(band?.abs ?? 0, (band?.rel ?? 0) * Math.abs(Number(d.v2)))
    const allowed = compareRules.noise.factor * spread + step * (1 + 1e-9)
    return [d, ...others].every((o) => o === undefined || (o.abs !== undefined && o.abs <= allowed))
  }
  const apart = timeApart(d.v2, d.bridge)
  if (apart !== undefined) {
    // Within the largest move seen plus the field's granularity of some v2 read.
    const allowed = (band?.abs ?? 0) + timeGranularityOf(d.path)
    return [d, ...others].some(
      (o) => o === undefined || (timeApart(o.v2, o.bridge) ?? Infinity) <= allowed
    )
  }
  return others.some((o) => o === undefined)
}

/** One unit in the last of the 3 significant digits v2 rounds values to (src/core/numbers.ts
 * `round3`, after v2's own answers such as `"average_response_time": 0.0286`). */
export function roundingStep(v: number): number {
  if (!Number.isFinite(v) || v === 0) return 0
  return 10 ** (Math.floor(Math.log10(Math.abs(v))) - 2)
}

/** Whether v2's numbers moved between this call's reads (`spreads` of learnNoise). */
export const numbersMoved = (spreads: Spreads) => [...spreads.values()].some((s) => s.number)

/** Sorts the differences of v2 and v2bridge into reported, cosmetic and noise; `moved`: v2's
 * numbers moved between this call's reads. */
export function sortDifferences(
  all: readonly Difference[],
  bands: Bands,
  reads: Reads = [],
  moved = false
): Sorted {
  const sorted: Sorted = { differences: [], cosmetic: [], noisy: [] }
  for (const d of all) {
    if (d.kind === 'keys') sorted.cosmetic.push(d)
    else if (!accounted(d, reads, bands, moved)) sorted.differences.push(d)
    else sorted.noisy.push(d)
  }
  return sorted
}

/** Whether reading v2 again may still account for `d`: v2 moved at its place before, or it is a
 * number in an answer whose numbers v2 moved in this call (`moved`). */
export const mayBeNoise = (d: Difference, bands: Bands, moved: boolean) =>
  bands.has(d.at) || (moved && d.abs !== undefined)

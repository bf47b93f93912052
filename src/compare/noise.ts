/**
 * @module compare/noise
 * Noise learned Diffy's way (twitter/diffy, "Diffy: Testing services without writing tests"): the
 * differences between two v2 answers of the same call are noise, kept per path as a band (the
 * largest absolute and relative spread of numbers; for anything else, the kinds of difference
 * seen). A difference between v2 and v2bridge within its path's band is not reported. Pure.
 */
import { compareRules } from './rules'
import type { Difference, Kind } from './diff'

export interface Band {
  abs: number
  rel: number
  kinds: Kind[]
}

export type Bands = Map<string, Band>

/** Adds the differences of two v2 answers of one call to `bands` (at most `noise.paths` paths). */
export function learnNoise(bands: Bands, between: readonly Difference[]): void {
  for (const d of between) {
    if (d.kind === 'order') continue
    let band = bands.get(d.path)
    if (!band) {
      if (bands.size >= compareRules.noise.paths) continue
      bands.set(d.path, (band = { abs: 0, rel: 0, kinds: [] }))
    }
    if (d.abs !== undefined) {
      band.abs = Math.max(band.abs, d.abs)
      band.rel = Math.max(band.rel, d.rel ?? 0)
    } else if (!band.kinds.includes(d.kind)) band.kinds.push(d.kind)
  }
}

export interface Sorted {
  /** Beyond noise: what the comparison reports. */
  differences: Difference[]
  /** Key or list order only. */
  cosmetic: Difference[]
  /** Paths whose differences stayed within their band. */
  noisy: string[]
}

/** Sorts the differences of v2 and v2bridge into reported, cosmetic and noise. */
export function sortDifferences(all: readonly Difference[], bands: Bands): Sorted {
  const sorted: Sorted = { differences: [], cosmetic: [], noisy: [] }
  const f = compareRules.noise.factor
  for (const d of all) {
    if (d.kind === 'order') {
      sorted.cosmetic.push(d)
      continue
    }
    const band = bands.get(d.path)
    const within =
      band !== undefined &&
      (d.abs !== undefined
        ? d.abs <= band.abs * f || (d.rel ?? 0) <= band.rel * f
        : band.kinds.includes(d.kind))
    if (!within) sorted.differences.push(d)
    else if (!sorted.noisy.includes(d.path)) sorted.noisy.push(d.path)
  }
  return sorted
}

/**
 * @module simulator/nrql/layout
 * Accumulator storage: each aggregate owns a few slots of a group's Float64Array (one block of
 * `width` slots per TIMESERIES bucket) and, for uniques(), a Set per bucket.
 */
import type { MetricRow } from '../types'
import type { AttributeValue } from './attributes'
import type { Predicate } from './condition'

export interface Cells {
  nums: Float64Array
  sets: (Set<AttributeValue> | undefined)[]
}

export type Update = (cells: Cells, base: number, setBase: number, row: MetricRow) => void
export type Finish = (cells: Cells, base: number, setBase: number) => unknown
export type MergeKind = 'sum' | 'min' | 'max'

/** Slot allocation shared by all aggregates of one query. */
export class Layout {
  readonly init: number[] = []
  readonly merge: MergeKind[] = []
  readonly updates: Update[] = []
  setCount = 0
  /** The most values a uniques() answers (NrqlLimits.uniquesCap). */
  uniquesCap = Infinity

  /** Slots per cell. */
  get width(): number {
    return this.init.length
  }

  /** Fresh accumulators for `cellCount` cells (one per bucket). */
  cells(cellCount: number): Cells {
    const nums = new Float64Array(cellCount * this.width)
    for (let c = 0; c < cellCount; c++) nums.set(this.init, c * this.width)
    return { nums, sets: [] }
  }

  /** Folds cell `sc` of `src` into cell `dc` of `dst`. */
  mergeInto(dst: Cells, dc: number, src: Cells, sc: number): void {
    const w = this.width
    for (let k = 0; k < w; k++) {
      const a = dst.nums[dc * w + k]!
      const b = src.nums[sc * w + k]!
      const kind = this.merge[k]
      dst.nums[dc * w + k] =
        kind === 'min' ? Math.min(a, b) : kind === 'max' ? Math.max(a, b) : a + b
    }
    for (let k = 0; k < this.setCount; k++) {
      const from = src.sets[sc * this.setCount + k]
      if (from === undefined) continue
      const to = (dst.sets[dc * this.setCount + k] ??= new Set())
      for (const v of from) to.add(v)
    }
  }

  alloc(kinds: MergeKind[]): number {
    const off = this.init.length
    for (const k of kinds) {
      this.merge.push(k)
      this.init.push(k === 'min' ? Infinity : k === 'max' ? -Infinity : 0)
    }
    return off
  }

  add(update: Update, pred: Predicate | null): void {
    this.updates.push(
      pred === null ? update : (c, b, sb, row) => pred(row) === true && update(c, b, sb, row)
    )
  }
}

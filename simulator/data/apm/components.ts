/** @module simulator/data/apm/components — the six timeslice components for calls, apdex counts and samples. */
import { nth } from '../prng'
import type { TimesliceValue } from '../../types'

/** count calls of mean duration `mean`: Σ, min ≤ Σ/count ≤ max, Σx² ≥ (Σx)²/count. */
export function durations(
  count: number,
  mean: number,
  h: number,
  exclusive: number
): TimesliceValue {
  const total = count * mean * (0.9 + 0.2 * nth(h, 11))
  if (count === 1) {
    return {
      count,
      total,
      totalExclusive: total * exclusive,
      min: total,
      max: total,
      sumOfSquares: total * total,
    }
  }
  const avg = total / count
  const cv = 0.3 + 0.7 * nth(h, 12)
  return {
    count,
    total,
    totalExclusive: total * exclusive,
    min: avg * (0.15 + 0.6 * nth(h, 13)),
    max: avg * (1.6 + 3 * nth(h, 14)),
    sumOfSquares: ((total * total) / count) * (1 + cv * cv),
  }
}

/** Apdex packing [doc: migrate-to-nrql.mdx]: count = s, total = t, totalExclusive = f, min = max = T. */
export function apdex(
  calls: number,
  satisfied: number,
  threshold: number,
  h: number
): TimesliceValue | null {
  if (calls === 0) return null
  const s = Math.min(calls, Math.round(calls * Math.min(1, satisfied * (0.95 + 0.1 * nth(h, 21)))))
  const t = Math.round((calls - s) * 0.65)
  const f = calls - s - t
  return { count: s, total: t, totalExclusive: f, min: threshold, max: threshold, sumOfSquares: 0 }
}

export function sample(value: number): TimesliceValue {
  return {
    count: 1,
    total: value,
    totalExclusive: value,
    min: value,
    max: value,
    sumOfSquares: value * value,
  }
}

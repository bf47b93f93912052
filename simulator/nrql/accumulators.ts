/**
 * @module simulator/nrql/accumulators
 * Streaming accumulators for the aggregate functions over the timeslice attribute and uniques().
 * Timeslice semantics follow NRDB: count = Σcount, sum = Σtotal, average = Σtotal / Σcount,
 * min / max of min / max, stddev from sumOfSquares, apdex s/t/f packed in count/total/
 * totalExclusive (docs.newrelic.com "Query APM metric timeslice data with NRQL").
 */
import type { MetricRow } from '../types'
import type { Aggregate } from './ast'
import { ATTRIBUTES } from './attributes'
import type { Predicate } from './condition'
import type { Finish, Layout, MergeKind } from './layout'
import { compareStrings } from './compare'
import { UNIQUES_DEFAULT } from './parse-aggregate'
import { compileRow, compileRowAggregate } from './row-accumulators'

const nullIfEmpty = (n: number, v: number): number | null => (n > 0 ? v : null)

/** Registers the update for count/sum/…/apdex/uniques and returns its finisher. */
export function compileLeaf(
  agg: Extract<Aggregate, { type: 'aggregate' | 'uniques' }>,
  pred: Predicate | null,
  layout: Layout
): Finish {
  if (agg.type === 'uniques') {
    const idx = layout.setCount++
    const get = ATTRIBUTES[agg.attribute].get
    // The first values up to the limit ("the first set of unique attribute values discovered", NRQL
    // syntax docs); the simulator keeps the lowest, so an answer does not depend on scan order.
    const limit = Math.min(agg.limit ?? UNIQUES_DEFAULT, layout.uniquesCap)
    layout.add((c, _b, sb, row) => {
      const v = get(row)
      if (v !== null) (c.sets[sb + idx] ??= new Set()).add(v)
    }, pred)
    if (agg.count) return (c, _b, sb) => c.sets[sb + idx]?.size ?? 0
    return (c, _b, sb) => {
      const values = [...(c.sets[sb + idx] ?? [])]
      return values.sort((a, b) => compareStrings(String(a), String(b))).slice(0, limit)
    }
  }
  const { fn, arg } = agg
  if (arg.type === 'star') {
    const o = layout.alloc(['sum'])
    layout.add((c, b) => void (c.nums[b + o]! += 1), pred)
    return (c, b) => c.nums[b + o]
  }
  if (arg.type === 'timeslice') return compileTimeslice(fn, pred, layout)
  if (arg.type === 'timestamp') {
    const isMin = fn === 'min'
    const o = layout.alloc([isMin ? 'min' : 'max', 'sum'])
    layout.add((c, b, _sb, row) => {
      const n = c.nums
      if (isMin ? row.timestamp < n[b + o]! : row.timestamp > n[b + o]!) n[b + o] = row.timestamp
      n[b + o + 1]! += 1
    }, pred)
    return (c, b) => nullIfEmpty(c.nums[b + o + 1]!, c.nums[b + o]!)
  }
  return compileRowAggregate(fn, compileRow(arg), pred, layout)
}

function compileTimeslice(fn: string, pred: Predicate | null, layout: Layout): Finish {
  const add = (
    kinds: MergeKind[],
    update: (n: Float64Array, o: number, row: MetricRow) => void
  ) => {
    const o = layout.alloc(kinds)
    layout.add((c, b, _sb, row) => update(c.nums, b + o, row), pred)
    return o
  }
  switch (fn) {
    case 'count': {
      const o = add(['sum'], (n, i, r) => void (n[i]! += r.value.count))
      return (c, b) => c.nums[b + o]
    }
    case 'sum': {
      const o = add(['sum'], (n, i, r) => void (n[i]! += r.value.total))
      return (c, b) => c.nums[b + o]
    }
    case 'average': {
      const o = add(['sum', 'sum'], (n, i, r) => {
        n[i]! += r.value.total
        n[i + 1]! += r.value.count
      })
      return (c, b) => nullIfEmpty(c.nums[b + o + 1]!, c.nums[b + o]! / c.nums[b + o + 1]!)
    }
    case 'min':
    case 'max': {
      const isMin = fn === 'min'
      const o = add([isMin ? 'min' : 'max', 'sum'], (n, i, r) => {
        const v = isMin ? r.value.min : r.value.max
        if (isMin ? v < n[i]! : v > n[i]!) n[i] = v
        n[i + 1]! += 1
      })
      return (c, b) => nullIfEmpty(c.nums[b + o + 1]!, c.nums[b + o]!)
    }
    case 'stddev': {
      const o = add(['sum', 'sum', 'sum'], (n, i, r) => {
        n[i]! += r.value.count
        n[i + 1]! += r.value.total
        n[i + 2]! += r.value.sumOfSquares
      })
      return (c, b) => {
        const [cnt, tot, sq] = [c.nums[b + o]!, c.nums[b + o + 1]!, c.nums[b + o + 2]!]
        return nullIfEmpty(cnt, Math.sqrt(Math.max(0, sq / cnt - (tot / cnt) ** 2)))
      }
    }
    default: {
      // apdex: s, t, f packed in count, total, totalExclusive.
      const o = add(['sum', 'sum', 'sum'], (n, i, r) => {
        n[i]! += r.value.count
        n[i + 1]! += r.value.total
        n[i + 2]! += r.value.totalExclusive
      })
      return (c, b) => {
        const [s, t, f] = [c.nums[b + o]!, c.nums[b + o + 1]!, c.nums[b + o + 2]!]
        const count = s + t + f
        return { score: count > 0 ? (s + t / 2) / count : null, s, t, f, count }
      }
    }
  }
}

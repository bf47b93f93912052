/**
 * @module simulator/nrql/row-accumulators
 * Accumulators for aggregates over per-row component expressions such as
 * `average(newrelic.timeslice.value['totalExclusive'] / newrelic.timeslice.value['count'])`:
 * each row contributes one number; rows where it is not finite are skipped.
 */
import type { MetricRow } from '../types'
import type { RowExpr } from './ast'
import type { Finish, Layout } from './layout'
import type { Predicate } from './condition'

type RowFn = (row: MetricRow) => number

export function compileRow(expr: RowExpr): RowFn {
  switch (expr.type) {
    case 'number': {
      const value = expr.value
      return () => value
    }
    case 'component': {
      const key = expr.component
      return (row) => row.value[key]
    }
    case 'negate': {
      const inner = compileRow(expr.operand)
      return (row) => -inner(row)
    }
    case 'binary': {
      const l = compileRow(expr.left)
      const r = compileRow(expr.right)
      switch (expr.op) {
        case '+':
          return (row) => l(row) + r(row)
        case '-':
          return (row) => l(row) - r(row)
        case '*':
          return (row) => l(row) * r(row)
        case '/':
          return (row) => l(row) / r(row)
      }
    }
  }
}

export function compileRowAggregate(
  fn: string,
  value: RowFn,
  pred: Predicate | null,
  layout: Layout
): Finish {
  const kinds =
    fn === 'min' || fn === 'max'
      ? ([fn, 'sum'] as const)
      : fn === 'stddev'
        ? (['sum', 'sum', 'sum'] as const)
        : (['sum', 'sum'] as const)
  const o = layout.alloc([...kinds])
  const isMin = fn === 'min'
  const isMax = fn === 'max'
  layout.add((c, b, _sb, row) => {
    const x = value(row)
    if (!Number.isFinite(x)) return
    const n = c.nums
    const i = b + o
    if (isMin) {
      if (x < n[i]!) n[i] = x
    } else if (isMax) {
      if (x > n[i]!) n[i] = x
    } else {
      n[i]! += x
      if (kinds.length === 3) n[i + 2]! += x * x
    }
    n[i + 1]! += 1
  }, pred)
  return (c, b) => {
    const n = c.nums
    const i = b + o
    const rows = n[i + 1]!
    switch (fn) {
      case 'count':
        return rows
      case 'sum':
        return n[i]
      case 'average':
        return rows > 0 ? n[i]! / rows : null
      case 'stddev': {
        if (rows === 0) return null
        const mean = n[i]! / rows
        return Math.sqrt(Math.max(0, n[i + 2]! / rows - mean * mean))
      }
      default:
        return rows > 0 ? n[i] : null
    }
  }
}

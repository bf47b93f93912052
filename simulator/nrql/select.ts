/**
 * @module simulator/nrql/select
 * Compiles select items into evaluators over accumulated cells. Arithmetic follows NRQL: a null
 * operand or a division by zero yields null. rate(fn, N unit) scales fn by N unit / the
 * duration of the window or TIMESERIES bucket (docs.newrelic.com NRQL reference, rate()).
 */
import type { Aggregate, SelectExpr } from './ast'
import { compileLeaf } from './accumulators'
import type { Layout } from './layout'
import type { Cells } from './layout'
import { compileCondition } from './condition'
import type { Predicate } from './condition'
import { durationMs } from './parse-time'

/** Value of one select item for cell `c` covering `durationMs` of time. */
export type Evaluate = (cells: Cells, c: number, durationMs: number) => unknown

export function compileSelect(expr: SelectExpr, layout: Layout): Evaluate {
  switch (expr.type) {
    case 'number': {
      const value = expr.value
      return () => value
    }
    case 'negate': {
      const inner = compileSelect(expr.operand, layout)
      return (cells, c, d) => {
        const v = inner(cells, c, d)
        return typeof v === 'number' ? -v : null
      }
    }
    case 'binary': {
      const l = compileSelect(expr.left, layout)
      const r = compileSelect(expr.right, layout)
      const op = expr.op
      return (cells, c, d) => arithmetic(op, l(cells, c, d), r(cells, c, d))
    }
    default:
      return compileAggregate(expr, null, layout)
  }
}

function arithmetic(op: string, a: unknown, b: unknown): number | null {
  if (typeof a !== 'number' || typeof b !== 'number') return null
  let v: number
  if (op === '+') v = a + b
  else if (op === '-') v = a - b
  else if (op === '*') v = a * b
  else if (b === 0) return null
  else v = a / b
  return Number.isFinite(v) ? v : null
}

function both(outer: Predicate | null, inner: Predicate): Predicate {
  if (outer === null) return inner
  return (row) => {
    const a = outer(row)
    if (a === false) return false
    const b = inner(row)
    return b === false ? false : a === null || b === null ? null : true
  }
}

function compileAggregate(agg: Aggregate, pred: Predicate | null, layout: Layout): Evaluate {
  switch (agg.type) {
    case 'filter':
      return compileAggregate(agg.aggregate, both(pred, compileCondition(agg.where)), layout)
    case 'rate': {
      const inner = compileAggregate(agg.aggregate, pred, layout)
      const per = durationMs(agg.per)
      return (cells, c, d) => {
        const v = inner(cells, c, d)
        return typeof v === 'number' ? (v * per) / d : null
      }
    }
    default: {
      const finish = compileLeaf(agg, pred, layout)
      return (cells, c) => finish(cells, c * layout.width, c * layout.setCount)
    }
  }
}

/** @module simulator/nrql/parse-select Select items: arithmetic over aggregate functions. */
import { NrqlError } from '../types'
import type { SelectExpr, SelectItem } from './ast'
import { TIMESLICE } from './attributes'
import type { Cursor } from './cursor'
import { checkNumeric, parseSelectPrimary } from './parse-aggregate'
import { parseArith } from './parse-arith'

export interface ParsedItem {
  item: SelectItem
  /** Result key: the alias, NRDB's `<fn>.<attribute>`, or the trimmed source text. */
  key: string
}

export function parseSelectItem(cursor: Cursor): ParsedItem {
  const start = cursor.peek().start
  const expr = parseArith<SelectExpr>(cursor, () => parseSelectPrimary(cursor))
  const text = cursor.text.slice(start, cursor.lastEnd()).trim()
  if (!hasAggregate(expr)) {
    throw new NrqlError(`Select item '${text}' has no aggregate function`, 'INVALID_INPUT')
  }
  if (expr.type !== 'uniques' && expr.type !== 'aggregate' && expr.type !== 'filter') {
    checkNumeric(expr)
  }
  let alias: string | null = null
  if (cursor.acceptKeyword('AS')) {
    const token = cursor.peek()
    if ((token.kind !== 'string' && token.kind !== 'backtick') || token.value === '') {
      throw cursor.unexpected('a quoted alias')
    }
    alias = cursor.next().value
  }
  return { item: { expr, alias }, key: alias ?? defaultKey(expr, text) }
}

function defaultKey(expr: SelectExpr, text: string): string {
  if (expr.type === 'uniques') return `uniques.${expr.attribute}`
  if (expr.type !== 'aggregate') return text
  if (expr.arg.type === 'star') return expr.fn
  if (expr.arg.type === 'timeslice') return `${expr.fn}.${TIMESLICE}`
  if (expr.arg.type === 'timestamp') return `${expr.fn}.timestamp`
  return text
}

function hasAggregate(expr: SelectExpr): boolean {
  if (expr.type === 'number') return false
  if (expr.type === 'negate') return hasAggregate(expr.operand)
  if (expr.type === 'binary') return hasAggregate(expr.left) || hasAggregate(expr.right)
  return true
}

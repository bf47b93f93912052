/** @module simulator/nrql/parse-aggregate Aggregate function calls and their arguments. */
import { NrqlError } from '../types'
import type { Aggregate, AggregateArg, Component, RowExpr, SelectExpr, SimpleFunction } from './ast'
import { TIMESLICE, atAttribute, parseAttribute, parseFacetAttribute } from './attributes'
import type { Cursor } from './cursor'
import { parseArith } from './parse-arith'
import { parseCondition } from './parse-condition'
import { parseDuration } from './parse-time'

const SIMPLE: readonly string[] = ['count', 'sum', 'average', 'min', 'max', 'stddev', 'apdex']
const COMPONENTS: readonly string[] = [
  'count',
  'total',
  'totalExclusive',
  'min',
  'max',
  'sumOfSquares',
]
/** NRDB's uniques() default and maximum limits: "the default limit of 1,000 unique attribute values
 * per facet ... up to a maximum of 10,000" (New Relic docs "NRQL syntax, clauses, and functions"). */
export const UNIQUES_DEFAULT = 1000
export const UNIQUES_MAX = 10_000

export function parseSelectPrimary(cursor: Cursor): SelectExpr {
  if (cursor.peek().kind === 'ident' && cursor.isPunct('(', 1)) return parseAggregate(cursor)
  throw new NrqlError(
    `Only aggregate functions are supported in SELECT, found '${cursor.source(cursor.peek())}'`,
    'INVALID_INPUT'
  )
}

function parseAggregate(cursor: Cursor): Aggregate {
  const nameToken = cursor.next()
  const name = nameToken.value.toLowerCase()
  cursor.expectPunct('(')
  let result: Aggregate
  if (SIMPLE.includes(name)) {
    const fn = name as SimpleFunction
    const arg = parseAggregateArg(cursor)
    if (arg.type === 'star' && fn !== 'count') {
      throw new NrqlError(`${fn}(*) is not supported`, 'INVALID_INPUT')
    }
    if (arg.type === 'timestamp' && fn !== 'min' && fn !== 'max') {
      throw new NrqlError(`${fn}(timestamp) is not supported`, 'INVALID_INPUT')
    }
    if (fn === 'apdex' && arg.type !== 'timeslice') {
      throw new NrqlError(`apdex() needs ${TIMESLICE}`, 'INVALID_INPUT')
    }
    result = { type: 'aggregate', fn, arg }
  } else if (name === 'uniques') {
    const attribute = parseFacetAttribute(cursor)
    let limit: number | null = null
    if (cursor.acceptPunct(',')) {
      limit = cursor.expectInteger('a uniques() limit')
      if (limit < 1 || limit > UNIQUES_MAX) {
        throw new NrqlError(`uniques() limit must be 1..${UNIQUES_MAX}`, 'INVALID_INPUT')
      }
    }
    result = { type: 'uniques', attribute, limit }
  } else if (name === 'uniquecount') {
    // "uniqueCount(attribute)": the number of unique values (New Relic docs "NRQL syntax, clauses,
    // and functions"); the simulator counts exactly, how exact NRDB is at large counts is [UNKNOWN].
    result = { type: 'uniques', attribute: parseFacetAttribute(cursor), limit: null, count: true }
  } else if (name === 'rate') {
    const aggregate = parseAggregateOnly(cursor)
    cursor.expectPunct(',')
    result = { type: 'rate', aggregate, per: parseDuration(cursor) }
    checkNumeric(aggregate, true)
  } else if (name === 'filter') {
    const aggregate = parseAggregateOnly(cursor)
    cursor.expectPunct(',')
    cursor.expectKeyword('WHERE')
    result = { type: 'filter', aggregate, where: parseCondition(cursor) }
  } else {
    throw new NrqlError(`Unsupported function '${nameToken.value}'`, 'INVALID_INPUT')
  }
  cursor.expectPunct(')')
  return result
}

function parseAggregateOnly(cursor: Cursor): Aggregate {
  if (cursor.peek().kind === 'ident' && cursor.isPunct('(', 1)) return parseAggregate(cursor)
  throw cursor.unexpected('an aggregate function')
}

/** Arithmetic and rate() need numbers: apdex()/uniques() (and rate in rate) are rejected. */
export function checkNumeric(expr: SelectExpr, inRate = false): void {
  switch (expr.type) {
    case 'number':
      return
    case 'negate':
      return checkNumeric(expr.operand, inRate)
    case 'binary':
      checkNumeric(expr.left, inRate)
      return checkNumeric(expr.right, inRate)
    case 'filter':
      return checkNumeric(expr.aggregate, inRate)
    case 'rate':
      if (inRate) throw new NrqlError('rate() cannot be nested in rate()', 'INVALID_INPUT')
      return checkNumeric(expr.aggregate, true)
    case 'uniques':
      if (expr.count) return
      throw new NrqlError('uniques() cannot be used in arithmetic or rate()', 'INVALID_INPUT')
    case 'aggregate':
      if (expr.fn === 'apdex') {
        throw new NrqlError('apdex() cannot be used in arithmetic or rate()', 'INVALID_INPUT')
      }
  }
}

function parseAggregateArg(cursor: Cursor): AggregateArg {
  if (cursor.isPunct('*') && cursor.isPunct(')', 1)) {
    cursor.next()
    return { type: 'star' }
  }
  if (atAttribute(cursor) && cursor.peek().value === TIMESLICE && cursor.isPunct(')', 1)) {
    cursor.next()
    return { type: 'timeslice' }
  }
  if (atAttribute(cursor) && cursor.peek().value === 'timestamp' && cursor.isPunct(')', 1)) {
    cursor.next()
    return { type: 'timestamp' }
  }
  const expr = parseArith<RowExpr>(cursor, () => parseComponent(cursor))
  if (!hasComponent(expr))
    throw new NrqlError('Aggregating a constant is not supported', 'INVALID_INPUT')
  return expr
}

/** `newrelic.timeslice.value['<component>']` */
function parseComponent(cursor: Cursor): RowExpr {
  const attribute = parseAttribute(cursor)
  if (attribute !== TIMESLICE) {
    throw new NrqlError(`Aggregating '${attribute}' is not supported`, 'INVALID_INPUT')
  }
  if (!cursor.acceptPunct('[')) {
    throw new NrqlError(`${TIMESLICE} in arithmetic needs a ['component']`, 'INVALID_INPUT')
  }
  const token = cursor.peek()
  if (token.kind !== 'string') throw cursor.unexpected('a quoted component name')
  if (!COMPONENTS.includes(token.value)) {
    throw new NrqlError(`Unknown timeslice component '${token.value}'`, 'INVALID_INPUT')
  }
  cursor.next()
  cursor.expectPunct(']')
  return { type: 'component', component: token.value as Component }
}

function hasComponent(expr: RowExpr): boolean {
  if (expr.type === 'component') return true
  if (expr.type === 'number') return false
  if (expr.type === 'negate') return hasComponent(expr.operand)
  return hasComponent(expr.left) || hasComponent(expr.right)
}

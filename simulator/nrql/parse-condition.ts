/** @module simulator/nrql/parse-condition WHERE / filter() condition grammar. */
import { NrqlError } from '../types'
import type { Condition, FacetAttribute, Literal } from './ast'
import { ATTRIBUTES, TIMESLICE, parseAttribute } from './attributes'
import type { Cursor } from './cursor'

/** cond := and (OR and)* ; and := not (AND not)* ; not := NOT not | '(' cond ')' | predicate */
export function parseCondition(cursor: Cursor): Condition {
  const parts = [parseAnd(cursor)]
  while (cursor.acceptKeyword('OR')) parts.push(parseAnd(cursor))
  return combine('or', parts)
}

function parseAnd(cursor: Cursor): Condition {
  const parts = [parseNot(cursor)]
  while (cursor.acceptKeyword('AND')) parts.push(parseNot(cursor))
  return combine('and', parts)
}

/** Flattens nested same-operator groups so equivalent conditions compare equal. */
function combine(type: 'and' | 'or', parts: Condition[]): Condition {
  if (parts.length === 1) return parts[0] as Condition
  const conditions = parts.flatMap((c) => (c.type === type ? c.conditions : [c]))
  return { type, conditions }
}

function parseNot(cursor: Cursor): Condition {
  if (cursor.isKeyword('NOT')) {
    cursor.next()
    return { type: 'not', condition: parseNot(cursor) }
  }
  if (cursor.acceptPunct('(')) {
    const inner = parseCondition(cursor)
    cursor.expectPunct(')')
    return inner
  }
  return parsePredicate(cursor)
}

function parsePredicate(cursor: Cursor): Condition {
  const attribute = parseAttribute(cursor)
  if (cursor.acceptKeyword('IS')) {
    const negated = cursor.acceptKeyword('NOT')
    cursor.expectKeyword('NULL')
    return { type: 'isNull', attribute, negated }
  }
  if (attribute === TIMESLICE) {
    throw new NrqlError(`'${TIMESLICE}' only supports IS [NOT] NULL in conditions`, 'INVALID_INPUT')
  }
  if (cursor.isPunct('=') || cursor.isPunct('!=')) {
    const op = cursor.next().value as '=' | '!='
    return { type: 'compare', attribute, op, value: parseLiteral(cursor, attribute) }
  }
  const order = (['<', '<=', '>', '>='] as const).find((op) => cursor.isPunct(op))
  if (order) {
    cursor.next()
    return { type: 'order', attribute, op: order, value: parseLiteral(cursor, attribute) }
  }
  const negated = cursor.acceptKeyword('NOT')
  if (cursor.acceptKeyword('IN')) {
    cursor.expectPunct('(')
    const values = [parseLiteral(cursor, attribute)]
    while (cursor.acceptPunct(',')) values.push(parseLiteral(cursor, attribute))
    cursor.expectPunct(')')
    return { type: 'in', attribute, values, negated }
  }
  if (cursor.acceptKeyword('LIKE')) {
    if (ATTRIBUTES[attribute].kind !== 'string') {
      throw new NrqlError(`LIKE needs a string attribute, not '${attribute}'`, 'INVALID_INPUT')
    }
    const token = cursor.peek()
    if (token.kind !== 'string') throw cursor.unexpected('a string pattern')
    cursor.next()
    return { type: 'like', attribute, pattern: token.value, negated }
  }
  throw cursor.unexpected(
    negated ? 'IN or LIKE' : 'a comparison (=, !=, <, <=, >, >=, IN, LIKE, IS)'
  )
}

/** String or number literal; string attributes only accept string literals. */
function parseLiteral(cursor: Cursor, attribute: FacetAttribute): Literal {
  const negative = cursor.acceptPunct('-')
  const token = cursor.peek()
  if (token.kind === 'number') {
    cursor.next()
    if (ATTRIBUTES[attribute].kind === 'string') {
      throw new NrqlError(
        `'${attribute}' is a string; compare it with a quoted string`,
        'INVALID_INPUT'
      )
    }
    return negative ? -Number(token.value) : Number(token.value)
  }
  if (token.kind === 'string' && !negative) {
    cursor.next()
    return token.value
  }
  throw cursor.unexpected('a literal value')
}

/**
 * @module simulator/nrql/event-parse
 * The NRQL subset for event types other than Metric (`FROM Deployment, ChangeTrackingEvent`): raw
 * rows (`*`, attributes, `eventType()`, `a OR b` for the first non-null, `AS` aliases) or
 * `count(*)`; WHERE with `=`, `!=`, `<`, `<=`, `>`, `>=`, `IN`, `LIKE`, `IS [NOT]
 * NULL`, AND, OR, NOT; SINCE, UNTIL,
 * LIMIT. The query New Relic's docs give ("Query your change tracking data") parses.
 */
import { NrqlError } from '../types'
import type { TimeSpec } from './ast'
import type { Cursor } from './cursor'
import { parseTimeSpec } from './parse-time'

/** An attribute, or `eventType()` (name null). */
export type Operand = { name: string | null }
export type EventSelect =
  | { type: 'star' }
  | { type: 'count'; key: string }
  | { type: 'value'; operands: Operand[]; key: string }
export type EventCondition =
  | { type: 'and'; conditions: EventCondition[] }
  | { type: 'or'; conditions: EventCondition[] }
  | { type: 'not'; condition: EventCondition }
  | { type: 'in'; operand: Operand; values: (string | number)[]; negated: boolean }
  | { type: 'like'; operand: Operand; pattern: string; negated: boolean }
  | { type: 'null'; operand: Operand; negated: boolean }
  | { type: 'order'; operand: Operand; op: OrderOp; value: string | number }

/** Orderings WHERE accepts (New Relic docs "NRQL syntax, clauses, and functions", `WHERE`). */
export type OrderOp = '<' | '<=' | '>' | '>='

export interface EventQuery {
  select: EventSelect[]
  from: string[]
  where: EventCondition | null
  since: TimeSpec | null
  until: TimeSpec | null
  limit: number | 'MAX' | null
}

function operand(cursor: Cursor): Operand {
  const token = cursor.next()
  if (token.kind !== 'ident' && token.kind !== 'backtick') throw cursor.unexpected('an attribute')
  if (token.kind === 'ident' && token.value === 'eventType' && cursor.acceptPunct('(')) {
    cursor.expectPunct(')')
    return { name: null }
  }
  return { name: token.value }
}

function alias(cursor: Cursor, fallback: string): string {
  if (!cursor.acceptKeyword('AS')) return fallback
  const token = cursor.next()
  if (token.kind === 'eof' || token.kind === 'punct') throw cursor.unexpected('an alias')
  return token.value
}

export function parseEventSelect(cursor: Cursor): EventSelect {
  if (cursor.acceptPunct('*')) return { type: 'star' }
  if (cursor.isKeyword('COUNT') && cursor.isPunct('(', 1)) {
    cursor.next()
    cursor.next()
    cursor.expectPunct('*')
    cursor.expectPunct(')')
    return { type: 'count', key: alias(cursor, 'count') }
  }
  const operands = [operand(cursor)]
  while (cursor.acceptKeyword('OR')) operands.push(operand(cursor))
  const first = operands[0]!.name ?? 'eventType'
  return { type: 'value', operands, key: alias(cursor, first) }
}

function literal(cursor: Cursor): string | number {
  const token = cursor.next()
  if (token.kind === 'string') return token.value
  if (token.kind === 'number') return Number(token.value)
  throw cursor.unexpected('a string or number')
}

function comparison(cursor: Cursor): EventCondition {
  if (cursor.acceptKeyword('NOT')) return { type: 'not', condition: comparison(cursor) }
  if (cursor.acceptPunct('(')) {
    const inner = parseEventCondition(cursor)
    cursor.expectPunct(')')
    return inner
  }
  const left = operand(cursor)
  if (cursor.acceptKeyword('IS')) {
    const negated = cursor.acceptKeyword('NOT')
    cursor.expectKeyword('NULL')
    return { type: 'null', operand: left, negated }
  }
  const negated = cursor.acceptKeyword('NOT')
  if (cursor.acceptKeyword('LIKE')) {
    const pattern = literal(cursor)
    if (typeof pattern !== 'string') throw new NrqlError('LIKE needs a string')
    return { type: 'like', operand: left, pattern, negated }
  }
  if (cursor.acceptKeyword('IN')) {
    cursor.expectPunct('(')
    const values = [literal(cursor)]
    while (cursor.acceptPunct(',')) values.push(literal(cursor))
    cursor.expectPunct(')')
    return { type: 'in', operand: left, values, negated }
  }
  if (negated) throw cursor.unexpected('LIKE or IN')
  if (cursor.acceptPunct('='))
    return { type: 'in', operand: left, values: [literal(cursor)], negated }
  if (cursor.acceptPunct('!=') || cursor.acceptPunct('<>'))
    return { type: 'in', operand: left, values: [literal(cursor)], negated: true }
  const op = (['<', '<=', '>', '>='] as const).find((o) => cursor.acceptPunct(o))
  if (op) return { type: 'order', operand: left, op, value: literal(cursor) }
  throw cursor.unexpected('a comparison')
}

export function parseEventCondition(cursor: Cursor): EventCondition {
  const or: EventCondition[] = []
  do {
    const and = [comparison(cursor)]
    while (cursor.acceptKeyword('AND')) and.push(comparison(cursor))
    or.push(and.length === 1 ? and[0]! : { type: 'and', conditions: and })
  } while (cursor.acceptKeyword('OR'))
  return or.length === 1 ? or[0]! : { type: 'or', conditions: or }
}

/** The clauses after `FROM …`. */
export function parseEventClauses(cursor: Cursor, query: EventQuery): void {
  while (cursor.peek().kind !== 'eof') {
    if (cursor.acceptKeyword('WHERE')) query.where = parseEventCondition(cursor)
    else if (cursor.acceptKeyword('SINCE')) query.since = parseTimeSpec(cursor)
    else if (cursor.acceptKeyword('UNTIL')) query.until = parseTimeSpec(cursor)
    else if (cursor.acceptKeyword('LIMIT'))
      query.limit = cursor.acceptKeyword('MAX') ? 'MAX' : cursor.expectInteger('a LIMIT count')
    else throw cursor.unexpected('WHERE, SINCE, UNTIL, LIMIT or the end')
  }
}

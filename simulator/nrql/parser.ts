/** @module simulator/nrql/parser NRQL query grammar: SELECT … FROM Metric and its clauses. */
import { NrqlError } from '../types'
import type { FacetAttribute, NrqlQuery } from './ast'
import { parseFacetAttribute } from './attributes'
import { Cursor } from './cursor'
import { tokenize } from './lexer'
import { parseCondition } from './parse-condition'
import { parseSelectItem } from './parse-select'
import { parseDuration, parseTimeSpec } from './parse-time'

/** NRDB's FACET limits: default 10 groups, at most 5,000 (`LIMIT MAX`): "The maximum allowed value
 * for the LIMIT clause is 5,000" (New Relic docs "NRQL syntax, clauses, and functions"). */
export const FACET_LIMIT_DEFAULT = 10
export const FACET_LIMIT_MAX = 5000

const UNSUPPORTED = ['COMPARE', 'WITH', 'ORDER', 'OFFSET', 'EXTRAPOLATE', 'SLIDE', 'RAW', 'SHOW']

export interface ParsedQuery {
  query: NrqlQuery
  /** Result key of each select item, in order. */
  keys: string[]
}

export function parseQuery(text: string): ParsedQuery {
  const cursor = new Cursor(text, tokenize(text))
  cursor.expectKeyword('SELECT')
  const parsed = [parseSelectItem(cursor)]
  while (cursor.acceptPunct(',')) parsed.push(parseSelectItem(cursor))
  cursor.expectKeyword('FROM')
  const from = cursor.peek()
  if (from.kind !== 'ident' && from.kind !== 'backtick') throw cursor.unexpected('an event type')
  cursor.next()
  if (from.value !== 'Metric' || cursor.isPunct(',')) {
    const supported = 'Only FROM Metric, or FROM Deployment and ChangeTrackingEvent, is supported'
    throw new NrqlError(`${supported}, not '${from.value}'`, 'INVALID_INPUT')
  }
  const query: NrqlQuery = {
    select: parsed.map((p) => p.item),
    from: 'Metric',
    where: null,
    facet: null,
    since: null,
    until: null,
    timeseries: null,
    limit: null,
  }
  const seen = new Set<string>()
  while (cursor.peek().kind !== 'eof') parseClause(cursor, query, seen)
  return { query, keys: parsed.map((p) => p.key) }
}

function parseClause(cursor: Cursor, query: NrqlQuery, seen: Set<string>): void {
  const token = cursor.peek()
  const keyword = token.kind === 'ident' ? token.value.toUpperCase() : ''
  if (seen.has(keyword)) throw new NrqlError(`Duplicate ${keyword} clause`)
  seen.add(keyword)
  switch (keyword) {
    case 'WHERE':
      cursor.next()
      query.where = parseCondition(cursor)
      return
    case 'FACET':
      cursor.next()
      query.facet = parseFacetList(cursor)
      return
    case 'SINCE':
      cursor.next()
      query.since = parseTimeSpec(cursor)
      return
    case 'UNTIL':
      cursor.next()
      query.until = parseTimeSpec(cursor)
      return
    case 'TIMESERIES':
      cursor.next()
      if (cursor.peek().kind !== 'number') {
        throw new NrqlError('TIMESERIES needs an explicit `<N> <unit>` bucket', 'INVALID_INPUT')
      }
      query.timeseries = parseDuration(cursor)
      return
    case 'LIMIT':
      cursor.next()
      query.limit = parseLimit(cursor)
      return
  }
  if (UNSUPPORTED.includes(keyword)) {
    throw new NrqlError(`The ${keyword} clause is not supported`, 'INVALID_INPUT')
  }
  throw cursor.unexpected('a clause (WHERE, FACET, SINCE, UNTIL, TIMESERIES, LIMIT) or the end')
}

function parseFacetList(cursor: Cursor): FacetAttribute[] {
  if (cursor.isPunct('('))
    throw new NrqlError('FACET expressions are not supported', 'INVALID_INPUT')
  const list = [parseFacetAttribute(cursor)]
  while (cursor.acceptPunct(',')) list.push(parseFacetAttribute(cursor))
  if (cursor.isPunct('(')) throw new NrqlError('FACET functions are not supported', 'INVALID_INPUT')
  return list
}

function parseLimit(cursor: Cursor): number | 'MAX' {
  if (cursor.acceptKeyword('MAX')) return 'MAX'
  const n = cursor.expectInteger('a LIMIT count or MAX')
  if (n < 1 || n > FACET_LIMIT_MAX) {
    throw new NrqlError(`LIMIT must be between 1 and ${FACET_LIMIT_MAX}`, 'INVALID_INPUT')
  }
  return n
}

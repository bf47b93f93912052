/**
 * @module simulator/nrql/events
 * Runs an event query (event-parse.ts) over `ctx.events`: rows of the account in the window,
 * newest first, LIMIT 100 by default and 5,000 at most (NRQL's limits for raw events, New Relic docs
 * "NRQL syntax, clauses, and functions": LIMIT), or one `count(*)` row. `SELECT *` lists the
 * attributes an event has; a named attribute it lacks is null.
 */
import { NrqlError, type EventRow, type NrqlContext, type NrqlResult } from '../types'
import type { TimeSpec } from './ast'
import type { Cursor } from './cursor'
import {
  parseEventClauses,
  parseEventSelect,
  type EventCondition,
  type EventQuery,
  type EventSelect,
  type Operand,
} from './event-parse'
import { UNIT_MS } from './parse-time'
import { compareValues } from './compare'
import { timeSpecText } from './parse-time'

const DEFAULT_LIMIT = 100
const MAX_LIMIT = 5000
const HOUR = 3_600_000

function parseFrom(cursor: Cursor): string[] {
  cursor.expectKeyword('FROM')
  const from = [cursor.next().value]
  while (cursor.acceptPunct(',')) from.push(cursor.next().value)
  return from
}

function parseSelect(cursor: Cursor): EventSelect[] {
  cursor.expectKeyword('SELECT')
  const select = [parseEventSelect(cursor)]
  while (cursor.acceptPunct(',')) select.push(parseEventSelect(cursor))
  return select
}

/** An event query, `SELECT … FROM …` or `FROM … SELECT …` (both NRQL). */
export function parseEventQuery(cursor: Cursor): EventQuery {
  const fromFirst = cursor.isKeyword('FROM')
  const from = fromFirst ? parseFrom(cursor) : undefined
  const select = parseSelect(cursor)
  const query: EventQuery = {
    select,
    from: from ?? parseFrom(cursor),
    where: null,
    since: null,
    until: null,
    limit: null,
  }
  parseEventClauses(cursor, query)
  const counts = select.filter((s) => s.type === 'count').length
  if (counts > 0 && counts < select.length)
    throw new NrqlError('Mixing count(*) with attributes needs FACET, which events do not support')
  if (typeof query.limit === 'number' && (query.limit < 1 || query.limit > MAX_LIMIT))
    throw new NrqlError(`LIMIT must be between 1 and ${MAX_LIMIT}`, 'INVALID_INPUT')
  return query
}

const valueOf = (row: EventRow, o: Operand) =>
  o.name === null ? row.eventType : o.name === 'timestamp' ? row.timestamp : row.attributes[o.name]

function like(value: string, pattern: string): boolean {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\*]/g, '\\$&').replace(/%/g, '.*')
  return new RegExp(`^${escaped}$`, 's').test(value)
}

/** The condition `c` on `row`; orderings compare numbers numerically, strings by code unit (as
 * condition.ts does for Metric). */
export function matches(row: EventRow, c: EventCondition): boolean {
  if (c.type === 'and') return c.conditions.every((x) => matches(row, x))
  if (c.type === 'or') return c.conditions.some((x) => matches(row, x))
  if (c.type === 'not') return !matches(row, c.condition)
  const v = valueOf(row, c.operand)
  if (c.type === 'null') return (v === undefined) !== c.negated
  if (v === undefined) return false
  if (c.type === 'order') {
    const d = compareValues(v, c.value)
    return c.op === '<' ? d < 0 : c.op === '<=' ? d <= 0 : c.op === '>' ? d > 0 : d >= 0
  }
  const hit =
    c.type === 'like' ? like(String(v), c.pattern) : c.values.some((x) => String(x) === String(v))
  return hit !== c.negated
}

/** Epoch ms of a SINCE or UNTIL, `otherwise` when absent. */
export const at = (spec: TimeSpec | null, now: number, otherwise: number) =>
  spec === null
    ? otherwise
    : spec.type === 'now'
      ? now
      : spec.type === 'epoch'
        ? spec.ms
        : now - spec.amount * UNIT_MS[spec.unit]

/** `metadata` of an event query's answer over [begin, end]. */
export function eventMetadata(
  eventTypes: readonly string[],
  facets: string[] | null,
  q: { since: TimeSpec | null; until: TimeSpec | null },
  begin: number,
  end: number
) {
  return {
    eventTypes: [...eventTypes],
    facets,
    messages: [],
    timeWindow: {
      begin,
      end,
      since: q.since ? timeSpecText(q.since) : '60 MINUTES AGO',
      until: q.until ? timeSpecText(q.until) : 'NOW',
      compareWith: null,
    },
  }
}

export function evaluateEvents(query: EventQuery, ctx: NrqlContext): NrqlResult {
  const begin = at(query.since, ctx.now, ctx.now - HOUR)
  const end = at(query.until, ctx.now, ctx.now)
  if (end <= begin) throw new NrqlError('SINCE must be before UNTIL', 'INVALID_INPUT')
  const rows = (ctx.events?.(query.from) ?? [])
    .filter((r) => r.accountId === ctx.accountId && r.timestamp >= begin && r.timestamp <= end)
    .filter((r) => query.where === null || matches(r, query.where))
    .sort((a, b) => b.timestamp - a.timestamp)
  const metadata = eventMetadata(query.from, null, query, begin, end)
  if (query.select[0]!.type === 'count') {
    const counted = Object.fromEntries(
      query.select.map((s) => [(s as { key: string }).key, rows.length])
    )
    return { results: [counted], metadata, totalResult: null, otherResult: null }
  }
  const limit = query.limit === 'MAX' ? MAX_LIMIT : (query.limit ?? DEFAULT_LIMIT)
  const results = rows.slice(0, limit).map((row) => {
    const out: Record<string, unknown> = {}
    for (const s of query.select) {
      if (s.type === 'star') Object.assign(out, row.attributes, { timestamp: row.timestamp })
      else if (s.type === 'value')
        out[s.key] = s.operands.map((o) => valueOf(row, o)).find((v) => v !== undefined) ?? null
    }
    return out
  })
  return { results, metadata, totalResult: null, otherResult: null }
}

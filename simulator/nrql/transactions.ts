/**
 * @module simulator/nrql/transactions
 * `FROM Transaction`, the APM event of each transaction (New Relic docs "Events reported by APM"),
 * narrowed to what the simulator holds of it: the newest event of each application
 * (`NrqlContext.transactions`), so only `max(timestamp)` is answered, over one row or `FACET appId`,
 * with WHERE on `appId` and `appName` (event-parse.ts), SINCE, UNTIL and LIMIT. Anything else is an
 * INVALID_INPUT error rather than a guess. Facets rank by the value descending, LIMIT 10 by default,
 * `MAX` the 5,000 cap, `otherResult` the newest of the facets cut (as shape.ts for Metric). With no
 * event, `max(timestamp)` is null [unknown: what live answers then].
 */
import { NrqlError, type EventRow, type NrqlContext, type NrqlResult } from '../types'
import type { Cursor } from './cursor'
import { parseEventCondition, type EventCondition } from './event-parse'
import { at, eventMetadata, matches } from './events'
import { FACET_LIMIT_DEFAULT, FACET_LIMIT_MAX } from './parser'
import { parseTimeSpec } from './parse-time'
import type { TimeSpec } from './ast'

const HOUR = 3_600_000
const unsupported = (what: string) =>
  new NrqlError(`The simulator answers ${what} of Transaction, nothing else`, 'INVALID_INPUT')

export interface TransactionQuery {
  key: string
  where: EventCondition | null
  facet: boolean
  since: TimeSpec | null
  until: TimeSpec | null
  limit: number | 'MAX' | null
}

/** `SELECT max(timestamp) [AS 'x'] FROM Transaction [WHERE …] [FACET appId] [SINCE …] [UNTIL …]
 * [LIMIT …]`. */
export function parseTransactionQuery(cursor: Cursor): TransactionQuery {
  cursor.expectKeyword('SELECT')
  if (!cursor.acceptKeyword('MAX')) throw unsupported('only max(timestamp)')
  cursor.expectPunct('(')
  if (!cursor.acceptKeyword('TIMESTAMP')) throw unsupported('only max(timestamp)')
  cursor.expectPunct(')')
  let key = 'max.timestamp'
  if (cursor.acceptKeyword('AS')) key = cursor.next().value
  cursor.expectKeyword('FROM')
  cursor.next()
  if (cursor.isPunct(','))
    throw new NrqlError('The simulator answers FROM Transaction alone', 'INVALID_INPUT')
  const q: TransactionQuery = {
    key,
    where: null,
    facet: false,
    since: null,
    until: null,
    limit: null,
  }
  while (cursor.peek().kind !== 'eof') {
    if (cursor.acceptKeyword('WHERE')) q.where = parseEventCondition(cursor)
    else if (cursor.acceptKeyword('FACET')) {
      if (!cursor.acceptKeyword('APPID') || cursor.isPunct(','))
        throw unsupported('only FACET appId')
      q.facet = true
    } else if (cursor.acceptKeyword('SINCE')) q.since = parseTimeSpec(cursor)
    else if (cursor.acceptKeyword('UNTIL')) q.until = parseTimeSpec(cursor)
    else if (cursor.acceptKeyword('LIMIT'))
      q.limit = cursor.acceptKeyword('MAX') ? 'MAX' : cursor.expectInteger('a LIMIT count')
    else throw cursor.unexpected('WHERE, FACET, SINCE, UNTIL, LIMIT or the end')
  }
  if (typeof q.limit === 'number' && (q.limit < 1 || q.limit > FACET_LIMIT_MAX))
    throw new NrqlError(`LIMIT must be between 1 and ${FACET_LIMIT_MAX}`, 'INVALID_INPUT')
  return q
}

export function evaluateTransactions(q: TransactionQuery, ctx: NrqlContext): NrqlResult {
  const begin = at(q.since, ctx.now, ctx.now - HOUR)
  const end = at(q.until, ctx.now, ctx.now)
  if (end <= begin) throw new NrqlError('SINCE must be before UNTIL', 'INVALID_INPUT')
  const newest: { appId: number; timestamp: number }[] = []
  for (const app of ctx.transactions?.(ctx.accountId) ?? []) {
    const { accountId, attributes } = app
    const row: EventRow = { eventType: 'Transaction', accountId, timestamp: 0, attributes }
    if (q.where !== null && !matches(row, q.where)) continue
    const timestamp = app.newest(begin, end)
    if (timestamp !== null) newest.push({ appId: Number(app.attributes['appId']), timestamp })
  }
  const metadata = eventMetadata(['Transaction'], q.facet ? ['appId'] : null, q, begin, end)
  const max = (rows: typeof newest) =>
    rows.length ? Math.max(...rows.map((r) => r.timestamp)) : null
  if (!q.facet)
    return { results: [{ [q.key]: max(newest) }], metadata, totalResult: null, otherResult: null }
  newest.sort((a, b) => b.timestamp - a.timestamp || a.appId - b.appId)
  const cap = ctx.limits?.limitMax ?? FACET_LIMIT_MAX
  const limit = Math.min(q.limit === 'MAX' ? cap : (q.limit ?? FACET_LIMIT_DEFAULT), cap)
  const results = newest
    .slice(0, limit)
    .map((r) => ({ facet: r.appId, appId: r.appId, [q.key]: r.timestamp }))
  const cut = newest.slice(limit)
  return {
    results,
    metadata,
    totalResult: { [q.key]: max(newest) },
    otherResult: cut.length ? { [q.key]: max(cut) } : null,
  }
}

/** @module simulator/nrql NRQL subset of the NerdGraph simulator: parse and run over a MetricStore
 * (`FROM Metric`) or over events (`FROM Deployment, ChangeTrackingEvent`, events.ts). */
import { NrqlError, type NrqlContext, type NrqlResult } from '../types'
import type { NrqlQuery } from './ast'
import { Cursor } from './cursor'
import { evaluate } from './evaluate'
import { evaluateEvents, parseEventQuery } from './events'
import { tokenize } from './lexer'
import { parseQuery } from './parser'
import { evaluateTransactions, parseTransactionQuery } from './transactions'

export type * from './ast'

/** Event types other than Metric the simulator holds (change tracking, New Relic docs "Query your
 * change tracking data"). */
export const EVENT_TYPES = ['Deployment', 'ChangeTrackingEvent'] as const
const supported = 'Only FROM Metric, or FROM Deployment and ChangeTrackingEvent, is supported'

/** Parses NRQL into a plain-data AST; throws NrqlError outside the supported subset. */
export function parseNrql(text: string): NrqlQuery {
  return parseQuery(text).query
}

/** The event type after the first FROM of `text`, with its tokens. */
function fromType(text: string) {
  const tokens = tokenize(text)
  const from = tokens.findIndex((t) => t.kind === 'ident' && t.value.toUpperCase() === 'FROM')
  return { tokens, type: from < 0 ? undefined : tokens[from + 1]?.value }
}

/** The event query of `text` when its FROM names only event types of EVENT_TYPES. */
function eventQuery(text: string, { tokens, type }: ReturnType<typeof fromType>) {
  if (!type || !(EVENT_TYPES as readonly string[]).includes(type)) return null
  const cursor = new Cursor(text, tokens)
  const query = parseEventQuery(cursor)
  const unknown = query.from.find((t) => !(EVENT_TYPES as readonly string[]).includes(t))
  if (unknown) throw new NrqlError(`${supported}, not '${unknown}'`, 'INVALID_INPUT')
  return query
}

/** Parses and evaluates NRQL against `ctx.store` or `ctx.events`; throws NrqlError on unsupported
 * queries. */
export function runNrql(text: string, ctx: NrqlContext): NrqlResult {
  const from = fromType(text)
  if (from.type === 'Transaction')
    return evaluateTransactions(parseTransactionQuery(new Cursor(text, from.tokens)), ctx)
  const events = eventQuery(text, from)
  return events ? evaluateEvents(events, ctx) : evaluate(parseQuery(text), ctx)
}

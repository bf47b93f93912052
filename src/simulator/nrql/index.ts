/** @module simulator/nrql NRQL subset of the NerdGraph simulator: parse and run over a MetricStore. */
import type { NrqlContext, NrqlResult } from '../types'
import type { NrqlQuery } from './ast'
import { evaluate } from './evaluate'
import { parseQuery } from './parser'

export type * from './ast'

/** Parses NRQL into a plain-data AST; throws NrqlError outside the supported subset. */
export function parseNrql(text: string): NrqlQuery {
  return parseQuery(text).query
}

/** Parses and evaluates NRQL against `ctx.store`; throws NrqlError on unsupported queries. */
export function runNrql(text: string, ctx: NrqlContext): NrqlResult {
  return evaluate(parseQuery(text), ctx)
}

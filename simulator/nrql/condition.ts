/**
 * @module simulator/nrql/condition
 * Compiles WHERE / filter() conditions into row predicates with SQL-style three-valued logic:
 * a comparison against a null attribute is unknown (null), so `scope != 'x'` skips rows whose
 * scope is null, as NRQL does (use `IS NULL` to select them).
 */
import { compareValues } from './compare'
import type { MetricRow } from '../types'
import type { Condition, FacetAttribute, Literal } from './ast'
import { ATTRIBUTES, TIMESLICE } from './attributes'
import type { AttributeValue } from './attributes'

/** true = match, false = no match, null = unknown (no match at top level). */
export type Predicate = (row: MetricRow) => boolean | null

export function compileCondition(cond: Condition): Predicate {
  switch (cond.type) {
    case 'and': {
      const parts = cond.conditions.map(compileCondition)
      return (row) => {
        let unknown = false
        for (const part of parts) {
          const v = part(row)
          if (v === false) return false
          if (v === null) unknown = true
        }
        return unknown ? null : true
      }
    }
    case 'or': {
      const parts = cond.conditions.map(compileCondition)
      return (row) => {
        let unknown = false
        for (const part of parts) {
          const v = part(row)
          if (v === true) return true
          if (v === null) unknown = true
        }
        return unknown ? null : false
      }
    }
    case 'not': {
      const inner = compileCondition(cond.condition)
      return (row) => {
        const v = inner(row)
        return v === null ? null : !v
      }
    }
    case 'isNull': {
      // newrelic.timeslice.value is present on every Metric timeslice row.
      if (cond.attribute === TIMESLICE) return () => cond.negated
      const get = ATTRIBUTES[cond.attribute].get
      return cond.negated ? (row) => get(row) !== null : (row) => get(row) === null
    }
    case 'compare':
      return membership(cond.attribute, [cond.value], cond.op === '!=')
    case 'in':
      return membership(cond.attribute, cond.values, cond.negated)
    case 'order':
      return ordering(cond.attribute, cond.op, cond.value)
    case 'like': {
      const get = ATTRIBUTES[cond.attribute].get
      const re = likeRegExp(cond.pattern)
      const negated = cond.negated
      return (row) => {
        const v = get(row)
        return v === null ? null : re.test(String(v)) !== negated
      }
    }
  }
}

/** `<`, `<=`, `>`, `>=`: numbers numerically, strings by code unit (NRQL's string order is not
 * shown by the docs, [UNKNOWN]; v2bridge's splits need only that `<` and `>=` are complements). */
function ordering(
  attribute: FacetAttribute,
  op: '<' | '<=' | '>' | '>=',
  value: Literal
): Predicate {
  const { get, kind } = ATTRIBUTES[attribute]
  const bound = coerceLiteral(kind, value)
  const holds = {
    '<': (d: number) => d < 0,
    '<=': (d: number) => d <= 0,
    '>': (d: number) => d > 0,
    '>=': (d: number) => d >= 0,
  }[op]
  return (row) => {
    const v = get(row)
    return v === null || Number.isNaN(bound) ? null : holds(compareValues(v, bound))
  }
}

function membership(attribute: FacetAttribute, values: Literal[], negated: boolean): Predicate {
  const { get, kind } = ATTRIBUTES[attribute]
  const wanted = values.map((v) => coerceLiteral(kind, v))
  if (wanted.length === 1) {
    const only = wanted[0]
    return (row) => {
      const v = get(row)
      return v === null ? null : (v === only) !== negated
    }
  }
  const set = new Set<AttributeValue>(wanted)
  return (row) => {
    const v = get(row)
    return v === null ? null : set.has(v) !== negated
  }
}

/** NRQL coerces `appId = '123'` to a number comparison; non-numeric strings match nothing. */
export function coerceLiteral(kind: 'number' | 'string', value: Literal): AttributeValue {
  if (kind === 'string' || typeof value === 'number') return value
  return value.trim() === '' ? NaN : Number(value)
}

/** NRQL LIKE: `%` matches any run, `_` one character [UNKNOWN: the docs name only `%`], whole value;
 * "The `LIKE` operator is case insensitive" (New Relic docs "NRQL syntax, clauses, and functions"). */
export function likeRegExp(pattern: string): RegExp {
  let source = ''
  for (const ch of pattern) {
    if (ch === '%') source += '.*'
    else if (ch === '_') source += '.'
    else source += ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
  }
  return new RegExp(`^${source}$`, 'isu')
}

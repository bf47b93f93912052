/**
 * @module resources/metrics/columns
 * What a metric-data call's names and values decide, whatever its scope and time range (pure): one
 * group per metric family with its select list and its quoted name lists, and how each metric's
 * values are read from a row. Remembered for recent name and value sets (issue 16: a dashboard polls
 * the same call every minute), within a budget of names; derived from public tables and the
 * request only, so one caller's entry tells another nothing.
 */
import {
  nrqlInputs,
  otherMetrics,
  type FormulaName,
  type InputName,
  type ValueType,
} from '../../../mappings/value-types'
import type { MetricFamily } from '../../../mappings/metric-families'
import { quote, quoteList } from '../../core/nrql'
import { defaultTables, definitionOf, familyOf, valuesFor, type Tables } from './families'

/** Names per query: 2000, under the 5,000 facets NRQL's `LIMIT MAX` answers at most (New Relic docs
 * "NRQL syntax, clauses, and functions"); split by host or instance a query may still reach it
 * (src/resources/metrics/cold-scope.ts asks again then). */
export const namesPerQuery = 2000

/** How one v2 value is read from a result row. */
export type ValueRead =
  /** `scale`: constants the column is multiplied by, in order (`scaled` below). */
  | { value: ValueType; count: boolean; alias: string; scale?: number[] }
  | {
      value: ValueType
      count: boolean
      formula: FormulaName
      inputs: Partial<Record<InputName, string>>
      /** The inputs are other metrics': read from the row of the `others` query. */
      others?: true
    }

export interface Columns {
  /** Per family: its select list, and its names as `IN (…)` lists of up to `namesPerQuery`. */
  groups: { select: string; nameLists: string[] }[]
  /** Every requested name as `IN (…)` lists of up to `namesPerQuery`. */
  nameLists: string[]
  /** The query of inputs read from other metrics of the scope (mappings/value-types.ts
   * `otherMetrics`): its select list and its metric names as an `IN (…)` list; null if none. */
  others: { select: string; names: string } | null
  metrics: { name: string; values: ValueRead[] }[]
}

const memo = new Map<string, Columns>()
/** Names held by all entries together; an entry holds about 10 value reads (and their readers,
 * src/resources/metrics/read.ts) per name, so a few MB at most, also in a Worker. */
const memoNames = 5_000
let held = 0

/** Callers must not change what this returns: it may be shared with later calls. */
export function columnsOf(
  names: readonly string[],
  values: readonly string[] | null,
  tables: Tables = defaultTables
): Columns {
  if (tables !== defaultTables || names.length > memoNames) return derive(names, values, tables)
  const key = JSON.stringify([values, names])
  const hit = memo.get(key)
  if (hit) {
    memo.delete(key) // re-inserted last: the least recently used entry stays first
    memo.set(key, hit)
    return hit
  }
  const columns = derive(names, values, tables)
  memo.set(key, columns)
  held += names.length
  for (const [k, old] of memo) {
    if (held <= memoNames) break
    memo.delete(k)
    held -= old.metrics.length
  }
  return columns
}

function derive(names: readonly string[], requested: readonly string[] | null, tables: Tables) {
  // One NRQL per metric family, with only that family's select list: no row carries a column
  // another family asked for. Names past the FACET cap split further.
  const groups = new Map<MetricFamily, { select: SelectList; names: string[] }>()
  // Inputs of other metrics: one query beside the families', without their FACET.
  const others = { select: selectList(), names: new Set<string>() }
  const metrics = names.map((name) => {
    const family = familyOf(name, tables)
    let group = groups.get(family)
    if (!group) groups.set(family, (group = { select: selectList(), names: [] }))
    group.names.push(name)
    const { select } = group
    const values = valuesFor(family, requested).map((value): ValueRead => {
      const d = definitionOf(family, value, tables)
      const count = d.count === true
      if ('nrql' in d) {
        const { expr, scale } = scaled(d.nrql)
        return { value, count, alias: select.alias(expr), ...(scale.length ? { scale } : {}) }
      }
      const other = d.inputs.some((i) => Object.hasOwn(otherMetrics, i))
      const into = other ? others.select : select
      const inputs = Object.fromEntries(d.inputs.map((i) => [i, into.alias(nrqlInputs[i])]))
      if (!other) return { value, count, formula: d.formula, inputs }
      for (const i of d.inputs) others.names.add(otherMetrics[i as keyof typeof otherMetrics])
      return { value, count, formula: d.formula, inputs, others: true }
    })
    return { name, values }
  })
  const lists = (of: readonly string[]) => chunk(of, namesPerQuery).map(quoteList)
  return {
    groups: [...groups.values()].map(({ select, names }) => {
      // FACET needs a select item even when no requested value applies: it still tells found names.
      if (select.size() === 0) select.alias(nrqlInputs.count)
      return { select: select.items().join(', '), nameLists: lists(names) }
    }),
    nameLists: lists(names),
    others: others.select.size()
      ? { select: others.select.items().join(', '), names: quoteList([...others.names]) }
      : null,
    metrics,
  }
}

/**
 * `x * 1000`, `x * 1024 * 1024`: the expression `x` and the constants it is multiplied by, so that
 * `average(v)` and `average(v) * 1000` are one column. The reshape multiplies in the same order: the
 * same IEEE double products NRQL would compute. A `+` or `-` outside parentheses keeps the constants
 * in the NRQL (they bind to its last term only).
 */
export function scaled(nrql: string): { expr: string; scale: number[] } {
  const m = /^(.*?)((?: \* \d+)+)$/.exec(nrql)
  let outside = m?.[1] ?? '+' // the expression without its parenthesised parts
  while (outside !== (outside = outside.replace(/\([^()]*\)/g, '')));
  return m && !/[+-]/.test(outside)
    ? { expr: m[1]!, scale: m[2]!.split(' * ').slice(1).map(Number) }
    : { expr: nrql, scale: [] }
}

type SelectList = ReturnType<typeof selectList>

/**
 * Select items keyed by expression, so a value or input shared by several values is fetched once.
 * Aliases are `a`, `b`… `z`, `ba`…: every result row repeats them, so a short alias is most of what
 * a row saves (issue 16: upstream bytes under the answer's); the plan maps them back to v2 names.
 */
function selectList() {
  const aliasByExpr = new Map<string, string>()
  return {
    alias(expr: string): string {
      let alias = aliasByExpr.get(expr)
      if (!alias) aliasByExpr.set(expr, (alias = shortAlias(aliasByExpr.size)))
      return alias
    },
    size: () => aliasByExpr.size,
    items: () => [...aliasByExpr].map(([expr, alias]) => `${expr} AS ${quote(alias)}`),
  }
}

/** 0 → `a`, 25 → `z`, 26 → `ba`: letters only, never a result key NerdGraph adds itself. */
function shortAlias(index: number): string {
  let alias = ''
  do {
    alias = String.fromCharCode(97 + (index % 26)) + alias
    index = Math.floor(index / 26)
  } while (index > 0)
  return alias
}

function chunk<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size))
  return out
}

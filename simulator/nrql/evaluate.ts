/**
 * @module simulator/nrql/evaluate
 * Runs a parsed query in one streaming pass over the store: every row in the window that
 * matches WHERE updates the accumulators of its facet group and TIMESERIES bucket.
 */
import type { MetricRow, NrqlContext, NrqlLimits, NrqlResult } from '../types'
import type { FacetAttribute } from './ast'
import { Layout } from './layout'
import type { Cells } from './layout'
import { ATTRIBUTES } from './attributes'
import type { AttributeValue } from './attributes'
import { compileCondition } from './condition'
import type { Predicate } from './condition'
import { scanHint } from './hints'
import type { ParsedQuery } from './parser'
import { compileSelect } from './select'
import { UNIQUES_MAX } from './parse-aggregate'
import { FACET_LIMIT_MAX } from './parser'
import { shapeResult } from './shape'
import type { Group } from './shape'
import { resolveWindow } from './window'
import type { QueryWindow } from './window'

export function evaluate(parsed: ParsedQuery, ctx: NrqlContext): NrqlResult {
  const { query } = parsed
  const window = resolveWindow(query, ctx.now, ctx.retention)
  const limits: NrqlLimits = { ...LIVE_LIMITS, ...ctx.limits }
  const layout = new Layout()
  layout.uniquesCap = limits.uniquesCap
  const items = query.select.map((item) => compileSelect(item.expr, layout))
  const where = query.where === null ? null : compileCondition(query.where)
  const seriesOnce = !query.timeseries && query.select.every((i) => i.expr.type === 'uniques')
  const base = {
    accountId: ctx.accountId,
    since: window.begin,
    until: window.end,
    rollupMs: window.rollupMs,
    seriesOnce,
  }
  const rows = ctx.store.scan(scanHint(query.where, base))
  const groups = accumulate(rows, ctx.accountId, window, layout, where, query.facet)
  return shapeResult({ query, keys: parsed.keys, window, layout, items, groups, limits })
}

/** NRDB's own caps (simulator/types.ts `NrqlLimits`). */
export const LIVE_LIMITS: NrqlLimits = { limitMax: FACET_LIMIT_MAX, uniquesCap: UNIQUES_MAX }

type FacetKey = (row: MetricRow) => AttributeValue | string

function facetKeyOf(facet: FacetAttribute[]): FacetKey {
  const getters = facet.map((a) => ATTRIBUTES[a].get)
  if (getters.length === 1) return getters[0]!
  return (row) => {
    let key = ''
    for (const get of getters) {
      const v = get(row)
      key += (v === null ? '\u0000' : typeof v === 'number' ? `#${v}` : `'${v}`) + '\u0001'
    }
    return key
  }
}

/** The single pass: returns one group per facet value (or one group without FACET). */
function accumulate(
  rows: Iterable<MetricRow>,
  accountId: number,
  window: QueryWindow,
  layout: Layout,
  where: Predicate | null,
  facet: FacetAttribute[] | null
): Group[] {
  const { begin, end, bucketMs } = window
  const cellCount = window.buckets.length
  const updates = layout.updates
  const n = updates.length
  const width = layout.width
  const setWidth = layout.setCount
  const single: Group = { facet: [], cells: layout.cells(cellCount) }
  const groups = new Map<AttributeValue | string, Group>()
  const key = facet === null ? null : facetKeyOf(facet)
  const getters = (facet ?? []).map((a) => ATTRIBUTES[a].get)
  for (const row of rows) {
    const ts = row.timestamp
    if (ts < begin || ts >= end || row.accountId !== accountId) continue
    if (where !== null && where(row) !== true) continue
    let cells: Cells = single.cells
    if (key !== null) {
      const k = key(row)
      let group = groups.get(k)
      if (group === undefined) {
        group = { facet: getters.map((get) => get(row)), cells: layout.cells(cellCount) }
        groups.set(k, group)
      }
      cells = group.cells
    }
    const c = bucketMs === 0 ? 0 : Math.floor((ts - begin) / bucketMs)
    const b = c * width
    const sb = c * setWidth
    for (let i = 0; i < n; i++) updates[i]!(cells, b, sb, row)
  }
  return key === null ? [single] : [...groups.values()]
}

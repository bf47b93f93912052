/**
 * @module simulator/nrql/shape
 * Builds NerdGraph's `nrql { results metadata totalResult otherResult }` from accumulated
 * groups. FACET groups are ranked by the first select item descending (nulls last, ties by
 * facet value ascending) and cut to LIMIT (default 10, MAX = NrqlLimits.limitMax, 5,000 live);
 * `otherResult` aggregates the groups the LIMIT cut ("the aggregates representing the events _not_
 * contained in an individual `results` facet", schema `NrdbResultContainer.otherResult`), null when
 * none was cut (what live answers then is unknown).
 */
import type { NrqlLimits, NrqlResult } from '../types'
import type { NrqlQuery } from './ast'
import type { Cells, Layout } from './layout'
import type { AttributeValue } from './attributes'
import { compareValues } from './compare'
import { FACET_LIMIT_DEFAULT } from './parser'
import type { Evaluate } from './select'
import type { QueryWindow } from './window'

export interface Group {
  facet: AttributeValue[]
  cells: Cells
}

interface ShapeInput {
  query: NrqlQuery
  keys: string[]
  window: QueryWindow
  layout: Layout
  items: Evaluate[]
  groups: Group[]
  limits: NrqlLimits
}

type Row = Record<string, unknown>

export function shapeResult(input: ShapeInput): NrqlResult {
  const { query, keys, window, layout, items, groups, limits } = input
  const span = window.end - window.begin
  const values = (cells: Cells, c: number, duration: number): Row => {
    const row: Row = {}
    items.forEach((item, i) => (row[keys[i]!] = item(cells, c, duration)))
    return row
  }
  /** One row per bucket (TIMESERIES) or the single whole-window row. */
  const series = (cells: Cells, head: Row): Row[] =>
    query.timeseries === null
      ? [{ ...head, ...values(cells, 0, span) }]
      : window.buckets.map((b, c) => ({
          ...head,
          beginTimeSeconds: b.begin / 1000,
          endTimeSeconds: b.end / 1000,
          ...values(cells, c, b.end - b.begin),
        }))
  const metadata = {
    eventTypes: ['Metric'],
    facets: query.facet === null ? null : [...query.facet],
    messages: [],
    timeWindow: {
      begin: window.begin,
      end: window.end,
      since: window.sinceText,
      until: window.untilText,
      compareWith: null,
    },
  }
  if (query.facet === null) {
    const results = series(groups[0]!.cells, {})
    return { results, metadata, totalResult: null, otherResult: null }
  }
  const facet = query.facet
  const cellCount = window.buckets.length
  const total = layout.cells(cellCount)
  const ranked = groups.map((g) => {
    for (let c = 0; c < cellCount; c++) layout.mergeInto(total, c, g.cells, c)
    let whole = g.cells
    if (cellCount > 1) {
      whole = layout.cells(1)
      for (let c = 0; c < cellCount; c++) layout.mergeInto(whole, 0, g.cells, c)
    }
    return { group: g, rank: rankOf(items[0]!(whole, 0, span)) }
  })
  ranked.sort((a, b) => compareRank(a.rank, b.rank) || compareFacets(a.group, b.group))
  const asked = query.limit === 'MAX' ? limits.limitMax : (query.limit ?? FACET_LIMIT_DEFAULT)
  const limit = Math.min(asked, limits.limitMax)
  const results = ranked.slice(0, limit).flatMap(({ group }) => {
    // Live NerdGraph: one attribute, `facet` and the attribute's own key; several, only `facet`, an
    // array in FACET order (NG-recorded: gripinvest/gi-analytics, test/fixtures/nerdgraph-recorded/).
    const head: Row =
      facet.length === 1
        ? { facet: group.facet[0], [facet[0]!]: group.facet[0] }
        : { facet: group.facet }
    if (limits.everyFacetKey) facet.forEach((name, i) => (head[name] = group.facet[i]))
    return series(group.cells, head)
  })
  const totals = series(total, {})
  const totalResult = query.timeseries === null ? totals[0]! : totals
  const cut = ranked.slice(limit)
  if (cut.length === 0) return { results, metadata, totalResult, otherResult: null }
  const other = layout.cells(cellCount)
  for (const { group } of cut)
    for (let c = 0; c < cellCount; c++) layout.mergeInto(other, c, group.cells, c)
  const others = series(other, {})
  const otherResult = query.timeseries === null ? others[0]! : others
  return { results, metadata, totalResult, otherResult }
}

/** Numbers rank as themselves, apdex by its score; anything else ranks as null. */
function rankOf(value: unknown): number | null {
  if (typeof value === 'number') return value
  if (value !== null && typeof value === 'object' && 'score' in value) {
    return typeof value.score === 'number' ? value.score : null
  }
  return null
}

function compareRank(a: number | null, b: number | null): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return b - a
}

function compareFacets(a: Group, b: Group): number {
  for (let i = 0; i < a.facet.length; i++) {
    const d = compareValues(a.facet[i] ?? null, b.facet[i] ?? null)
    if (d !== 0) return d
  }
  return 0
}

/**
 * @module resources/metrics/reshape
 * NerdGraph NRQL results → the v2 `metric_data` body (D-extract), pure. `shapeMetricData` groups
 * the rows once; the v2 object (for XML) and the JSON text (src/resources/metrics/json.ts) are both written
 * from that.
 */
import { withJsonWriter } from '../../http/render/json'
import { formatTime, slicesOf } from '../../core/time-range'
import type { MetricDataData } from './documents'
import { writeMetricDataJson, type ShapedMetricData } from './json'
import type { MetricDataPlan, ValueRead } from './plan'
import { readersOf, sliceValues } from './read'
import { facetAt, facetPosition } from '../../upstream/nrql-rows'

type Row = Record<string, unknown>

export type { ShapedMetricData }

/** Found: data in the range, or a metric name of the scope (then every slice is zero, D-extract). */
export function shapeMetricData(plan: MetricDataPlan, data: MetricDataData): ShapedMetricData {
  const rowsByName = groupRows(plan, data)
  const known = plan.known ?? knownNames(plan, data)
  const notFound: string[] = []
  const found: ShapedMetricData['found'] = []
  for (const m of plan.metrics) {
    const rows = rowsByName.get(m.name)
    if (rows || known.has(m.name))
      found.push({ name: m.name, readers: readersOf(m.values, plan.raw), rows: rows ?? [] })
    else notFound.push(m.name)
  }
  const slices = slicesOf(plan.range).map((s) => ({
    from: formatTime(s.from),
    to: formatTime(s.to),
  }))
  const { from, to } = plan.range
  const others = plan.othersNrql === null ? [] : slotted(plan, data.actor.account?.['others'])
  return { from: formatTime(from), to: formatTime(to), notFound, found, others, slices }
}

/**
 * `{ metric_data: { from, to, metrics_not_found, metrics_found, metrics } }` in v2's key order.
 * `metrics` is built when first read (the XML renderer, tests); the JSON renderer writes the text
 * straight from the shaped rows instead (src/resources/metrics/json.ts).
 */
export function toV2MetricData(
  plan: MetricDataPlan,
  data: MetricDataData
): Record<string, unknown> {
  const shaped = shapeMetricData(plan, data)
  let metrics: ReturnType<typeof v2Metrics> | undefined
  const body = {
    metric_data: {
      from: shaped.from,
      to: shaped.to,
      metrics_not_found: shaped.notFound,
      metrics_found: shaped.found.map((m) => m.name),
      get metrics() {
        return (metrics ??= v2Metrics(shaped))
      },
    },
  }
  return withJsonWriter(body, (sink) => writeMetricDataJson(shaped, sink))
}

function v2Metrics({ found, others, slices }: ShapedMetricData) {
  return found.map(({ name, readers, rows }) => ({
    name,
    timeslices: slices.map((slice, i) => ({
      from: slice.from,
      to: slice.to,
      values: sliceValues(readers, rows[i], others[i]),
    })),
  }))
}

/** The names the `k…` aliases list (each a `uniques()` row `{ names: [...] }`). */
function knownNames(plan: MetricDataPlan, data: MetricDataData): Set<string> {
  const out = new Set<string>()
  plan.knownNrql.forEach((_, k) => {
    const list = data.actor.account?.[`k${k}`]?.results?.[0]?.['names']
    if (Array.isArray(list)) for (const n of list) if (typeof n === 'string') out.add(n)
  })
  return out
}

/** Facet rows per metric name, placed at their slice index (a summarized call has one slice). The
 * name is read by its position in `metadata.facets` (src/upstream/nrql-rows.ts). */
function groupRows(plan: MetricDataPlan, data: MetricDataData): Map<string, (Row | undefined)[]> {
  const out = new Map<string, (Row | undefined)[]>()
  for (let q = 0; q < plan.nrql.length; q++) {
    const field = data.actor.account?.[`q${q}`]
    const position = facetPosition(field?.metadata, 'metricTimesliceName')
    for (const row of field?.results ?? []) {
      const name = facetAt(row, position)
      if (typeof name !== 'string') continue
      let slots = out.get(name)
      if (!slots) out.set(name, (slots = []))
      place(plan, slots, row)
    }
  }
  return out
}

/** The rows of the `others` alias at their slice index. */
function slotted(plan: MetricDataPlan, field: { results: Row[] | null } | null | undefined) {
  const slots: (Row | undefined)[] = []
  for (const row of field?.results ?? []) place(plan, slots, row)
  return slots
}

function place({ range }: MetricDataPlan, slots: (Row | undefined)[], row: Row): void {
  const index = sliceIndex(range, row)
  if (index >= 0) slots[index] = row
}

/** The slice of `range` a row answers: its TIMESERIES bucket's `beginTimeSeconds` (epoch seconds,
 * NG-recorded), or 0 for a summarized call's one row. */
export function sliceIndex(range: MetricDataPlan['range'], row: Row): number {
  const begin = row['beginTimeSeconds']
  return range.summarize || typeof begin !== 'number'
    ? 0
    : Math.round((begin * 1000 - range.start) / range.sliceMs)
}

/**
 * The `values` object of one timeslice, in family order. A slice without data answers 0, as v2 does
 * for metrics that stopped reporting (D-extract). Counts are exact; the rest is rounded
 * to about 3 significant digits unless `raw=true` (src/core/numbers.ts).
 */
export function valuesOf(reads: readonly ValueRead[], row: Row | undefined, raw: boolean) {
  return sliceValues(readersOf(reads, raw), row)
}

/**
 * @module metrics/reshape
 * NerdGraph NRQL results → the v2 `metric_data` body (contract §2.5), pure.
 */
import { formulas, type InputName, type Inputs } from '../../mappings/value-types'
import { round3 } from '../numbers'
import { formatTime, slicesOf } from '../time-range'
import type { MetricDataData } from './documents'
import type { MetricDataPlan, ValueRead } from './plan'

type Row = Record<string, unknown>

/** Builds `{ metric_data: { from, to, metrics_not_found, metrics_found, metrics } }` in v2's key order. */
export function toV2MetricData(plan: MetricDataPlan, data: MetricDataData): Record<string, unknown> {
  const rowsByName = groupRows(plan, data)
  const slices = slicesOf(plan.range)
  const found = plan.metrics.filter((m) => rowsByName.has(m.name))
  const metrics = found.map((m) => {
    const rows = rowsByName.get(m.name)!
    return {
      name: m.name,
      timeslices: slices.map((slice, i) => ({
        from: formatTime(slice.from),
        to: formatTime(slice.to),
        values: valuesOf(m.values, rows[i], plan.raw),
      })),
    }
  })
  return {
    metric_data: {
      from: formatTime(plan.range.from),
      to: formatTime(plan.range.to),
      metrics_not_found: plan.metrics.filter((m) => !rowsByName.has(m.name)).map((m) => m.name),
      metrics_found: found.map((m) => m.name),
      metrics,
    },
  }
}

/** Facet rows per metric name, placed at their slice index (a summarized call has one slice). */
function groupRows(plan: MetricDataPlan, data: MetricDataData): Map<string, (Row | undefined)[]> {
  const { start, sliceMs, summarize } = plan.range
  const out = new Map<string, (Row | undefined)[]>()
  plan.nrql.forEach((_, q) => {
    for (const row of data.actor.account?.[`q${q}`]?.results ?? []) {
      const name = row['metricTimesliceName'] ?? row['facet']
      if (typeof name !== 'string') continue
      const slots = out.get(name) ?? []
      out.set(name, slots)
      const begin = row['beginTimeSeconds']
      const index = summarize || typeof begin !== 'number' ? 0 : Math.round((begin * 1000 - start) / sliceMs)
      if (index >= 0) slots[index] = row
    }
  })
  return out
}

/**
 * The `values` object of one timeslice, in family order. A slice without data answers 0, as v2 does
 * for metrics that stopped reporting (contract §2.5, D-extract). Counts are exact; the rest is rounded
 * to about 3 significant digits unless `raw=true` (contract §1.10).
 */
export function valuesOf(reads: readonly ValueRead[], row: Row | undefined, raw: boolean) {
  const values: Record<string, number> = {}
  for (const read of reads) {
    const v = readValue(read, row) ?? 0
    values[read.value] = raw || read.count ? v : round3(v)
  }
  return values
}

function readValue(read: ValueRead, row: Row | undefined): number | null {
  if (row === undefined) return null
  if ('alias' in read) return numberOf(row[read.alias])
  const inputs = { count: 0, total: 0, totalExclusive: 0, sumOfSquares: 0 } satisfies Inputs
  for (const [input, alias] of Object.entries(read.inputs) as [InputName, string][]) {
    inputs[input] = numberOf(row[alias]) ?? 0
  }
  return formulas[read.formula](inputs)
}

function numberOf(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null
}

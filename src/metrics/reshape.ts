/**
 * @module metrics/reshape
 * NerdGraph NRQL results → the v2 `metric_data` body (D-extract), pure.
 */
import { formulas, type InputName, type Inputs } from '../../mappings/value-types'
import { round3 } from '../numbers'
import { formatTime, slicesOf } from '../time-range'
import type { MetricDataData } from './documents'
import type { MetricDataPlan, ValueRead } from './plan'

type Row = Record<string, unknown>

/** Builds `{ metric_data: { from, to, metrics_not_found, metrics_found, metrics } }` in v2's key order. */
export function toV2MetricData(
  plan: MetricDataPlan,
  data: MetricDataData
): Record<string, unknown> {
  const rowsByName = groupRows(plan, data)
  const known = plan.known ?? knownNames(plan, data)
  const slices = slicesOf(plan.range).map((s) => ({
    from: formatTime(s.from),
    to: formatTime(s.to),
  }))
  // Found: data in the range, or a metric name of the scope (then every slice is zero, D-extract).
  const isFound = (name: string) => rowsByName.has(name) || known.has(name)
  const found = plan.metrics.filter((m) => isFound(m.name))
  const metrics = found.map((m) => {
    const rows = rowsByName.get(m.name) ?? []
    const values = compile(m.values, plan.raw)
    return {
      name: m.name,
      timeslices: slices.map((slice, i) => ({
        from: slice.from,
        to: slice.to,
        values: values(rows[i]),
      })),
    }
  })
  return {
    metric_data: {
      from: formatTime(plan.range.from),
      to: formatTime(plan.range.to),
      metrics_not_found: plan.metrics.filter((m) => !isFound(m.name)).map((m) => m.name),
      metrics_found: found.map((m) => m.name),
      metrics,
    },
  }
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
      const index =
        summarize || typeof begin !== 'number' ? 0 : Math.round((begin * 1000 - start) / sliceMs)
      if (index >= 0) slots[index] = row
    }
  })
  return out
}

/**
 * The `values` object of one timeslice, in family order. A slice without data answers 0, as v2 does
 * for metrics that stopped reporting (D-extract). Counts are exact; the rest is rounded
 * to about 3 significant digits unless `raw=true` (src/numbers.ts).
 */
export function valuesOf(reads: readonly ValueRead[], row: Row | undefined, raw: boolean) {
  return compile(reads, raw)(row)
}

/** The readers of one metric's values, built once and applied to each of its slices. */
function compile(reads: readonly ValueRead[], raw: boolean) {
  const readers = reads.map((read) => {
    const get = reader(read)
    const exact = raw || read.count
    return [read.value, (row: Row) => (exact ? (get(row) ?? 0) : round3(get(row) ?? 0))] as const
  })
  return (row: Row | undefined) => {
    const values: Record<string, number> = {}
    for (const [name, read] of readers) values[name] = row === undefined ? 0 : read(row)
    return values
  }
}

function reader(read: ValueRead): (row: Row) => number | null {
  if ('alias' in read) {
    const { alias, scale = [] } = read
    return (row) => scale.reduce<number | null>((n, f) => n && n * f, numberOf(row[alias]))
  }
  const inputs = Object.entries(read.inputs) as [InputName, string][]
  const formula = formulas[read.formula]
  return (row) => {
    const values: Inputs = { count: 0, total: 0, totalExclusive: 0, sumOfSquares: 0 }
    for (const [input, alias] of inputs) values[input] = numberOf(row[alias]) ?? 0
    return formula(values)
  }
}

function numberOf(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null
}

/**
 * @module simulator/v2/apm-metrics — metric names and metric data of an application, one of its hosts
 * or one instance, computed from the raw timeslices (`dataset.timeslices`), never through NRQL:
 * names with their value lists (1,000 a page, `name` a substring match, New Relic docs "List your
 * app ID and metric timeslice data"), and data by the grid of apm-time.ts and the values of
 * apm-values.ts, `metrics_found`/`metrics_not_found` always present (200 even when nothing is
 * found, as since March 2016), key order as New Relic docs "Extract metric timeslice data" prints it.
 * Source tags (D-…, TONS, AMB) as docs/sources.md lists them.
 */
import type { Hono } from 'hono'
import type { Dataset } from '../data/dataset'
import {
  add,
  emptySums,
  merge,
  listedValues,
  OTHER_METRICS,
  readsOthers,
  valuesOf,
  type Others,
  type Sums,
} from './apm-values'
import { formatTime, gridOf, type Grid } from './apm-time'
import { namesOf, scopeOf, type Scope } from './apm-scope'
import { answer, error, param, flag, listOf, page, params, type C, type Env } from './respond'

const NAMES_PAGE = 1000 // New Relic docs "Pagination for API output" (older copy): metric names

async function metricNames(dataset: Dataset, c: C) {
  const scope = scopeOf(dataset, c)
  if ('error' in scope) return error(c, 404, scope.error)
  const p = await params(c)
  const filter = param(p, 'name')?.toLowerCase() ?? ''
  const names = namesOf(scope)
    .filter((n) => n.toLowerCase().includes(filter))
    .sort()
  const { items, headers } = page(c, p, names, NAMES_PAGE)
  return answer(
    c,
    { metrics: items.map((name) => ({ name, values: listedValues(name) })) },
    200,
    headers
  )
}

const HOUR = 3_600_000

/** Σ of one metric's unscoped rows in each slice of the grid (rows of the scope only), and the
 * minutes each Σ covers. On hourly data (a range starting more than 8 days ago) a slice sums the
 * hours that start in it; a slice shorter than the hour takes the hour it starts in, repeated in the
 * next slices as D-extract warns ("oversampling … duplicate values returned"). */
function slices(dataset: Dataset, scope: Scope, name: string, grid: Grid) {
  const { starts, step, hourly } = grid
  const rollup = hourly ? HOUR : 60_000
  const begin = Math.floor(starts[0]! / rollup) * rollup
  const rows = dataset.timeslices({
    appId: scope.app.id,
    name,
    ...(scope.host === undefined ? {} : { host: scope.host }),
    ...(scope.instance ? { instanceName: scope.instance.instanceName } : {}),
    from: begin,
    to: starts[0]! + starts.length * step,
    ...(hourly ? { rollupMs: HOUR } : {}),
  })
  const byRollup = new Map<number, Sums>()
  for (const row of rows) {
    let s = byRollup.get(row.timestamp)
    if (!s) byRollup.set(row.timestamp, (s = emptySums()))
    add(s, row.value)
  }
  const sums: Sums[] = []
  const minutes: number[] = []
  for (const start of starts) {
    const out = emptySums()
    let covered = 0
    for (let t = Math.ceil(start / rollup) * rollup; t < start + step; t += rollup) {
      const s = byRollup.get(t)
      if (s) merge(out, s)
      covered += rollup
    }
    if (covered === 0) {
      const s = byRollup.get(Math.floor(start / rollup) * rollup)
      if (s) merge(out, s)
      covered = rollup
    }
    sums.push(out)
    minutes.push((hourly ? covered : step) / 60_000)
  }
  return { sums, minutes }
}

async function metricData(dataset: Dataset, c: C) {
  const scope = scopeOf(dataset, c)
  if ('error' in scope) return error(c, 404, scope.error)
  const p = await params(c)
  // `name` on a data call: New Relic docs' mobile crash example sends it (D-mobile); read as names[].
  const names = [...(p.get('names') ?? []), ...(p.get('name') ?? [])]
    .flatMap((n) => n.split('\n'))
    .filter((n) => n.trim())
  if (names.length === 0) return error(c, 400, 'missing parameter: names')
  const grid = gridOf(
    { from: param(p, 'from'), to: param(p, 'to'), period: param(p, 'period') },
    dataset.now()
  )
  if ('error' in grid) return error(c, 422, grid.error)
  const asked = listOf(p, 'values')
  const raw = flag(p, 'raw')
  const summarize = flag(p, 'summarize')
  const known = new Set(namesOf(scope))
  const found = [...new Set(names)].filter((n) => known.has(n))
  // The scope's EndUser/errors and Browser counts per slice, for EndUser error_percentage.
  const other = found.some(readsOthers)
    ? ([
        slices(dataset, scope, OTHER_METRICS.endUserErrors, grid).sums,
        slices(dataset, scope, OTHER_METRICS.pageViews, grid).sums,
      ] as const)
    : undefined
  const othersOf = (errors: Sums | undefined, views: Sums | undefined): Others => ({
    endUserErrors: errors?.count ?? 0,
    pageViews: views?.count ?? 0,
  })
  const metrics = found.map((name) => {
    const { sums, minutes } = slices(dataset, scope, name, grid)
    const timeslices = summarize
      ? [
          {
            from: formatTime(grid.starts[0]!),
            to: formatTime(grid.starts[0]! + grid.starts.length * grid.step),
            values: valuesOf(
              name,
              total(sums),
              minutes.reduce((a, b) => a + b, 0),
              asked,
              raw,
              othersOf(other && total(other[0]), other && total(other[1]))
            ),
          },
        ]
      : grid.starts.map((start, i) => ({
          from: formatTime(start),
          to: formatTime(start + grid.step),
          values: valuesOf(
            name,
            sums[i]!,
            minutes[i]!,
            asked,
            raw,
            othersOf(other?.[0][i], other?.[1][i])
          ),
        }))
    return { name, timeslices }
  })
  return answer(c, {
    metric_data: {
      from: formatTime(grid.from),
      to: formatTime(grid.to),
      metrics_not_found: [...new Set(names)].filter((n) => !known.has(n)),
      metrics_found: found,
      metrics,
    },
  })
}

function total(sums: Sums[]): Sums {
  const out = emptySums()
  for (const s of sums) merge(out, s)
  return out
}

/** Names and data under the app, a host and an instance; GET, and POST read as GET (clients do). */
export function metricRoutes(app: Hono<Env>, dataset: Dataset): void {
  for (const base of [
    '/applications/:application_id',
    '/applications/:application_id/hosts/:host_id',
    '/applications/:application_id/instances/:instance_id',
  ]) {
    app.on(['GET', 'POST'], `${base}/metrics`, (c) => metricNames(dataset, c))
    app.on(['GET', 'POST'], `${base}/metrics/data`, (c) => metricData(dataset, c))
  }
}

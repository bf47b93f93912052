/**
 * @module simulator/v2/mobile-metrics — metric names and metric data of a mobile application
 * (explorer mobile_applications: `…/metrics` with `name`, `page`; `…/metrics/data` with `names[]`,
 * `values[]`, `from`, `to`, `period`, `summarize`, `raw`), computed from the app's raw minutes
 * (`mobileMinute`), never through NRQL. The grid, the value definitions and the answer's layout are
 * the APM metric ones (apm-time.ts, apm-values.ts, apm-metrics.ts); New Relic docs "Mobile
 * monitoring: REST API v2 examples" call the data endpoint with `name=` as well as `names[]=`.
 */
import type { Hono } from 'hono'
import type { Dataset } from '../data/dataset'
import { MINUTE } from '../data/apm/timeslices'
import type { MobileApp } from '../data/resources/catalog'
import { MOBILE_METRICS, mobileMinute } from '../data/resources/rows'
import { formatTime, gridOf } from './apm-time'
import {
  add,
  emptySums,
  listedValues as apmListed,
  merge,
  valuesOf as apmValues,
  type Sums,
} from './apm-values'
import { answer, error, param, flag, listOf, page, params, type C, type Env } from './respond'

/** As APM metric names (New Relic docs "Pagination for API output", older copy). */
const NAMES_PAGE = 1000
const NOT_FOUND = 'No Mobile Application found with the given ID'

/** Values of the mobile families (`Mobile/*`, `Session/*`): New Relic docs "Mobile monitoring: REST
 * API v2 examples" (`values[]=call_count`) and "Migrate metric timeslice queries to NRQL" (mobile
 * value names). Counts are exact; the dataset records no bytes, so those answer 0 (docs "Extract
 * metric timeslice data": data not collected "will return a zero value"). */
const MOBILE_VALUES: Record<string, (s: Sums) => number> = {
  call_count: (s) => s.count,
  launch_count: (s) => s.count,
  average_sent_bytes: () => 0,
  average_received_bytes: () => 0,
}
const mobileFamily = (name: string) => name.startsWith('Mobile/') || name.startsWith('Session/')
const listedValues = (name: string) =>
  mobileFamily(name) ? Object.keys(MOBILE_VALUES) : apmListed(name)
function valuesOf(name: string, s: Sums, minutes: number, asked: string[], raw: boolean) {
  if (!mobileFamily(name)) return apmValues(name, s, minutes, asked, raw)
  const keys = Object.keys(MOBILE_VALUES).filter((k) => asked.length === 0 || asked.includes(k))
  return Object.fromEntries(keys.map((k) => [k, MOBILE_VALUES[k]!(s)]))
}

function mobileOf(dataset: Dataset, c: C): MobileApp | undefined {
  const id = c.req.param('mobile_application_id')
  return dataset.resources
    .mobile()
    .find((m) => String(m.id) === id && m.accountId === c.get('accountId'))
}

/** Names a mobile app reports: none when it never reported. */
const namesOf = (app: MobileApp): string[] => (app.reporting ? [...MOBILE_METRICS] : [])

/** Σ of one metric's minutes in each slice, within the dataset's window. */
function slices(dataset: Dataset, app: MobileApp, name: string, starts: number[], step: number) {
  const sums: Sums[] = starts.map(emptySums)
  const { start, end } = dataset.window()
  const begin = Math.max(starts[0]!, start)
  const stop = Math.min(starts[0]! + starts.length * step, end)
  for (let t = begin; t < stop; t += MINUTE) {
    const v = mobileMinute(app, t / MINUTE).get(name)
    const s = sums[Math.floor((t - starts[0]!) / step)]
    if (v && s) add(s, v)
  }
  return sums
}

export function mobileMetricRoutes(app: Hono<Env>, dataset: Dataset): void {
  const base = '/mobile_applications/:mobile_application_id'
  app.on(['GET', 'POST'], `${base}/metrics`, async (c) => {
    const mobile = mobileOf(dataset, c)
    if (!mobile) return error(c, 404, NOT_FOUND)
    const p = await params(c)
    const filter = param(p, 'name')?.toLowerCase() ?? ''
    const names = namesOf(mobile)
      .filter((n) => n.toLowerCase().includes(filter))
      .sort()
    const { items, headers } = page(c, p, names, NAMES_PAGE)
    const metrics = items.map((name) => ({ name, values: listedValues(name) }))
    return answer(c, { metrics }, 200, headers)
  })
  app.on(['GET', 'POST'], `${base}/metrics/data`, async (c) => {
    const mobile = mobileOf(dataset, c)
    if (!mobile) return error(c, 404, NOT_FOUND)
    const p = await params(c)
    const names = [...new Set([...(p.get('names') ?? []), ...(p.get('name') ?? [])])]
      .map((n) => n.trim())
      .filter(Boolean)
    if (names.length === 0) return error(c, 400, 'missing parameter: names')
    const q = { from: param(p, 'from'), to: param(p, 'to'), period: param(p, 'period') }
    const grid = gridOf(q, dataset.now())
    if ('error' in grid) return error(c, 422, grid.error)
    const asked = listOf(p, 'values')
    const raw = flag(p, 'raw')
    const known = new Set(namesOf(mobile))
    const found = names.filter((n) => known.has(n))
    const minutes = grid.step / MINUTE
    const metrics = found.map((name) => {
      const sums = slices(dataset, mobile, name, grid.starts, grid.step)
      if (flag(p, 'summarize')) {
        const all = emptySums()
        for (const s of sums) merge(all, s)
        const to = grid.starts[0]! + grid.starts.length * grid.step
        const values = valuesOf(name, all, minutes * grid.starts.length, asked, raw)
        return {
          name,
          timeslices: [{ from: formatTime(grid.starts[0]!), to: formatTime(to), values }],
        }
      }
      const timeslices = grid.starts.map((start, i) => ({
        from: formatTime(start),
        to: formatTime(start + grid.step),
        values: valuesOf(name, sums[i]!, minutes, asked, raw),
      }))
      return { name, timeslices }
    })
    return answer(c, {
      metric_data: {
        from: formatTime(grid.from),
        to: formatTime(grid.to),
        metrics_not_found: names.filter((n) => !known.has(n)),
        metrics_found: found,
        metrics,
      },
    })
  })
}

/**
 * @module bench/metric-data
 * Cost of v2bridge's own work on a metric-data call (plan + reshape, no I/O) for a typical large
 * call: MRF's 10 names with every value, a 60-slice series. Run: `npx tsx bench/metric-data.ts`.
 */
import type { MetricDataData } from '../src/resources/metrics/documents'
import { planMetricData } from '../src/resources/metrics/plan'
import { toV2MetricData } from '../src/resources/metrics/reshape'
import { renderJsonBytes } from '../src/http/render/json'
import { renderXml } from '../src/http/render/xml'
import { resolveTimeRange } from '../src/core/time-range'
import { tenNames } from './cases'

const now = Date.UTC(2026, 0, 15, 12)
const names = tenNames
const range = resolveTimeRange(
  { from: '2026-01-15T10:00:00Z', to: '2026-01-15T11:00:00Z', summarize: false },
  now
)
const scope = { accountId: 1, guid: 'GUID' }

const plan = planMetricData({ now: 0, names, values: null, range, raw: false }, scope)
const aliases = [...plan.nrql[0]!.matchAll(/ AS '([^']+)'/g)].map((m) => m[1]!)
const results = names.flatMap((name) =>
  Array.from({ length: 60 }, (_, i) => ({
    facet: name,
    metricTimesliceName: name,
    beginTimeSeconds: (range.start + i * 60_000) / 1000,
    endTimeSeconds: (range.start + (i + 1) * 60_000) / 1000,
    ...Object.fromEntries(aliases.map((a, k) => [a, 1 + ((i * 31 + k * 17) % 97) / 7])),
  }))
)
const metadata = { facets: ['metricTimesliceName'] }
const data: MetricDataData = { actor: { account: { q0: { results, metadata } } } }

function time(label: string, n: number, fn: () => unknown) {
  for (let i = 0; i < Math.min(n, 200); i++) fn()
  const t = performance.now()
  for (let i = 0; i < n; i++) fn()
  const ms = (performance.now() - t) / n
  console.log(
    `${label.padEnd(36)} ${(ms * 1000).toFixed(1).padStart(8)} µs/call  ${Math.round(1000 / ms)} calls/s`
  )
}

console.log(
  `${names.length} names, ${aliases.length} NRQL select items, ${results.length} result rows`
)
time('plan (10 names, all values)', 20_000, () =>
  planMetricData({ now: 0, names, values: null, range, raw: false }, scope)
)
time('reshape + JSON (10 names × 60 slices)', 2_000, () =>
  renderJsonBytes(toV2MetricData(plan, data))
)
time('reshape + XML', 500, () => renderXml(toV2MetricData(plan, data)))

/**
 * @module bench/nrql-eval
 * Micro-benchmark of the NRQL evaluator over a synthetic 2M-row store (a week of one-minute rows
 * for 10 names × 20 instances). Run: `npx tsx bench/nrql-eval.ts`.
 */
import { runNrql, type MetricRow, type MetricStore, type ScanHint } from '../simulator'

const MIN = 60_000
const NAMES = Array.from({ length: 10 }, (_, i) => `WebTransaction/Controller/c${i}`)
const HOSTS = Array.from({ length: 20 }, (_, i) => `host-${i}`)
const MINUTES = 10_080
const END = Date.UTC(2024, 0, 8)
const BEGIN = END - MINUTES * MIN

/** Yields rows in time order, reusing one row object (the evaluator keeps no row references). */
class SyntheticStore implements MetricStore {
  scan(_hint: ScanHint): Iterable<MetricRow> {
    const row: MetricRow = {
      timestamp: BEGIN,
      accountId: 1,
      appId: 42,
      appName: 'bench',
      entityGuid: 'GUID-42',
      metricTimesliceName: '',
      host: '',
      instanceName: '',
      scope: null,
      value: { count: 0, total: 0, totalExclusive: 0, min: 0, max: 0, sumOfSquares: 0 },
    }
    const perMinute = NAMES.length * HOSTS.length
    const total = perMinute * MINUTES
    let i = 0
    const done = { done: true as const, value: undefined }
    const result = { done: false as const, value: row }
    return {
      [Symbol.iterator]: () => ({
        next: () => {
          if (i >= total) return done
          const k = i % perMinute
          row.timestamp = BEGIN + Math.floor(i / perMinute) * MIN
          row.metricTimesliceName = NAMES[k % NAMES.length]!
          row.host = HOSTS[Math.floor(k / NAMES.length)]!
          row.instanceName = `${row.host}:8080`
          const c = 1 + (i % 7)
          row.value.count = c
          row.value.total = c * 0.1
          row.value.totalExclusive = c * 0.08
          row.value.min = 0.05
          row.value.max = 0.3
          row.value.sumOfSquares = c * 0.02
          i++
          return result
        },
      }),
    }
  }
}

const V = 'newrelic.timeslice.value'
const WINDOW = `SINCE ${BEGIN} UNTIL ${END}`
const QUERIES = [
  `SELECT count(${V}) FROM Metric WHERE appId = 42 ${WINDOW}`,
  `SELECT average(${V}), max(${V}), rate(count(${V}), 1 minute) FROM Metric WHERE appId = 42 ${WINDOW}`,
  `SELECT average(${V}['totalExclusive'] / ${V}['count']) FROM Metric WHERE appId = 42 ${WINDOW}`,
  `SELECT count(${V}), average(${V}) FROM Metric WHERE appId = 42 FACET metricTimesliceName ${WINDOW}`,
  `SELECT count(${V}) FROM Metric WHERE appId = 42 TIMESERIES 30 minutes ${WINDOW}`,
  `SELECT count(${V}) FROM Metric WHERE appId = 42 AND metricTimesliceName LIKE 'Web%' FACET host TIMESERIES 1 hour ${WINDOW}`,
]

const store = new SyntheticStore()
const rows = NAMES.length * HOSTS.length * MINUTES
for (const query of QUERIES) {
  runNrql(query, { accountId: 1, store, now: END })
  const start = performance.now()
  runNrql(query, { accountId: 1, store, now: END })
  const seconds = (performance.now() - start) / 1000
  const rate = Math.round(rows / seconds).toLocaleString('en-US')
  console.log(`${rate.padStart(12)} rows/s  ${query.replace(WINDOW, '').slice(0, 110)}`)
}

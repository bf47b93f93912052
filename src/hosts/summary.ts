/**
 * @module hosts/summary
 * Per-instance figures for v2 host and instance summaries (contract §2.6, §2.7) from one NRQL
 * faceted by host and instance, over the summary window. Sums are fetched, not averages, so host
 * figures can be folded from their instances exactly.
 */
import { quote } from '../nrql'
import { round3 } from '../numbers'

/** Transaction rollups whose calls v2 summaries count (D-errrate: error rate =
 * 100 × Errors/all:error_count / (HttpDispatcher + OtherTransaction/all) call counts). */
const transactionNames = ['HttpDispatcher', 'OtherTransaction/all']

export function instanceSummaryNrql(guid: string, window: [number, number]): string {
  const tx = `WHERE metricTimesliceName IN (${transactionNames.map((n) => quote(n)).join(', ')})`
  const apdex = `WHERE metricTimesliceName = 'Apdex'`
  const v = 'newrelic.timeslice.value'
  return (
    `SELECT filter(count(${v}), ${tx}) AS 'calls', filter(sum(${v}), ${tx}) AS 'time', ` +
    `filter(count(${v}), WHERE metricTimesliceName = 'Errors/all') AS 'errors', ` +
    `filter(count(${v}), ${apdex}) AS 's', filter(sum(${v}), ${apdex}) AS 't', ` +
    `filter(sum(${v}['totalExclusive']), ${apdex}) AS 'f' ` +
    `FROM Metric WHERE entity.guid = ${quote(guid)} AND scope IS NULL AND metricTimesliceName IN ` +
    `('HttpDispatcher', 'OtherTransaction/all', 'Errors/all', 'Apdex') ` +
    `FACET host, instanceName SINCE ${window[0]} UNTIL ${window[1]} LIMIT MAX`
  )
}

export interface Sums {
  calls: number
  time: number
  errors: number
  s: number
  t: number
  f: number
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/** Pure: result rows → sums per `host\0instanceName`. */
export function sumsByInstance(rows: readonly Record<string, unknown>[]): Map<string, Sums> {
  const out = new Map<string, Sums>()
  for (const r of rows) {
    if (typeof r['host'] !== 'string' || typeof r['instanceName'] !== 'string') continue
    out.set(`${r['host']}\u0000${r['instanceName']}`, {
      calls: num(r['calls']),
      time: num(r['time']),
      errors: num(r['errors']),
      s: num(r['s']),
      t: num(r['t']),
      f: num(r['f']),
    })
  }
  return out
}

export function addSums(list: readonly Sums[]): Sums | undefined {
  if (list.length === 0) return undefined
  return list.reduce((a, b) => ({
    calls: a.calls + b.calls,
    time: a.time + b.time,
    errors: a.errors + b.errors,
    s: a.s + b.s,
    t: a.t + b.t,
    f: a.f + b.f,
  }))
}

/** v2 units: response time in ms, throughput per minute, error rate in percent, apdex score. */
export function v2Summary(sums: Sums, windowMinutes: number, instanceCount: number) {
  const answered = sums.s + sums.t + sums.f
  return {
    response_time: sums.calls > 0 ? round3((sums.time / sums.calls) * 1000) : 0,
    throughput: round3(sums.calls / windowMinutes),
    error_rate: sums.calls > 0 ? round3((100 * sums.errors) / sums.calls) : 0,
    apdex_score: answered > 0 ? round3((sums.s + sums.t / 2) / answered) : 0,
    instance_count: instanceCount,
  }
}

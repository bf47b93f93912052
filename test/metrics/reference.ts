/**
 * The v2 meaning of every value type, computed straight from raw timeslice rows (not through NRQL and
 * not through v2bridge's tables): the ground truth of the fidelity tests. Each formula is written from
 * the v2 definition (D-extract; D-apdex; D-browser; D-hostex), per family.
 */

export interface RawRow {
  timestamp: number
  host: string
  instanceName: string
  count: number
  total: number
  totalExclusive: number
  min: number
  max: number
  sumOfSquares: number
}

/** The slice's rows of the other metrics EndUser `error_percentage` reads (D-nrql EndUser table:
 * `EndUser/errors` over `Browser`). */
export interface OtherRows {
  endUserErrors: RawRow[]
  pageViews: RawRow[]
}

/** What the v2 definitions need from the rows of one slice of `seconds` seconds. */
interface Slice {
  rows: RawRow[]
  seconds: number
  n: number
  total: number
  exclusive: number
  squares: number
  min: number
  max: number
  /** Σ count of EndUser/errors and of Browser in the slice. */
  errors: number
  views: number
}

const countOf = (rows: RawRow[]) => rows.reduce((a, r) => a + r.count, 0)

function slice(rows: RawRow[], seconds: number, others: OtherRows | undefined): Slice {
  const sum = (f: (r: RawRow) => number) => rows.reduce((a, r) => a + f(r), 0)
  return {
    rows,
    seconds,
    n: sum((r) => r.count),
    total: sum((r) => r.total),
    exclusive: sum((r) => r.totalExclusive),
    squares: sum((r) => r.sumOfSquares),
    min: Math.min(...rows.map((r) => r.min)),
    max: Math.max(...rows.map((r) => r.max)),
    errors: countOf(others?.endUserErrors ?? []),
    views: countOf(others?.pageViews ?? []),
  }
}

/** Values read from other metrics only: answered whether or not the metric has rows in the slice. */
const ofOtherMetrics = new Set(['error_percentage'])

const perMinute = (x: number, s: Slice) => x / (s.seconds / 60)
const per = (x: number, n: number) => (n > 0 ? x / n : 0)

/** Mean over the slice's minutes of the per-minute sum over every instance (v2 "total at a time"). */
function meanOfMinuteSums(s: Slice, f: (r: RawRow) => number): number {
  const byMinute = new Map<number, number>()
  for (const r of s.rows) byMinute.set(r.timestamp, (byMinute.get(r.timestamp) ?? 0) + f(r))
  const minutes = s.seconds / 60
  return [...byMinute.values()].reduce((a, b) => a + b, 0) / minutes
}

/** Mean of each row's per-call duration, weighted by calls: Σx / n, written call by call. */
const callMean = (s: Slice) => per(s.total, s.n)

const timeslice = {
  average_response_time: (s: Slice) => callMean(s) * 1000,
  calls_per_minute: (s: Slice) => perMinute(s.n, s),
  call_count: (s: Slice) => s.n,
  min_response_time: (s: Slice) => s.min * 1000,
  max_response_time: (s: Slice) => s.max * 1000,
  average_exclusive_time: (s: Slice) => per(s.exclusive, s.n) * 1000,
  average_value: (s: Slice) => callMean(s),
  total_call_time_per_minute: (s: Slice) => perMinute(s.total, s),
  requests_per_minute: (s: Slice) => perMinute(s.n, s),
  standard_deviation: (s: Slice) =>
    s.n > 0 ? Math.sqrt(Math.max(0, s.squares / s.n - callMean(s) ** 2)) * 1000 : 0,
  average_call_time: (s: Slice) => callMean(s) * 1000,
}

const generic = {
  average_time: (s: Slice) => callMean(s) * 1000,
  count: (s: Slice) => s.n,
  total_value: (s: Slice) => s.total,
  min_value: (s: Slice) => s.min,
  max_value: (s: Slice) => s.max,
  rate: (s: Slice) => s.total / s.seconds,
  throughput: (s: Slice) => s.n / s.seconds,
  as_percentage: (s: Slice) => callMean(s) * 100,
  total_time: (s: Slice) => s.total * 1000,
  sessions_active: (s: Slice) => callMean(s),
  total_visits: (s: Slice) => s.total,
  percent: (s: Slice) => callMean(s) * 100,
  time_percentage: (s: Slice) => (100 * s.total) / s.seconds,
  utilization: (s: Slice) => (100 * s.total) / s.seconds,
  visits_percentage: (s: Slice) => (100 * s.total) / s.seconds,
}

const apdexScore = (s: Slice) => {
  const [sat, tol, fru] = [s.n, s.total, s.exclusive]
  return sat + tol + fru > 0 ? (sat + tol / 2) / (sat + tol + fru) : 0
}

const network = (s: Slice) => s.total - s.exclusive - s.squares

/** family → value → v2 value of one slice. */
export const reference: Record<string, Record<string, (s: Slice) => number>> = {
  timeslice: { ...timeslice, ...generic },
  apdex: {
    s: (s) => s.n,
    t: (s) => s.total,
    f: (s) => s.exclusive,
    count: (s) => s.n + s.total + s.exclusive,
    score: apdexScore,
    value: apdexScore,
    threshold: (s) => s.max,
    threshold_min: (s) => s.min,
  },
  errors: {
    error_count: (s) => s.n,
    errors_per_minute: (s) => perMinute(s.n, s),
  },
  cpuUserTime: {
    // CPU seconds used per second of wall time, in %, summed over instances.
    percent: (s) => (meanOfMinuteSums(s, (r) => r.total) / 60) * 100,
    average_time: (s) => callMean(s) * 1000,
    total_time: (s) => s.total * 1000,
  },
  cpuUtilization: { percent: (s) => callMean(s) * 100 },
  gc: {
    as_percentage: (s) => callMean(s) * 100,
    average_time: (s) => callMean(s) * 1000,
    calls_per_minute: (s) => perMinute(s.n, s),
    max_value: (s) => s.max,
    total_call_time_per_minute: (s) => perMinute(s.total, s),
    utilization: (s) => (100 * s.total) / s.seconds,
  },
  memory: {
    // Mean of the per-instance samples (each row is one sample: count 1, total MB).
    used_mb_by_host: (s) => per(s.total, s.n),
    used_bytes_by_host: (s) => per(s.total, s.n) * 1024 * 1024,
    // The app's memory at a time: per-minute sum over instances, averaged over the minutes.
    total_used_mb: (s) => meanOfMinuteSums(s, (r) => r.total),
  },
  endUser: {
    average_response_time: (s) => callMean(s) * 1000,
    call_count: (s) => s.n,
    average_network_time: (s) => per(network(s), s.n) * 1000,
    average_fe_response_time: (s) => per(s.exclusive, s.n) * 1000,
    average_be_response_time: (s) => per(s.total - s.exclusive, s.n) * 1000,
    total_network_time: network,
    network_time_percentage: (s) => network(s) / s.seconds, // D-nrql: no × 100
    total_fe_time: (s) => s.exclusive,
    fe_time_percentage: (s) => (100 * s.exclusive) / s.seconds,
    average_dom_content_load_time: (s) => callMean(s) * 1000,
    average_queue_time: (s) => per(s.exclusive, s.n) * 1000,
    total_queue_time: (s) => s.exclusive * 1000,
    total_dom_content_time: (s) => s.total * 1000,
    total_app_time: (s) => s.squares,
    average_app_time: (s) => per(s.squares, s.n),
    // JavaScript errors per page view (D-nrql EndUser table; issue 37 item 5).
    error_percentage: (s) => per(s.errors, s.views), // D-nrql: a ratio
    requests_per_minute: (s) => perMinute(s.n, s),
  },
  mobile: {
    call_count: (s) => s.n,
    launch_count: (s) => s.n,
    average_sent_bytes: (s) => 1000 * per(s.exclusive, s.n),
    average_received_bytes: (s) => 1000 * per(s.total, s.n),
  },
}

/** Expected v2 values of one slice for `values` of a family; a slice without rows is all zeros but
 * for values of other metrics (`others`: their rows in the slice). */
export function expectedValues(
  family: string,
  values: readonly string[],
  rows: RawRow[],
  seconds: number,
  others?: OtherRows
): Record<string, number> {
  const table = reference[family]
  if (!table) throw new Error(`no reference for family ${family}`)
  const s = slice(rows, seconds, others)
  return Object.fromEntries(
    values.map((v) => {
      const f = table[v]
      if (!f) throw new Error(`no reference for ${family}.${v}`)
      if (ofOtherMetrics.has(v) && !others) throw new Error(`${v} needs the other metrics' rows`)
      return [v, rows.length === 0 && !ofOtherMetrics.has(v) ? 0 : f(s)]
    })
  )
}

/** Relative comparison for raw=true values (different summation orders differ in the last bits). */
export function close(actual: number, expected: number, tolerance = 1e-9): boolean {
  return Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected))
}

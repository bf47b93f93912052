/**
 * @module mappings/value-types
 * v2 metric value type → how to get it from `FROM Metric` timeslice data: an NRQL expression whose
 * result is the value, or NRQL inputs plus a formula v2bridge applies. The base rows are the documented
 * migration table (D-nrql: New Relic docs "Migrate metric timeslice queries to NRQL"; tags in
 * docs/sources.md); every departure says why. Units are v2's (D-extract "Extract metric timeslice
 * data"): ms where v2 has ms, seconds for `average_value`, `%` for percentages.
 * Families pick their value list and may override a row (mappings/metric-families.ts). Checked by
 * mappings/schemas.ts.
 */

/** `newrelic.timeslice.value`: durations in seconds; `count, total, totalExclusive, min, max,
 * sumOfSquares` per row (D-nrql; NRQL-syntax `getField`). */
const v = 'newrelic.timeslice.value'
const part = (component: string) => `${v}['${component}']`

/** Other metrics of the scope some inputs read, beside the requested metric (D-nrql EndUser table:
 * `error_percentage` reads `EndUser/errors` over `Browser`). */
export const otherMetrics = {
  endUserErrors: 'EndUser/errors', // JavaScript errors (D-nrql)
  pageViews: 'Browser', // page views (D-nrql)
} as const

/** `count` of one other metric: `filter()` needs a query without `FACET metricTimesliceName`, whose
 * facet would hold only the requested metric's rows (src/resources/metrics/columns.ts). */
const countOf = (input: keyof typeof otherMetrics) =>
  `filter(count(${v}), WHERE metricTimesliceName = '${otherMetrics[input]}')`

/** Aggregates that formulas read; sums over rows, as NRDB keeps timeslices (D-nrql). */
export const nrqlInputs = {
  count: `count(${v})`, // Σ count: calls (Apdex: satisfied)
  total: `sum(${v})`, // Σ total (Apdex: tolerating)
  totalExclusive: `sum(${part('totalExclusive')})`, // Σ totalExclusive (Apdex: frustrated)
  sumOfSquares: `sum(${part('sumOfSquares')})`, // Σ of squared call durations (s²)
  endUserErrors: countOf('endUserErrors'), // D-nrql `error_percentage`
  pageViews: countOf('pageViews'), // D-nrql `error_percentage`
} as const

export type InputName = keyof typeof nrqlInputs
export type Inputs = Record<InputName, number>

/** Values v2bridge computes from inputs (missing inputs are 0). `null` = no data in the slice. */
export const formulas = {
  /** Apdex `count` = s + t + f (D-nrql Apdex table, standard Apdex). */
  apdexCount: (i: Inputs) => i.count + i.total + i.totalExclusive,
  /** Apdex `score` = (s + t/2) / (s + t + f) (D-nrql Apdex table, standard Apdex). */
  apdexScore: (i: Inputs) => {
    const n = i.count + i.total + i.totalExclusive
    return n > 0 ? (i.count + i.total / 2) / n : null
  },
  /** Population standard deviation of call durations in ms: sqrt(Σx²/n − (Σx/n)²) × 1000. The agents
   * keep Σx² of each call's duration in `sumOfSquares`, so this is the v2 meaning ("standard deviation
   * of the response time") computed over exactly the calls in the slice; NRQL `stddev()` is
   * undocumented for timeslices (D-nrql gives no meaning for `sumOfSquares` [UNCONFIRMED]) and has
   * no `sqrt` in our subset. */
  standardDeviationMs: (i: Inputs) => {
    if (i.count <= 0) return null
    const mean = i.total / i.count
    return Math.sqrt(Math.max(0, i.sumOfSquares / i.count - mean * mean)) * 1000
  },
  /** EndUser `error_percentage` = JavaScript errors / page views of the slice, a ratio as D-nrql
   * writes it: that table is the only source of this value and says its NRQL returns what v2
   * returned; no recorded v2 answer shows a × 100. */
  errorPercentage: (i: Inputs) => (i.pageViews > 0 ? i.endUserErrors / i.pageViews : null),
} as const

export type FormulaName = keyof typeof formulas

/** Each formula written as one NRQL expression over `input`'s NRQL, for people to paste (explain's
 * readable NRQL, src/resources/metrics/readable.ts); v2bridge itself computes the formulas above.
 * `pow(x, 0.5)` is the square root (New Relic docs "NRQL math using SELECT": `pow`). */
export const formulaNrql: Record<FormulaName, (input: (name: InputName) => string) => string> = {
  apdexCount: (i) => `${i('count')} + ${i('total')} + ${i('totalExclusive')}`,
  apdexScore: (i) =>
    `(${i('count')} + ${i('total')} / 2) / (${i('count')} + ${i('total')} + ${i('totalExclusive')})`,
  standardDeviationMs: (i) =>
    `pow(${i('sumOfSquares')} / ${i('count')} - pow(${i('total')} / ${i('count')}, 2), 0.5) * 1000`,
  errorPercentage: (i) => `${i('endUserErrors')} / ${i('pageViews')}`,
}

export type ValueDefinition =
  | { readonly nrql: string; readonly count?: true; readonly inNames?: false }
  | {
      readonly inputs: readonly InputName[]
      readonly formula: FormulaName
      readonly count?: true
      readonly inNames?: false
    }

const ms = (expr: string) => `${expr} * 1000`
const perMinute = (agg: string) => `rate(${agg}, 1 minute)`
/** Σ / seconds of the slice: `rate(…, 1 second)` divides by the slice length in seconds. */
const perSecond = (agg: string) => `rate(${agg}, 1 second)`
/** 100 × Σ / seconds of the slice. */
const percentOfTime = (agg: string) => `${perSecond(agg)} * 100`

/** `count: true` marks counts: exact, never rounded (D-extract, TONS samples). `inNames: false`:
 * returned by data calls but not listed by metric names (`average_call_time`: D-extract lists it,
 * D-names does not). */
export const valueTypes = {
  // Transaction and segment timeslices (D-nrql "Value (RPM)" table).
  average_response_time: { nrql: ms(`average(${v})`) }, // D-nrql
  calls_per_minute: { nrql: perMinute(`count(${v})`) }, // D-nrql
  call_count: { nrql: `count(${v})`, count: true }, // D-nrql
  min_response_time: { nrql: ms(`min(${v})`) }, // D-nrql
  max_response_time: { nrql: ms(`max(${v})`) }, // D-nrql
  // D-nrql writes average(totalExclusive / count) per row; v2's average is over calls, so Σ/Σ.
  average_exclusive_time: { nrql: ms(`${nrqlInputs.totalExclusive} / count(${v})`) },
  average_value: { nrql: `average(${v})` }, // D-nrql, seconds (D-extract: 0.364 for 364 ms)
  total_call_time_per_minute: { nrql: perMinute(`sum(${v})`) }, // D-nrql, s/min
  requests_per_minute: { nrql: perMinute(`count(${v})`) }, // D-nrql
  standard_deviation: {
    inputs: ['count', 'total', 'sumOfSquares'],
    formula: 'standardDeviationMs',
  },
  average_call_time: { nrql: ms(`average(${v})`), inNames: false }, // D-nrql; data only (D-extract)

  // Generic values of the CPU, GC and utilization families (D-nrql).
  average_time: { nrql: ms(`average(${v})`) }, // D-nrql
  count: { nrql: `count(${v})`, count: true }, // D-nrql
  max_value: { nrql: `max(${v})` }, // D-nrql
  as_percentage: { nrql: `average(${v}) * 100` }, // D-nrql
  total_time: { nrql: ms(`sum(${v})`) }, // D-nrql
  percent: { nrql: `average(${v}) * 100` }, // D-nrql (CPU/User Time overrides it)
  utilization: { nrql: percentOfTime(`sum(${v})`) }, // D-nrql 100 × sum / window seconds

  // Errors (D-errrate; D-nrql).
  error_count: { nrql: `count(${v})`, count: true },
  errors_per_minute: { nrql: perMinute(`count(${v})`) },

  // Memory: one row per agent instance and minute, `total` = MB (D-hostex, D-nrql).
  used_mb_by_host: { nrql: `average(${v})` }, // D-nrql: mean of the per-instance samples
  used_bytes_by_host: { nrql: `average(${v}) * 1024 * 1024` }, // D-nrql
  // D-nrql writes sum(); over a slice that adds every minute's sample of every instance. v2's total
  // is the app's memory at a time (D-hostex "average memory usage for your application"), so the
  // per-minute sum over instances, averaged over the slice's minutes: Σ / minutes.
  total_used_mb: { nrql: perMinute(`sum(${v})`) },

  // Apdex, Apdex/*, EndUser/Apdex: s, t, f packed in count, total, totalExclusive; the threshold in
  // min/max (D-nrql Apdex table). score/count/value are computed here from s, t, f.
  s: { nrql: nrqlInputs.count, count: true }, // D-nrql
  t: { nrql: nrqlInputs.total, count: true }, // D-nrql
  f: { nrql: nrqlInputs.totalExclusive, count: true }, // D-nrql
  score: { inputs: ['count', 'total', 'totalExclusive'], formula: 'apdexScore' },
  // D-nrql maps `value` to apdex() like `score` and nothing tells them apart [UNCONFIRMED: same as score].
  value: { inputs: ['count', 'total', 'totalExclusive'], formula: 'apdexScore' },
  threshold: { nrql: `max(${v})` }, // D-nrql, seconds
  threshold_min: { nrql: `min(${v})` }, // D-nrql, seconds

  // EndUser and EndUser/RB: total = page load, totalExclusive = front end, sumOfSquares = app
  // (server) time (D-nrql EndUser table).
  average_network_time: {
    // D-nrql has no × 1000 (seconds), but D-browser says of this very value "This time is returned
    // in milliseconds", and D-nrql's other EndUser averages are all × 1000: D-browser is followed.
    nrql: ms(
      `(sum(${v}) - ${nrqlInputs.totalExclusive} - ${nrqlInputs.sumOfSquares}) / count(${v})`
    ),
  },
  average_fe_response_time: { nrql: ms(`${nrqlInputs.totalExclusive} / count(${v})`) }, // D-nrql
  average_be_response_time: {
    nrql: ms(`(sum(${v}) - ${nrqlInputs.totalExclusive}) / count(${v})`), // D-nrql
  },
  total_network_time: {
    nrql: `sum(${v}) - ${nrqlInputs.totalExclusive} - ${nrqlInputs.sumOfSquares}`, // D-nrql, s
  },
  network_time_percentage: {
    // D-nrql: network seconds / window seconds, without the × 100 of its fe_time_percentage. The
    // table is the only source of this value and says its NRQL returns what v2 returned, so
    // v2bridge follows it as written (a ratio; it passes 1 when page loads overlap).
    nrql: perSecond(`sum(${part('total')} - ${part('totalExclusive')} - ${part('sumOfSquares')})`),
  },
  total_fe_time: { nrql: nrqlInputs.totalExclusive }, // D-nrql, s
  fe_time_percentage: { nrql: percentOfTime(nrqlInputs.totalExclusive) }, // D-nrql
  average_dom_content_load_time: { nrql: ms(`average(${v})`) }, // D-nrql; D-browser: ms
  // D-nrql averages totalExclusive per row; v2 averages per page view (D-browser), so Σ/Σ.
  average_queue_time: { nrql: ms(`${nrqlInputs.totalExclusive} / count(${v})`) },
  total_queue_time: { nrql: ms(nrqlInputs.totalExclusive) }, // D-nrql
  total_dom_content_time: { nrql: ms(`sum(${v})`) }, // D-nrql
  total_app_time: { nrql: nrqlInputs.sumOfSquares }, // D-nrql; D-browser: seconds
  average_app_time: { nrql: `${nrqlInputs.sumOfSquares} / count(${v})` }, // D-nrql, s
  // D-nrql: EndUser/errors over Browser, the same for every EndUser metric of the scope.
  error_percentage: { inputs: ['endUserErrors', 'pageViews'], formula: 'errorPercentage' },

  // Mobile (D-nrql Mobile table).
  launch_count: { nrql: `count(${v})`, count: true }, // D-nrql
  average_received_bytes: { nrql: `1000 * sum(${v}) / count(${v})` }, // D-nrql
  // D-nrql writes sum(totalExclusive) * 1000 (sic) for an average; v2bridge divides by the count
  // like its twin average_received_bytes.
  average_sent_bytes: { nrql: `1000 * ${nrqlInputs.totalExclusive} / count(${v})` },
} as const satisfies Record<string, ValueDefinition>

export type ValueType = keyof typeof valueTypes

/** CPU/User Time `percent` = 100 × CPU seconds / seconds of the slice (D-nrql `percent` of CPU/User Time,
 * D-hostex). Across several instances the percentages add up, as `top` shows them. */
export const cpuTimePercent = {
  nrql: percentOfTime(`sum(${v})`),
} as const satisfies ValueDefinition

/** Apdex `count` = s + t + f (D-nrql Apdex table), not the generic `count(v)` (which is only s). */
export const apdexCount = {
  inputs: ['count', 'total', 'totalExclusive'],
  formula: 'apdexCount',
  count: true,
} as const satisfies ValueDefinition

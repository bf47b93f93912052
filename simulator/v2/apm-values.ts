/**
 * @module simulator/v2/apm-values — v2 metric values computed from raw timeslice components, by v2's
 * definitions: value names per metric family and their order (New Relic docs "Extract metric
 * timeslice data" and "List your app ID and metric timeslice data", newrelic-client-go and
 * mrf/newrelic_exporter fixtures), units (ms for times, seconds for `average_value`, % for
 * percentages) and what each value is over the calls of a slice (New Relic docs "Migrate metric
 * timeslice queries to NRQL" value table). Components are those agents send: count, total,
 * totalExclusive, min, max, sumOfSquares (seconds); Apdex packs s/t/f in count/total/totalExclusive,
 * EndUser packs front-end time in totalExclusive and app time in sumOfSquares.
 * Source tags (D-…, TONS, AMB) as docs/sources.md lists them.
 */
/** The six components of one timeslice row (as `dataset.timeslices` rows carry them). */
export interface Components {
  count: number
  total: number
  totalExclusive: number
  min: number
  max: number
  sumOfSquares: number
}

/** Σ of a slice's rows (min of mins, max of maxes); `rows` 0 = no data. */
export interface Sums extends Components {
  rows: number
}

export const emptySums = (): Sums => ({
  count: 0,
  total: 0,
  totalExclusive: 0,
  min: 0,
  max: 0,
  sumOfSquares: 0,
  rows: 0,
})

export function add(s: Sums, v: Components): void {
  s.min = s.rows === 0 ? v.min : Math.min(s.min, v.min)
  s.max = s.rows === 0 ? v.max : Math.max(s.max, v.max)
  s.count += v.count
  s.total += v.total
  s.totalExclusive += v.totalExclusive
  s.sumOfSquares += v.sumOfSquares
  s.rows++
}

/** Adds slice `b` into `a`. */
export function merge(a: Sums, b: Sums): void {
  if (b.rows === 0) return
  const rows = a.rows
  add(a, b)
  a.rows = rows + b.rows
}

/** Σ count of the scope's other metrics some values read, over the same slice (D-nrql EndUser
 * table: `error_percentage` is EndUser/errors over Browser). */
export interface Others {
  endUserErrors: number
  pageViews: number
}

/** The metrics `Others` sums, by field. */
export const OTHER_METRICS = { endUserErrors: 'EndUser/errors', pageViews: 'Browser' } as const

/** One value of a slice of `minutes` minutes. Empty slices answer 0 (D-extract: metrics no longer
 * collected "will return a zero value"). */
type Def = (s: Sums, minutes: number, o: Others) => number
const per = (a: number, b: number) => (b > 0 ? a / b : 0)
const avgMs: Def = (s) => per(s.total, s.count) * 1000
const perMinute: Def = (s, m) => per(s.count, m)
const network = (s: Sums) => s.total - s.totalExclusive - s.sumOfSquares

const timeslice: Record<string, Def> = {
  average_response_time: avgMs,
  calls_per_minute: perMinute,
  call_count: (s) => s.count,
  min_response_time: (s) => s.min * 1000,
  max_response_time: (s) => s.max * 1000,
  average_exclusive_time: (s) => per(s.totalExclusive, s.count) * 1000,
  average_value: (s) => per(s.total, s.count),
  total_call_time_per_minute: (s, m) => per(s.total, m),
  requests_per_minute: perMinute,
  standard_deviation: (s) => {
    const mean = per(s.total, s.count)
    return Math.sqrt(Math.max(0, per(s.sumOfSquares, s.count) - mean * mean)) * 1000
  },
  average_call_time: avgMs,
}
const score: Def = (s) => per(s.count + s.total / 2, s.count + s.total + s.totalExclusive)
const apdex: Record<string, Def> = {
  s: (s) => s.count,
  t: (s) => s.total,
  f: (s) => s.totalExclusive,
  count: (s) => s.count + s.total + s.totalExclusive,
  score,
  value: score,
  threshold: (s) => s.max,
  threshold_min: (s) => s.min,
}
const errors: Record<string, Def> = {
  error_count: (s) => s.count,
  errors_per_minute: perMinute,
}
const cpuTime: Record<string, Def> = {
  percent: (s, m) => 100 * per(s.total, m * 60), // CPU seconds per second of the slice
  average_time: avgMs,
  total_time: (s) => s.total * 1000,
}
const memory: Record<string, Def> = {
  used_bytes_by_host: (s) => per(s.total, s.count) * 1024 * 1024,
  used_mb_by_host: (s) => per(s.total, s.count),
  total_used_mb: (s, m) => per(s.total, m), // every instance's MB at a minute, averaged over minutes
}
const endUser: Record<string, Def> = {
  average_response_time: avgMs,
  call_count: (s) => s.count,
  // ms: "This time is returned in milliseconds" (New Relic docs "Obtaining browser (end user) page
  // load time data (v2)"), where the NRQL table leaves it in seconds.
  average_network_time: (s) => per(network(s), s.count) * 1000,
  average_fe_response_time: (s) => per(s.totalExclusive, s.count) * 1000,
  average_be_response_time: (s) => per(s.total - s.totalExclusive, s.count) * 1000,
  total_network_time: (s) => network(s),
  // New Relic docs "Migrate metric timeslice queries to NRQL" (EndUser table): network seconds per
  // second of the slice, without the × 100 its fe_time_percentage has; the table says its NRQL
  // returns what v2 did and nothing else defines the value.
  network_time_percentage: (s, m) => per(network(s), m * 60),
  total_fe_time: (s) => s.totalExclusive,
  fe_time_percentage: (s, m) => 100 * per(s.totalExclusive, m * 60),
  average_dom_content_load_time: avgMs,
  average_queue_time: (s) => per(s.totalExclusive, s.count) * 1000,
  total_queue_time: (s) => s.totalExclusive * 1000,
  total_dom_content_time: (s) => s.total * 1000,
  total_app_time: (s) => s.sumOfSquares,
  average_app_time: (s) => per(s.sumOfSquares, s.count),
  // JavaScript errors per page view of the slice (a ratio, as the same table writes it), whichever
  // EndUser metric is asked.
  error_percentage: (_s, _m, o) => per(o.endUserErrors, o.pageViews),
  // D-browser's page throughput example asks it; D-nrql's EndUser table does not list it.
  requests_per_minute: perMinute,
}

interface Family {
  /** Exact names, or names starting with a prefix. */
  match: (name: string) => boolean
  /** Every value in v2's order. */
  values: Record<string, Def>
  /** Values answered when none are asked (default: all), and listed by metric names. */
  defaults?: readonly string[]
  /** Values metric names lists (data answers may hold more; default: `defaults`). */
  listed?: readonly string[]
}

const is =
  (names: string[], prefixes: string[] = []) =>
  (name: string) =>
    names.includes(name) || prefixes.some((p) => name.startsWith(p))

const families: readonly Family[] = [
  { match: is(['Apdex', 'EndUser/Apdex'], ['Apdex/', 'EndUser/Apdex/']), values: apdex },
  { match: is(['Errors/all'], ['Errors/']), values: errors },
  { match: is(['CPU/User Time']), values: cpuTime },
  { match: is([], ['Memory/']), values: memory },
  {
    match: is(['EndUser', 'EndUser/RB'], ['EndUser/']),
    values: endUser,
    defaults: Object.keys(endUser).filter((v) => v !== 'requests_per_minute'),
  },
  {
    match: () => true,
    values: timeslice,
    // mrf/newrelic_exporter's fixture lists 10; `average_call_time` shows only in data answers.
    listed: Object.keys(timeslice).filter((v) => v !== 'average_call_time'),
  },
]

const familyOf = (name: string) => families.find((f) => f.match(name))!

/** The value names metric names shows for `name`. */
export const listedValues = (name: string): string[] => {
  const f = familyOf(name)
  return [...(f.listed ?? f.defaults ?? Object.keys(f.values))]
}

/** Whether some value of `name`'s family reads other metrics (`Others`). */
export const readsOthers = (name: string): boolean => 'error_percentage' in familyOf(name).values

/** Values that are counts: exact, never rounded (D-extract, TONS samples). */
const COUNTS = new Set(['call_count', 'error_count', 's', 't', 'f', 'count'])

/** About 3 significant digits (D-extract, D-summary, TONS samples) unless `raw`. */
export const round = (v: number, raw: boolean) =>
  raw || !Number.isFinite(v) || v === 0 ? (Number.isFinite(v) ? v : 0) : Number(v.toPrecision(3))

/** The `values` object of one slice: the asked values that apply to the metric, in v2's order
 * (inapplicable ones are left out, D-names); the family's defaults when none were asked. */
export function valuesOf(
  name: string,
  s: Sums,
  minutes: number,
  asked: readonly string[],
  raw: boolean,
  others: Others = { endUserErrors: 0, pageViews: 0 }
): Record<string, number> {
  const family = familyOf(name)
  const defs = family.values
  // Asked values in the order asked (New Relic docs "Extract metric timeslice data":
  // `values[]=call_count&values[]=average_response_time` answers call_count first), each once.
  const keys =
    asked.length === 0
      ? (family.defaults ?? Object.keys(defs))
      : [...new Set(asked)].filter((k) => Object.hasOwn(defs, k))
  return Object.fromEntries(
    keys.map((k) => {
      const v = defs[k]!(s, minutes, others)
      return [k, COUNTS.has(k) ? v : round(v, raw)]
    })
  )
}

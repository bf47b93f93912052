/**
 * @module bench/cases
 * The metric-data call shapes the benchmarks measure: a small call (one name, one value,
 * summarized), MRF's 10 names with every value over 30 one-minute slices, and the largest series
 * (50 transaction names × their 11 values over 4 days, 192 half-hour slices). Times are fixed per run
 * so every request of a case sends the same NRQL. bench:overhead's small call is `smallCall`: 2 names,
 * every value, summarized over 30 minutes.
 */

/** MRF's (mrf/newrelic-exporter) default metric names. */
export const tenNames = [
  'HttpDispatcher',
  'Apdex',
  'EndUser/Apdex',
  'Errors/all',
  'Memory/Physical',
  'CPU/User Time',
  'EndUser',
  'WebTransaction',
  'OtherTransaction/all',
  'WebFrontend/QueueTime',
]

const fiftyNames = Array.from(
  { length: 50 },
  (_, i) => `WebTransaction/SpringController/Controller${String(i).padStart(2, '0')}/action`
)

export interface BenchCase {
  label: string
  /** Path and query under the v2bridge origin. */
  path: string
  /** How many times the base run length bench:overhead gives this case (default 1). */
  weight?: number
}

/** The end of the benchmarks' ranges: an hour before `now`, on the hour. */
const rangeEnd = (now: number) => Math.floor(now / 3_600_000) * 3_600_000 - 3_600_000
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z')

/** bench:overhead's small call: 2 names, every value, summarized over 30 minutes. */
export function smallCall(appId: number, now = Date.now()): BenchCase {
  const end = rangeEnd(now)
  return {
    label: 'small (2 names, summarized, 30 min)',
    path:
      `/v2/applications/${appId}/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex` +
      `&summarize=true&from=${iso(end - 30 * 60_000)}&to=${iso(end)}`,
  }
}

/** Cases for an application; `now` anchors the ranges (an hour back, on the hour). */
export function benchCases(appId: number, now = Date.now()): BenchCase[] {
  const end = rangeEnd(now)
  const names = (list: string[]) => list.map((n) => `names[]=${encodeURIComponent(n)}`).join('&')
  const base = `/v2/applications/${appId}/metrics/data.json`
  const range = (minutes: number) => `from=${iso(end - minutes * 60_000)}&to=${iso(end)}`
  return [
    {
      label: 'small (1 name, 1 value, summarized)',
      path: `${base}?names[]=HttpDispatcher&values[]=requests_per_minute&summarize=true&${range(30)}`,
    },
    { label: '10 names, all values, 30 slices', path: `${base}?${names(tenNames)}&${range(30)}` },
    {
      label: '50 names × 11 values, 4 days',
      path: `${base}?${names(fiftyNames)}&${range(4 * 24 * 60)}`,
      weight: 4,
    },
  ]
}

/** The path of the call `which` names (`small`, `ten`, `largest`) for the bench's application. */
export function casePath(which: string): string {
  const [, ten, largest] = benchCases(9045822)
  const path = { small: smallCall(9045822), ten: ten!, largest: largest! }[which]?.path
  if (!path) throw new Error(`unknown case ${which}: small, ten or largest`)
  return path
}

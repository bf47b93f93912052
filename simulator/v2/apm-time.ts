/**
 * @module simulator/v2/apm-time — v2 time parameters and the timeslice grid of a metric-data answer
 * (New Relic docs "Specify a time range (v2)" and "Extract metric timeslice data"): the formats
 * clients send, the last-30-minutes default, the 60 s minimum (422), the default granularity by
 * range length and data age ("10 evenly spaced points" for data older than 8 days), `period` (never
 * finer than the default), an unaligned 1-minute window moved 3 minutes back (the docs' 18:06:06 →
 * 18:03 sample), coarse grids anchored on `to` with the partial leading period dropped (TONS sample),
 * and `summarize` as one slice over the grid. Taken from v2's own samples, not from v2bridge.
 * Source tags (D-…, TONS, AMB) as docs/sources.md lists them.
 */

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** [UNCONFIRMED] titles: v2's are not recorded; 422 for the 60 s minimum is (D-extract). */
export const TIME_TITLES = {
  from: "Invalid 'from' time",
  to: "Invalid 'to' time",
  order: "'from' must be before 'to'",
  tooShort: 'The time range must be at least 60 seconds',
} as const

// 2014-06-09, then T or space and HH:MM[:SS[.fff]], then Z | ±HH[:MM] | a space for an unencoded +.
const TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?\s*(Z|UTC|[+-]\d{2}(?::?\d{2})?|\d{2}:?\d{2})?$/i

/** Epoch ms of a v2 time, or null. Surrounding double quotes are dropped (a serialised moment). */
export function parseTime(text: string): number | null {
  const m = TIME.exec(text.trim().replace(/^"(.*)"$/, '$1'))
  if (!m) return null
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone = 'Z'] = m
  const utc = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s)
  if (Number.isNaN(utc)) return null
  if (/^(Z|UTC)$/i.test(zone)) return utc
  const sign = zone.startsWith('-') ? -1 : 1
  const digits = zone.replace(/[^0-9]/g, '')
  const offset = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0)) * MINUTE
  return utc - sign * offset
}

/** `2016-01-28T18:06:06+00:00`: UTC, whole seconds (D-time). */
export const formatTime = (ms: number) =>
  new Date(Math.floor(ms / SECOND) * SECOND).toISOString().replace(/\.\d{3}Z$/, '+00:00')

/** Range length (ms, inclusive upper bound) → slice length for data up to 8 days old (D-extract). */
const GRANULARITY: readonly [number, number][] = [
  [3 * HOUR, MINUTE],
  [6 * HOUR, 2 * MINUTE],
  [14 * HOUR, 5 * MINUTE],
  [DAY, 10 * MINUTE],
  [4 * DAY, 30 * MINUTE],
  [7 * DAY, HOUR],
  [21 * DAY, 3 * HOUR],
  [42 * DAY, 6 * HOUR],
  [63 * DAY, 12 * HOUR],
  [Infinity, 3 * DAY],
]

export interface Grid {
  /** The requested (or defaulted) range, echoed at the top. */
  from: number
  to: number
  /** Slice starts; every slice is `step` long. */
  starts: number[]
  step: number
  /** The range starts more than 8 days ago: v2 served it from hourly data (D-extract "data has been
   * aggregated or averaged into one-hour periods"). */
  hourly: boolean
}

/** The grid of one call, or the 422 title. */
export function gridOf(
  q: { from?: string; to?: string; period?: string },
  now: number
): Grid | { error: string } {
  const to = q.to ? parseTime(q.to) : now
  if (to === null) return { error: TIME_TITLES.to }
  const from = q.from ? parseTime(q.from) : to - 30 * MINUTE
  if (from === null) return { error: TIME_TITLES.from }
  if (from > to) return { error: TIME_TITLES.order }
  if (to - from < MINUTE) return { error: TIME_TITLES.tooShort }
  const length = to - from
  const hourly = from < now - 8 * DAY
  const old = hourly && length <= 4 * DAY // "10 evenly spaced points"
  const fresh = GRANULARITY.find(([upTo]) => length <= upTo)![1]
  const base = old ? Math.max(MINUTE, Math.floor(length / 10 / MINUTE) * MINUTE) : fresh
  const asked = Math.ceil((Number(q.period) * SECOND || 0) / MINUTE) * MINUTE
  const step = Math.max(base, asked)
  if (step === MINUTE) {
    // An unaligned 1-minute window, and the defaulted last 30 minutes (it ends inside a minute that
    // is not over), move back by the lag, both ends: D-extract 18:06:06 → 18:03, D-names
    // 23:41:15–00:11:15 → 23:39–00:08:59, the AMB fixture 19:14:29–19:44:29 → 19:13–19:42:59 (older
    // samples: 1–2 min; D-extract's: 3); the MRF sample 15:35:00–15:36:00 → 15:35 is not moved.
    const lag = from % MINUTE === 0 && (q.from || q.to) ? 0 : 3 * MINUTE
    const start = Math.floor(from / MINUTE) * MINUTE - lag
    const count = Math.floor((to - from) / MINUTE)
    return {
      from,
      to,
      step,
      hourly,
      starts: Array.from({ length: count }, (_, i) => start + i * MINUTE),
    }
  }
  // Coarse grids show no lag: TONS 14:48:43 → 2015-11-09T00:00:00 (6.4 days, hourly) starts at
  // 15:00, so slices count back from floor(to) and the partial leading one is dropped; D-errrate
  // 00:00 → 23:35 gives 00:35–23:35.
  const end = Math.floor(to / MINUTE) * MINUTE
  const count = Math.floor((end - from) / step)
  if (count <= 0) {
    const start = Math.floor(from / MINUTE) * MINUTE
    return { from, to, hourly, starts: [start], step: Math.max(MINUTE, end - start) }
  }
  return {
    from,
    to,
    step,
    hourly,
    starts: Array.from({ length: count }, (_, i) => end - (count - i) * step),
  }
}

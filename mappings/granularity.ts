/**
 * @module mappings/granularity
 * v2 default timeslice length by range length and data age (New Relic docs "Extract metric timeslice
 * data", its granularity table; NRQL `TIMESERIES` takes the same buckets). Checked by mappings/schemas.ts.
 */
const minute = 60
const hour = 60 * minute
const day = 24 * hour

/** `tenPoints`: "10 evenly spaced points" when the range starts more than 8 days ago. */
export type OldDataGranularity = number | 'tenPoints'

/** Rows in increasing `upTo` (seconds of range, inclusive); `fresh` and `old` are seconds. */
export const defaultGranularity = [
  { upTo: 3 * hour, fresh: minute, old: 'tenPoints' }, // D-extract: ≤ 3 h → 1 min
  { upTo: 6 * hour, fresh: 2 * minute, old: 'tenPoints' }, // D-extract: > 3 h … ≤ 6 h → 2 min
  { upTo: 14 * hour, fresh: 5 * minute, old: 'tenPoints' }, // D-extract: > 6 h … ≤ 14 h → 5 min
  { upTo: 24 * hour, fresh: 10 * minute, old: 'tenPoints' }, // D-extract: > 14 h … ≤ 24 h → 10 min
  { upTo: 4 * day, fresh: 30 * minute, old: 'tenPoints' }, // D-extract: > 1 d … ≤ 4 d → 30 min
  { upTo: 7 * day, fresh: hour, old: hour }, // D-extract: > 4 d … ≤ 7 d → 1 h
  { upTo: 21 * day, fresh: 3 * hour, old: 3 * hour }, // D-extract: > 7 d … ≤ 3 w → 3 h
  { upTo: 42 * day, fresh: 6 * hour, old: 6 * hour }, // D-extract: > 3 w … ≤ 6 w → 6 h
  { upTo: 63 * day, fresh: 12 * hour, old: 12 * hour }, // D-extract: > 6 w … ≤ 9 w → 12 h
  { upTo: Infinity, fresh: 3 * day, old: 3 * day }, // D-extract: > 63 d → 3 days
] as const satisfies readonly { upTo: number; fresh: number; old: OldDataGranularity }[]

/** Data whose range starts more than this many seconds ago uses the `old` column (D-extract). */
export const oldDataAfterSeconds = 8 * day

/**
 * The rollups NRDB answers a `FROM Metric` window from, whose edges the window snaps to (New Relic
 * docs "Set a query's time range", Metric query snapping). `hour`: a window starting more than
 * `oldDataAfterSeconds` ago reads hourly rollups ("Data retention and components": one-minute data
 * aggregates to 1-hour periods after 8 days). `fiveMinutes`: a recent window longer than
 * `fiveMinutesAfter` reads 5-minute rollups (the docs' 47 h 59 min example); the switch itself is
 * [UNKNOWN] (6 h, where the default slices become multiples of 5 minutes).
 */
export const metricRollups = {
  minute,
  fiveMinutes: 5 * minute,
  fiveMinutesAfter: 6 * hour,
  hour,
} as const

/** NRQL returns at most 366 `TIMESERIES` buckets (New Relic docs "NRQL syntax, clauses, and functions"). */
export const maxBuckets = 366

/** "New Relic only collects data at one minute intervals" (D-extract): the smallest slice. */
export const minimumSliceSeconds = minute

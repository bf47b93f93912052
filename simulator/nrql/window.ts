/**
 * @module simulator/nrql/window Query time window and TIMESERIES buckets, snapped as NRDB snaps them
 * (New Relic docs "Set a query's time range", "Use time range snapping"): a Metric window snaps to
 * the edges of the rollup it reads, then TIMESERIES buckets base themselves on the end of the window
 * and the start moves forward so the first bucket is whole.
 */
import { DEFAULT_RETENTION, NrqlError, type Retention } from '../types'
import type { NrqlQuery, TimeSpec } from './ast'
import { UNIT_MS, durationMs, timeSpecText } from './parse-time'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
/** NRQL's default window is the last hour. */
const DEFAULT_SINCE_MS = 60 * MINUTE
/** NRQL caps TIMESERIES at 366 buckets. */
export const MAX_BUCKETS = 366

export interface Bucket {
  begin: number
  end: number
}

export interface QueryWindow {
  begin: number
  end: number
  sinceText: string
  untilText: string
  /** Length of the rollup rows the window reads (ms). */
  rollupMs: number
  /** Bucket length in ms, or 0 without TIMESERIES. */
  bucketMs: number
  /** TIMESERIES buckets, or one bucket spanning the window. */
  buckets: Bucket[]
}

function resolve(spec: TimeSpec, now: number): number {
  if (spec.type === 'now') return now
  if (spec.type === 'epoch') return spec.ms
  return now - spec.amount * UNIT_MS[spec.unit]
}

/**
 * The rollup a Metric window reads: hourly once it begins before the one-minute data (New Relic docs
 * "Data retention and components": 1-hour periods after 8 days), else 5 minutes for a long window
 * ("Set a query's time range": 47 h 59 min → 5-minute aggregations; the switch is [UNKNOWN], see
 * `Retention.fiveMinuteAfterMs`), else one minute.
 */
export function rollupOf(
  since: number,
  until: number,
  now: number,
  retention: Retention = DEFAULT_RETENTION
): number {
  if (since < Math.floor(now / MINUTE) * MINUTE - retention.minuteMs) return HOUR
  return until - since > retention.fiveMinuteAfterMs ? 5 * MINUTE : MINUTE
}

export function resolveWindow(
  query: NrqlQuery,
  now: number,
  retention: Retention = DEFAULT_RETENTION
): QueryWindow {
  const since = query.since ? resolve(query.since, now) : now - DEFAULT_SINCE_MS
  const until = query.until ? resolve(query.until, now) : now
  const rollupMs = rollupOf(since, until, now, retention)
  // Both ends snap down to the rollup's edges: the docs' 00:04 → 00:00 and 00:03 → 00:00. What NRDB
  // answers for a window inside one rollup row is [UNKNOWN]; the simulator refuses it.
  let begin = Math.floor(since / rollupMs) * rollupMs
  const end = Math.floor(until / rollupMs) * rollupMs
  if (end <= begin) {
    throw new NrqlError('The time window is empty (UNTIL must be after SINCE)', 'INVALID_INPUT')
  }
  const window = {
    sinceText: query.since ? timeSpecText(query.since) : '60 MINUTES AGO',
    untilText: query.until ? timeSpecText(query.until) : 'NOW',
    rollupMs,
  }
  if (query.timeseries === null) {
    return { ...window, begin, end, bucketMs: 0, buckets: [{ begin, end }] }
  }
  const bucketMs = durationMs(query.timeseries)
  if (bucketMs % MINUTE !== 0) {
    throw new NrqlError('TIMESERIES bucket must be a whole number of minutes', 'INVALID_INPUT')
  }
  // TIMESERIES snapping: buckets counted back from the end, the partial leading one dropped (docs
  // "Set a query's time range": 00:04:59 → 00:03:12 next day by 5 minutes begins at 00:08:12). A
  // bucket longer than the window keeps the window as one bucket ([UNKNOWN]).
  const whole = Math.floor((end - begin) / bucketMs)
  if (whole > MAX_BUCKETS) {
    throw new NrqlError(
      `TIMESERIES of ${whole} buckets exceeds ${MAX_BUCKETS} buckets`,
      'INVALID_INPUT'
    )
  }
  if (whole === 0) return { ...window, begin, end, bucketMs, buckets: [{ begin, end }] }
  begin = end - whole * bucketMs
  const buckets: Bucket[] = []
  for (let t = begin; t < end; t += bucketMs) buckets.push({ begin: t, end: t + bucketMs })
  return { ...window, begin, end, bucketMs, buckets }
}

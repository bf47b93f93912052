/** @module simulator/nrql/window Query time window and TIMESERIES buckets. */
import { NrqlError } from '../types'
import type { NrqlQuery, TimeSpec } from './ast'
import { UNIT_MS, durationMs, timeSpecText } from './parse-time'

/** Metric data is rolled up per minute, so windows snap to whole minutes. */
const MINUTE = 60_000
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
  /** Bucket length in ms, or 0 without TIMESERIES. */
  bucketMs: number
  /** TIMESERIES buckets (last one clipped at `end`), or one bucket spanning the window. */
  buckets: Bucket[]
}

function resolve(spec: TimeSpec, now: number): number {
  if (spec.type === 'now') return now
  if (spec.type === 'epoch') return spec.ms
  return now - spec.amount * UNIT_MS[spec.unit]
}

export function resolveWindow(query: NrqlQuery, now: number): QueryWindow {
  const since = query.since ? resolve(query.since, now) : now - DEFAULT_SINCE_MS
  const until = query.until ? resolve(query.until, now) : now
  const begin = Math.floor(since / MINUTE) * MINUTE
  const end = Math.floor(until / MINUTE) * MINUTE
  if (end <= begin) {
    throw new NrqlError('The time window is empty (UNTIL must be after SINCE)', 'INVALID_INPUT')
  }
  const window = {
    begin,
    end,
    sinceText: query.since ? timeSpecText(query.since) : '60 MINUTES AGO',
    untilText: query.until ? timeSpecText(query.until) : 'NOW',
  }
  if (query.timeseries === null) return { ...window, bucketMs: 0, buckets: [{ begin, end }] }
  const bucketMs = durationMs(query.timeseries)
  if (bucketMs % MINUTE !== 0) {
    throw new NrqlError('TIMESERIES bucket must be a whole number of minutes', 'INVALID_INPUT')
  }
  const count = Math.ceil((end - begin) / bucketMs)
  if (count > MAX_BUCKETS) {
    throw new NrqlError(
      `TIMESERIES of ${count} buckets exceeds ${MAX_BUCKETS} buckets`,
      'INVALID_INPUT'
    )
  }
  const buckets: Bucket[] = []
  for (let t = begin; t < end; t += bucketMs)
    buckets.push({ begin: t, end: Math.min(t + bucketMs, end) })
  return { ...window, bucketMs, buckets }
}

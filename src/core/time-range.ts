/**
 * @module core/time-range
 * v2 time parameters (D-time: New Relic docs "Specify a time range (v2)") and the timeslice grid of a
 * metric-data call (D-extract "Extract metric timeslice data"):
 * every time format real clients send, the defaults, the 60 s minimum, the default granularity,
 * `period`, and slice alignment. Pure: the caller passes `now`.
 */
import {
  defaultGranularity,
  maxBuckets,
  metricRollups,
  minimumSliceSeconds,
  oldDataAfterSeconds,
} from '../../mappings/granularity'
import { V2Error } from './errors'

const second = 1000
const minute = 60 * second
/** Both ends omitted → the last 30 minutes (D-time); only `to` → the 30 minutes before it
 * [UNCONFIRMED proposal]. */
const defaultRangeMs = 30 * minute
/** An unaligned window is shifted back by v2's data lag: New Relic docs "Extract metric timeslice
 * data" (18:06:06 → first slice 18:03) and the newrelic-client-go fixture (23:25:45 → 23:22) show
 * 3 minutes; older samples show 1–2 (D-names, AMB fixture). */
const lagMs = 3 * minute

/** v2 titles for rejected time parameters; all 422 (D-extract: a range under 60 s is 422; the
 * titles and the rest are [UNCONFIRMED proposals]). */
export const timeTitles = {
  from: "Invalid 'from' time", // unparsable: [UNCONFIRMED] proposal 422
  to: "Invalid 'to' time", // unparsable: [UNCONFIRMED] proposal 422
  order: "'from' must be before 'to'", // from > to: [UNCONFIRMED] proposal 422
  tooShort: 'The time range must be at least 60 seconds', // [CONFIRMED D-extract] 422
} as const

// date, optional time (`T` or space, seconds and fraction optional), then a zone: `Z`, `UTC`,
// `±HH[:]MM` / `±HH`, or ` HH:MM` / ` HHMM` (a `+` that arrived unencoded as a space), or none (UTC).
const timePattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)|\s+(\d{2}:?\d{2}))?$/i

/**
 * Parses one v2 time into epoch ms, or throws 422.
 * @example parseTime('2014-06-24 19:14:29 00:00', 'from') // 1403637269000 ("+00:00" sent unencoded)
 */
export function parseTime(raw: string, name: 'from' | 'to'): number {
  const text = raw
    .trim()
    .replace(/^"(.*)"$/s, '$1')
    .replace(/^'(.*)'$/s, '$1')
    .trim()
  const m = timePattern.exec(text)
  const ms = m ? toEpoch(m) : undefined
  if (ms === undefined) throw new V2Error(422, timeTitles[name])
  return ms
}

function toEpoch(m: RegExpExecArray): number | undefined {
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const fraction = Number(`0.${m[7] ?? '0'}`)
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined
  const date = new Date(0)
  date.setUTCFullYear(y, mo - 1, d)
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined // e.g. 02-30
  date.setUTCHours(h, mi, s, Math.floor(fraction * 1000))
  const offset = zoneOffsetMinutes(m[8] ?? (m[9] ? `+${m[9]}` : 'Z'))
  return offset === undefined ? undefined : date.getTime() - offset * minute
}

function zoneOffsetMinutes(zone: string): number | undefined {
  if (/^(Z|UTC|GMT)$/i.test(zone)) return 0
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)
  if (!m) return undefined
  const [hours, minutes] = [Number(m[2]), Number(m[3] ?? 0)]
  if (hours > 18 || minutes > 59) return undefined
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes)
}

/** `YYYY-MM-DDTHH:MM:SS+00:00`, the only time format v2 writes (D-time, D-extract: output in UTC).
 * Recent texts are remembered: calls polled every minute share all slice times but one. */
export function formatTime(ms: number): string {
  let text = timeTexts.get(ms)
  if (text === undefined) {
    if (timeTexts.size >= 4096) timeTexts.clear()
    timeTexts.set(ms, (text = `${new Date(ms).toISOString().slice(0, 19)}+00:00`))
  }
  return text
}

const timeTexts = new Map<number, string>()

export interface TimeInput {
  from?: string | undefined
  to?: string | undefined
  /** `period` in seconds, as sent. */
  period?: string | undefined
  summarize: boolean
}

export interface TimeRange {
  /** The requested (or defaulted) range at whole seconds, echoed in `metric_data.from/to`. */
  from: number
  to: number
  /** Start of the first slice and end of the last one (epoch ms, whole minutes). */
  start: number
  end: number
  /** Length of every slice in ms; `end − start` is a whole number of slices. */
  sliceMs: number
  summarize: boolean
}

/** Resolves defaults and validation (D-time) and the slice grid (D-extract). */
export function resolveTimeRange(input: TimeInput, now: number): TimeRange {
  const given = {
    from: input.from?.trim() ? parseTime(input.from, 'from') : undefined,
    to: input.to?.trim() ? parseTime(input.to, 'to') : undefined,
  }
  // NRQL takes SINCE/UNTIL as epoch ms ≥ 0 and NRDB holds nothing older: a range reaching before
  // 1970-01-01 starts there (a wholly older one is then shorter than 60 s: 422). A `to` after now
  // stays as sent: v2 echoed the request's `from`/`to` (all samples) and the grid is the requested
  // window's; its future slices are empty, answered 0 (D-extract's "zero value").
  const to = Math.max(0, truncateSeconds(given.to ?? now))
  const from = Math.max(0, truncateSeconds(given.from ?? to - defaultRangeMs))
  if (from > to) throw new V2Error(422, timeTitles.order)
  if (to - from < minimumSliceSeconds * second) throw new V2Error(422, timeTitles.tooShort)
  const { sliceMs, maxSlices, rollupMs } = sliceLength(from, to, now, input.period)
  // The default window ends at now, inside a minute that is not over, whatever second it is: it is
  // always moved back by the lag (in the first second of a minute `from` looks aligned).
  const lagged = given.from === undefined && given.to === undefined
  const slices = grid(from, to, sliceMs, { maxSlices, rollupMs, lagged })
  return { from, to, ...slices, summarize: input.summarize }
}

/** Whether a range reads data older than 8 days (D-extract), i.e. NRDB's hourly rollups: its first
 * slice may start up to the lag before `from`, so that margin counts as old too. */
function isOld(from: number, now: number): boolean {
  return floorMinute(now) - floorMinute(from) + lagMs > oldDataAfterSeconds * second
}

/** The rollup NRDB reads a window from (mappings/granularity.ts `metricRollups`), in ms. */
export function rollupOf(from: number, to: number, now: number): number {
  if (isOld(from, now)) return metricRollups.hour * second
  return (to - from) / second > metricRollups.fiveMinutesAfter
    ? metricRollups.fiveMinutes * second
    : metricRollups.minute * second
}

/**
 * Default granularity for the range, raised to `period` when that is coarser (D-extract). A range
 * starting more than 8 days ago reads hourly rollups only, so its slices are whole hours: D-extract's
 * "10 evenly spaced points" (under 4 days) become at most 10 slices of whole hours, since a slice
 * shorter than the hour holds no value of its own (D-extract: "oversampling", duplicate values).
 */
export function sliceLength(from: number, to: number, now: number, period?: string) {
  const rangeS = (to - from) / second
  const row = defaultGranularity.find((r) => rangeS <= r.upTo) ?? defaultGranularity.at(-1)!
  const rollupMs = rollupOf(from, to, now)
  const old = rollupMs === metricRollups.hour * second
  const base = !old ? row.fresh : row.old === 'tenPoints' ? tenPoints(rangeS) : row.old
  // A smaller period is clamped up to the default; a non-minute one is rounded up to whole minutes,
  // the only resolution v2 had (D-extract; what v2 did is [UNCONFIRMED], proposal: no error).
  // An unparsable or non-positive period is ignored, as Rails' `to_i` would leave it at 0.
  const asked = Number.parseInt(period ?? '', 10)
  const wanted = Number.isFinite(asked) && asked > 0 ? Math.ceil(asked / 60) * 60 : 0
  const sliceS = Math.max(base, wanted)
  // Stay within NRQL's bucket cap for very long ranges; whole rollups on old data.
  const unit = old ? metricRollups.hour : 60
  const capped = Math.max(sliceS, Math.ceil(rangeS / maxBuckets / 60) * 60)
  const sliceMs = Math.ceil(capped / unit) * unit * second
  return { sliceMs, maxSlices: old && row.old === 'tenPoints' ? 10 : maxBuckets, rollupMs }
}

/** A tenth of the range to the nearest whole hour, at least one: old data's "10 evenly spaced points". */
function tenPoints(rangeS: number): number {
  return Math.max(1, Math.round(rangeS / 10 / metricRollups.hour)) * metricRollups.hour
}

export interface GridOptions {
  maxSlices?: number
  /** The rollup NRDB reads the window from: a coarse grid ends on its edge. */
  rollupMs?: number
  /** Move a 1-minute grid back by the lag even when `from` is on a minute (a defaulted window). */
  lagged?: boolean
}

/**
 * Slice boundaries ([INFERRED] from the samples named below):
 * - 1-minute slices: an N-minute window (N = whole minutes of `to − from`) is N slices. A window
 *   starting on a minute is not shifted (prometheus newrelic exporter sample: 15:35:00–15:36:00 → one
 *   slice 15:35–15:36); any other, and the defaulted last 30 minutes, is shifted back by the data
 *   lag at both ends (docs "Extract metric timeslice data": 18:06:06 → 18:03; docs "List your app
 *   ID metric timeslice data": 23:41:15–00:11:15 → 30 slices).
 * - coarser slices: anchored on `floor(to)`, the partial leading slice dropped (TONS 14:48:43 → 15:00
 *   hourly; D-errrate 00:00 → 23:35 gives 00:35); a period longer than the range gives one slice.
 *   The end is moved down to the edge of the rollup NRDB reads (docs "Set a query's time range":
 *   Metric windows snap to rollup edges), so every slice is whole rollups (docs/differences.md).
 */
export function grid(from: number, to: number, sliceMs: number, options: GridOptions = {}) {
  const { maxSlices = maxBuckets, rollupMs = minute, lagged = false } = options
  if (sliceMs === minute) {
    const first = Math.max(0, from % minute === 0 && !lagged ? from : floorMinute(from) - lagMs)
    const end = first + Math.floor((to - from) / minute) * minute
    return { start: Math.max(first, end - maxSlices * minute), end, sliceMs }
  }
  const end = Math.floor(floorMinute(to) / rollupMs) * rollupMs
  const whole = Math.min(maxSlices, Math.floor((end - from) / sliceMs))
  if (whole < 1) {
    const start = Math.floor(floorMinute(from) / rollupMs) * rollupMs
    return { start, end: Math.max(end, start + rollupMs), sliceMs: Math.max(end - start, rollupMs) }
  }
  return { start: Math.max(0, end - whole * sliceMs), end, sliceMs }
}

/** The slices of a range: one per `sliceMs`, or a single one when summarized. */
export function slicesOf(range: TimeRange): { from: number; to: number }[] {
  if (range.summarize) return [{ from: range.start, to: range.end }]
  const out: { from: number; to: number }[] = []
  for (let t = range.start; t < range.end; t += range.sliceMs)
    out.push({ from: t, to: t + range.sliceMs })
  return out
}

function floorMinute(ms: number): number {
  return Math.floor(ms / minute) * minute
}

function truncateSeconds(ms: number): number {
  return Math.floor(ms / second) * second
}

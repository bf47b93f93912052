/** @module simulator/nrql/parse-time SINCE / UNTIL operands and `<N> <unit>` durations. */
import { NrqlError } from '../types'
import type { Duration, TimeSpec, TimeUnit } from './ast'
import type { Cursor } from './cursor'

const UNITS: Record<string, TimeUnit> = {
  SECOND: 'second',
  SECONDS: 'second',
  MINUTE: 'minute',
  MINUTES: 'minute',
  HOUR: 'hour',
  HOURS: 'hour',
  DAY: 'day',
  DAYS: 'day',
  WEEK: 'week',
  WEEKS: 'week',
}

export const UNIT_MS: Record<TimeUnit, number> = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
}

export function durationMs(d: Duration): number {
  return d.amount * UNIT_MS[d.unit]
}

function atUnit(cursor: Cursor, ahead = 0): boolean {
  const token = cursor.peek(ahead)
  return token.kind === 'ident' && Object.hasOwn(UNITS, token.value.toUpperCase())
}

/** `<positive integer> <unit>`. */
export function parseDuration(cursor: Cursor): Duration {
  const amount = cursor.expectInteger('a whole number followed by a time unit')
  if (amount <= 0) throw new NrqlError('A duration must be positive')
  if (!atUnit(cursor)) throw cursor.unexpected('a time unit (SECONDS, MINUTES, HOURS, DAYS)')
  return { amount, unit: UNITS[cursor.next().value.toUpperCase()] as TimeUnit }
}

/** An ISO 8601 date-time string with its zone, as New Relic docs "Set a query's time range" write
 * them (`'2023-12-20T00:04Z'`, `'2023-12-20T00:04:59Z'`, `'2023-12-20T00:04:59+01:00'`). */
const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/

/** `<epoch ms>` | `'<ISO date-time>'` | `<N> <unit> AGO` | `NOW` */
export function parseTimeSpec(cursor: Cursor): TimeSpec {
  if (cursor.acceptKeyword('NOW')) return { type: 'now' }
  const token = cursor.peek()
  if (token.kind === 'string') {
    const ms = isoTime.test(token.value) ? Date.parse(token.value) : NaN
    if (Number.isNaN(ms)) throw new NrqlError(`Invalid time '${token.value}'`)
    cursor.next()
    return { type: 'epoch', ms }
  }
  if (atUnit(cursor, 1)) {
    const { amount, unit } = parseDuration(cursor)
    cursor.expectKeyword('AGO')
    return { type: 'ago', amount, unit }
  }
  const ms = cursor.expectInteger('epoch milliseconds, `<N> <unit> AGO` or NOW')
  if (!Number.isSafeInteger(ms)) throw new NrqlError(`Invalid epoch milliseconds ${ms}`)
  return { type: 'epoch', ms }
}

/** Text NerdGraph reports in metadata.timeWindow (e.g. `60 MINUTES AGO`, `NOW`). */
export function timeSpecText(spec: TimeSpec): string {
  if (spec.type === 'now') return 'NOW'
  if (spec.type === 'epoch') return String(spec.ms)
  const unit = spec.unit.toUpperCase() + (spec.amount === 1 ? '' : 'S')
  return `${spec.amount} ${unit} AGO`
}

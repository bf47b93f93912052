/** @module simulator/data/apm/timeslices — one timeslice value by formula from (app, instance, metric, minute). */
import type { Application, Instance, MetricSpec } from '../model'
import { apdex, durations, sample } from './components'
import { combine, hashString, nth, unit } from '../prng'
import type { TimesliceValue } from '../../types'

export const MINUTE = 60_000

/** Load factor by minute of day (UTC): 0.25 at night, 1 at the peak. */
const DIURNAL = Float64Array.from({ length: 1440 }, (_, m) => {
  return 0.625 + 0.375 * Math.sin((2 * Math.PI * (m - 540)) / 1440)
})

export function diurnal(minute: number, phase: number): number {
  return DIURNAL[(((minute + phase) % 1440) + 1440) % 1440] ?? 1
}

/** What an instance served in one minute; every per-instance metric derives from it. */
export interface MinuteBase {
  web: number
  other: number
  load: number
  h: number
}

export function minuteBase(app: Application, inst: Instance, minute: number): MinuteBase {
  const t = app.traffic
  const load = diurnal(minute, t.phase)
  const h = combine(inst.key, minute)
  if (t.idle > 0 && unit(h) < t.idle * (1.5 - load)) return { web: 0, other: 0, load, h }
  const expected = t.rpm * inst.weight * load * (0.85 + 0.3 * nth(h, 1))
  const web = Math.floor(expected * (1 - t.otherRatio) + nth(h, 2))
  const other = Math.floor(expected * t.otherRatio + nth(h, 3))
  return { web, other, load, h }
}

function transactionCount(app: Application, base: MinuteBase, tx: number): number {
  const c = app.traffic.txCumulative
  return (
    Math.round(base.web * (c[tx] ?? 1)) - Math.round(base.web * (tx > 0 ? (c[tx - 1] ?? 0) : 0))
  )
}

function transaction(
  app: Application,
  inst: Instance,
  spec: MetricSpec,
  m: number,
  base: MinuteBase
) {
  const count = transactionCount(app, base, spec.tx)
  if (count === 0) return null
  const h = combine(combine(inst.key, spec.key), m)
  const slowdown = 0.8 + 0.4 * base.load
  return durations(count, spec.meanSeconds * slowdown, h, 0.35 + 0.3 * nth(h, 15))
}

/** The rollup of one-minute values: counts and sums add up, min of the mins, max of the maxes (New
 * Relic docs "Query APM metric timeslice data with NRQL": the six components of a timeslice). Apdex
 * rows keep s/t/f in the sums and the threshold in min and max, so they roll up the same way. */
export function rollUp(into: TimesliceValue | null, v: TimesliceValue): TimesliceValue {
  if (!into) return { ...v }
  into.count += v.count
  into.total += v.total
  into.totalExclusive += v.totalExclusive
  into.min = Math.min(into.min, v.min)
  into.max = Math.max(into.max, v.max)
  into.sumOfSquares += v.sumOfSquares
  return into
}

/** HttpDispatcher / WebTransaction: the exact rollup of the app's WebTransaction/* rows. */
function rollup(
  app: Application,
  inst: Instance,
  m: number,
  base: MinuteBase
): TimesliceValue | null {
  let out: TimesliceValue | null = null
  for (const spec of app.metrics) {
    if (spec.kind !== 'webTx') continue
    const v = transaction(app, inst, spec, m, base)
    if (v) out = rollUp(out, v)
  }
  return out
}

/** The browser apdex T of minute `m`'s rows: browser apdex is scored as data arrives, with the T then
 * set, so a settings update changes only later rows. Updates stack as prototypes
 * (create-dataset.ts `updateApplication`); the newest one in effect at the minute wins. */
export function browserApdexTAt(app: Application, m: number): number | null {
  for (let a = app; ; a = Object.getPrototypeOf(a) as Application) {
    const since = Object.hasOwn(a, 'browserApdexTSince') ? a.browserApdexTSince : undefined
    if (since !== undefined && m * 60_000 >= since) return a.browserApdexT
    const up: unknown = Object.getPrototypeOf(a)
    if (up === null || up === Object.prototype) return a.browserApdexT
  }
}

/** Page loads of minute `m` under the hash `h` (EndUser's own, or EndUser/Apdex's). */
function pageLoads(app: Application, m: number, h: number): number {
  const t = app.traffic
  return Math.floor(
    t.rpm * diurnal(m, t.phase) * t.browserRatio * (0.85 + 0.3 * nth(h, 1)) + nth(h, 2)
  )
}

/** The key of `EndUser` (metrics.ts keys a spec by its name's hash): Browser and EndUser/errors
 * count the same page views. */
const END_USER_KEY = hashString('EndUser')

function endUser(app: Application, inst: Instance, spec: MetricSpec, m: number) {
  const t = app.traffic
  const h = combine(combine(inst.key, spec.key), m)
  if (spec.kind === 'endUserApdex') {
    return apdex(pageLoads(app, m, h), t.satisfied, browserApdexTAt(app, m) ?? 7, h)
  }
  const views = combine(combine(inst.key, END_USER_KEY), m)
  const loads = pageLoads(app, m, views)
  if (loads === 0) return null
  if (spec.kind === 'endUserErrors') {
    // JavaScript errors per 100 page views around the rate browserSummary's jsErrorRate draws
    // (summary.ts), so the two stay alike.
    const rate = ((0.2 + 3 * nth(app.id, 52)) / 100) * (0.4 + 1.2 * nth(h, 5))
    const count = Math.floor(loads * rate + nth(h, 6))
    return count === 0
      ? null
      : { count, total: 0, totalExclusive: 0, min: 0, max: 0, sumOfSquares: 0 }
  }
  // EndUser, and Browser: the same page loads.
  const v = durations(loads, t.pageLoad, views, 0.55 + 0.15 * nth(views, 16))
  /** EndUser packs app (server) time in sumOfSquares [doc: migrate-to-nrql.mdx EndUser table]. */
  return { ...v, sumOfSquares: v.total * (0.1 + 0.1 * nth(views, 17)) }
}

/** The row value of one metric for one instance and minute (minute = epoch ms / 60 000), or null. */
export function valueAt(
  app: Application,
  inst: Instance,
  spec: MetricSpec,
  m: number
): TimesliceValue | null {
  const kind = spec.kind
  if (
    kind === 'endUser' ||
    kind === 'endUserApdex' ||
    kind === 'endUserErrors' ||
    kind === 'browser'
  )
    return endUser(app, inst, spec, m)
  const base = minuteBase(app, inst, m)
  const h = combine(combine(inst.key, spec.key), m)
  switch (kind) {
    case 'web':
      return rollup(app, inst, m, base)
    case 'webTx':
      return transaction(app, inst, spec, m, base)
    case 'other':
      return base.other === 0 ? null : durations(base.other, app.traffic.otherLatency, h, 0.5)
    case 'apdex':
      return apdex(base.web, app.traffic.satisfied * (1.08 - 0.16 * base.load), app.apdexT, h)
    case 'errors': {
      const calls = base.web + base.other
      const rate = (app.traffic.errorPct / 100) * (0.4 + 1.2 * nth(h, 5))
      const count = Math.min(calls, Math.floor(calls * rate + nth(h, 6)))
      return count === 0
        ? null
        : { count, total: 0, totalExclusive: 0, min: 0, max: 0, sumOfSquares: 0 }
    }
    case 'memory': {
      const drift = 1 + 0.08 * Math.sin((2 * Math.PI * m) / (1020 + (inst.key % 600)))
      return sample(inst.memoryMb * drift * (0.98 + 0.04 * nth(h, 7)))
    }
    case 'cpu': {
      const util = Math.min(
        inst.cpuShare,
        inst.cpuShare * (0.2 + 0.6 * base.load) * (0.85 + 0.3 * nth(h, 8))
      )
      return sample(60 * inst.cores * util)
    }
    case 'datastore':
    case 'external': {
      const count = transactionCount(app, base, spec.tx) * spec.callsPerRequest
      return count === 0 ? null : durations(count, spec.meanSeconds, h, 1)
    }
    case 'queue':
      return base.web === 0 ? null : durations(base.web, spec.meanSeconds * (0.5 + base.load), h, 1)
  }
}

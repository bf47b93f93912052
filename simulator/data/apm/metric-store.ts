/**
 * @module simulator/data/apm/metric-store — lazy `FROM Metric` rows, narrowed by the evaluator's
 * hints: one-minute rows for the last 8 days, and rollups of them (5-minute, hourly) as the window's
 * rollup asks, hourly ones kept 90 days (types.ts `Retention`).
 */
import type { Application } from '../model'
import { MINUTE, rollUp, valueAt } from './timeslices'
import {
  DEFAULT_RETENTION,
  type MetricRow,
  type MetricStore,
  type Retention,
  type ScanHint,
  type TimesliceValue,
} from '../../types'

const HOUR = 60 * MINUTE

/** Minutes with data: [start, end) in epoch ms; end is floor_minute(now), so the last row starts at end − 60 s. */
export function dataWindow(
  now: number,
  retention: Retention = DEFAULT_RETENTION
): { start: number; end: number } {
  const end = Math.floor(now / MINUTE) * MINUTE
  return { start: end - retention.minuteMs, end }
}

/** Rows of `rollupMs` with data: whole rollups only, hourly ones back to `hourMs`, finer ones as
 * far back as the one-minute data. */
function rollupWindow(now: number, rollupMs: number, retention: Retention) {
  const end = Math.floor(Math.floor(now / MINUTE) / (rollupMs / MINUTE)) * rollupMs
  const kept = rollupMs >= HOUR ? retention.hourMs : retention.minuteMs
  const start = Math.ceil((dataWindow(now, retention).end - kept) / rollupMs) * rollupMs
  return { start, end }
}

function rolledValue(
  app: Application,
  inst: MetricRowSource,
  t: number,
  rollupMs: number,
  from: number,
  to: number
): TimesliceValue | null {
  if (rollupMs === MINUTE) return valueAt(app, inst.inst, inst.spec, t / MINUTE)
  let out: TimesliceValue | null = null
  for (let m = Math.max(t, from); m < Math.min(t + rollupMs, to); m += MINUTE) {
    const v = valueAt(app, inst.inst, inst.spec, m / MINUTE)
    if (v) out = rollUp(out, v)
  }
  return out
}

/** One row per series and rollup out of one-minute rows (other entities' rows, resources/rows.ts). */
function* rollUpRows(rows: Iterable<MetricRow>, rollupMs: number): Generator<MetricRow> {
  const out = new Map<string, MetricRow>()
  for (const row of rows) {
    const t = Math.floor(row.timestamp / rollupMs) * rollupMs
    const key = [t, row.entityGuid, row.metricTimesliceName, row.instanceName, row.scope].join('|')
    const seen = out.get(key)
    if (seen) rollUp(seen.value, row.value)
    else out.set(key, { ...row, timestamp: t, value: { ...row.value } })
  }
  yield* out.values()
}

interface MetricRowSource {
  inst: Application['instances'][number]
  spec: Application['metrics'][number]
}

function* appRows(
  app: Application,
  since: number,
  until: number,
  hint: ScanHint,
  rollupMs: number
): Generator<MetricRow> {
  const names = hint.names ? new Set(hint.names) : null
  const hosts = hint.hosts ? new Set(hint.hosts) : null
  const end = app.stoppedAt === null ? until : Math.min(until, app.stoppedAt)
  for (let i = 0; i < app.instances.length; i++) {
    const inst = app.instances[i]!
    if (hosts && !hosts.has(inst.host)) continue
    const active = inst.activeFrom ?? since
    const start = Math.max(since, Math.floor(active / rollupMs) * rollupMs)
    for (const spec of app.metrics) {
      if (names && !names.has(spec.name)) continue
      if (!spec.perInstance && i !== 0) continue
      const source = { inst, spec }
      for (let t = start; t < end; t += rollupMs) {
        const value = rolledValue(app, source, t, rollupMs, active, end)
        if (!value) continue
        const row: MetricRow = {
          timestamp: t,
          accountId: app.accountId,
          appId: app.id,
          appName: app.name,
          entityGuid: app.guid,
          metricTimesliceName: spec.name,
          host: inst.host,
          instanceName: inst.instanceName,
          scope: spec.scope,
          value,
        }
        yield row
        if (hint.seriesOnce) break
      }
    }
  }
}

/** A MetricStore over the given apps; `now` bounds the data to the last complete minute (rollup). */
export function createMetricStore(
  appsOf: (accountId: number) => readonly Application[],
  now: () => number,
  /** Rows of other entities of the account (key transactions, mobile applications). */
  extra?: (accountId: number, since: number, until: number, hint: ScanHint) => Iterable<MetricRow>,
  retention: Retention = DEFAULT_RETENTION
): MetricStore {
  return {
    *scan(hint: ScanHint): Generator<MetricRow> {
      const rollupMs = hint.rollupMs ?? MINUTE
      const window = rollupWindow(now(), rollupMs, retention)
      const since = Math.max(Math.ceil(hint.since / rollupMs) * rollupMs, window.start)
      const until = Math.min(hint.until, window.end)
      if (!(since < until)) return
      const ids = hint.appIds ? new Set(hint.appIds) : null
      const guids = hint.entityGuids ? new Set(hint.entityGuids) : null
      for (const app of appsOf(hint.accountId)) {
        if (ids && !ids.has(app.id)) continue
        if (guids && !guids.has(app.guid)) continue
        yield* appRows(app, since, until, hint, rollupMs)
      }
      if (!extra) return
      const rows = extra(hint.accountId, since, until, { ...hint, rollupMs: MINUTE })
      yield* rollupMs === MINUTE ? rows : rollUpRows(rows, rollupMs)
    },
  }
}

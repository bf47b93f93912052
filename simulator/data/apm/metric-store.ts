/** @module simulator/data/apm/metric-store — lazy `FROM Metric` rows, narrowed by the evaluator's hints. */
import type { Application } from '../model'
import { MINUTE, valueAt } from './timeslices'
import type { MetricRow, MetricStore, ScanHint } from '../../types'

/** Days of timeslice data kept behind the last complete minute. */
export const RETENTION_DAYS = 9

/** Minutes with data: [start, end) in epoch ms; end is floor_minute(now), so the last row starts at end − 60 s. */
export function dataWindow(now: number): { start: number; end: number } {
  const end = Math.floor(now / MINUTE) * MINUTE
  return { start: end - RETENTION_DAYS * 86_400_000, end }
}

function* appRows(
  app: Application,
  since: number,
  until: number,
  hint: ScanHint
): Generator<MetricRow> {
  const names = hint.names ? new Set(hint.names) : null
  const hosts = hint.hosts ? new Set(hint.hosts) : null
  const end = app.stoppedAt === null ? until : Math.min(until, app.stoppedAt)
  for (let i = 0; i < app.instances.length; i++) {
    const inst = app.instances[i]!
    if (hosts && !hosts.has(inst.host)) continue
    const start = Math.max(since, inst.activeFrom ?? since)
    for (const spec of app.metrics) {
      if (names && !names.has(spec.name)) continue
      if (!spec.perInstance && i !== 0) continue
      for (let t = start; t < end; t += MINUTE) {
        const value = valueAt(app, inst, spec, t / MINUTE)
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

/** A MetricStore over the given apps; `now` bounds the data to the last complete minute. */
export function createMetricStore(
  appsOf: (accountId: number) => readonly Application[],
  now: () => number,
  /** Rows of other entities of the account (key transactions, mobile applications). */
  extra?: (accountId: number, since: number, until: number, hint: ScanHint) => Iterable<MetricRow>
): MetricStore {
  return {
    *scan(hint: ScanHint): Generator<MetricRow> {
      const window = dataWindow(now())
      const since = Math.max(Math.ceil(hint.since / MINUTE) * MINUTE, window.start)
      const until = Math.min(hint.until, window.end)
      if (!(since < until)) return
      const ids = hint.appIds ? new Set(hint.appIds) : null
      const guids = hint.entityGuids ? new Set(hint.entityGuids) : null
      for (const app of appsOf(hint.accountId)) {
        if (ids && !ids.has(app.id)) continue
        if (guids && !guids.has(app.guid)) continue
        yield* appRows(app, since, until, hint)
      }
      if (extra) yield* extra(hint.accountId, since, until, hint)
    },
  }
}

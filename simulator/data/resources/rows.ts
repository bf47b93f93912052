/**
 * @module simulator/data/resources/rows
 * `FROM Metric` rows of key transactions and mobile applications, computed like the APM rows
 * (data/apm/timeslices.ts), never stored. A key transaction reports, under its own entity GUID, the
 * timeslices of its parent's transaction plus `Apdex` against its own target, `Errors/all`, and
 * for browser-monitored parents `EndUser` and `EndUser/Apdex` (D-migrate: the migration
 * guide reads key-transaction timeslices `WHERE entity.guid = '<KT GUID>'`). Mobile applications
 * report `Session/Start`, `Session/Duration`, `Mobile/Crash/All` and `External/all` once a minute.
 */
import { apdex, durations } from '../apm/components'
import type { Application, Instance } from '../model'
import { combine, hashString, nth } from '../prng'
import { diurnal, MINUTE, valueAt } from '../apm/timeslices'
import type { MetricRow, ScanHint, TimesliceValue } from '../../types'
import type { KeyTransaction, MobileApp } from './catalog'

type Emit = (name: string, value: TimesliceValue | null) => void

function wanted(hint: ScanHint, guid: string, id: number): boolean {
  if (hint.entityGuids && !hint.entityGuids.includes(guid)) return false
  if (hint.appIds && !hint.appIds.includes(id)) return false
  return true
}

function scaled(v: TimesliceValue | null, share: number): TimesliceValue | null {
  if (!v) return null
  const count = Math.round(v.count * share)
  if (count === 0) return null
  const k = count / v.count
  return {
    ...v,
    count,
    total: v.total * k,
    totalExclusive: v.totalExclusive * k,
    sumOfSquares: v.sumOfSquares * k,
  }
}

function ktMinute(kt: KeyTransaction, inst: Instance, first: boolean, m: number, emit: Emit) {
  const app: Application = kt.app
  const spec = app.metrics.find(
    (s) => s.kind === 'webTx' && s.scope === null && s.name === kt.metricName
  )
  const v = spec ? valueAt(app, inst, spec, m) : null
  if (v) {
    const h = combine(combine(inst.key, kt.id), m)
    emit(kt.metricName, v)
    emit('Apdex', apdex(v.count, app.traffic.satisfied, kt.apdexTarget, h))
    const errors = Math.floor(
      v.count * (app.traffic.errorPct / 100) * (0.4 + 1.2 * nth(h, 5)) + nth(h, 6)
    )
    if (errors > 0)
      emit('Errors/all', {
        count: errors,
        total: 0,
        totalExclusive: 0,
        min: 0,
        max: 0,
        sumOfSquares: 0,
      })
  }
  if (!first || kt.browserApdexTarget === null) return
  for (const s of app.metrics) {
    if (s.kind === 'endUser' || s.kind === 'endUserApdex')
      emit(s.name, scaled(valueAt(app, inst, s, m), kt.share))
  }
}

export function* keyTransactionRows(
  kts: readonly KeyTransaction[],
  since: number,
  until: number,
  hint: ScanHint
): Generator<MetricRow> {
  const names = hint.names ? new Set(hint.names) : null
  for (const kt of kts) {
    if (!wanted(hint, kt.guid, kt.id)) continue
    const app = kt.app
    const end = app.stoppedAt === null ? until : Math.min(until, app.stoppedAt)
    for (let i = 0; i < app.instances.length; i++) {
      const inst = app.instances[i]!
      if (hint.hosts && !hint.hosts.includes(inst.host)) continue
      const start = Math.max(since, inst.activeFrom ?? since)
      for (let t = start; t < end; t += MINUTE) {
        const rows: MetricRow[] = []
        ktMinute(kt, inst, i === 0, t / MINUTE, (name, value) => {
          if (!value || (names && !names.has(name))) return
          rows.push({
            timestamp: t,
            accountId: kt.accountId,
            appId: kt.id,
            appName: kt.name,
            entityGuid: kt.guid,
            metricTimesliceName: name,
            host: inst.host,
            instanceName: inst.instanceName,
            scope: null,
            value,
          })
        })
        yield* rows
      }
    }
  }
}

export const MOBILE_METRICS = [
  'Session/Start',
  'Session/Duration',
  'Mobile/Crash/All',
  'External/all',
] as const

/** One mobile application minute: sessions, their duration, crashes and HTTP requests. */
export function mobileMinute(app: MobileApp, m: number): Map<string, TimesliceValue> {
  const out = new Map<string, TimesliceValue>()
  const h = combine(hashString(app.guid), m)
  const sessions = Math.floor(
    app.sessionsPerMinute * diurnal(m, app.id % 180) * (0.85 + 0.3 * nth(h, 1)) + nth(h, 2)
  )
  if (sessions === 0) return out
  const count = (n: number): TimesliceValue => ({
    count: n,
    total: 0,
    totalExclusive: 0,
    min: 0,
    max: 0,
    sumOfSquares: 0,
  })
  out.set('Session/Start', count(sessions))
  out.set('Session/Duration', durations(sessions, 95, h, 1))
  const crashes = Math.floor(sessions * (app.crashPct / 100) * (0.5 + nth(h, 3)) + nth(h, 4))
  if (crashes > 0) out.set('Mobile/Crash/All', count(crashes))
  out.set('External/all', durations(Math.round(sessions * (5 + 4 * nth(h, 5))), 0.35, h, 1))
  return out
}

export function* mobileRows(
  apps: readonly MobileApp[],
  since: number,
  until: number,
  hint: ScanHint
): Generator<MetricRow> {
  const names = hint.names ? new Set(hint.names) : null
  for (const app of apps) {
    if (!app.reporting || !wanted(hint, app.guid, app.id) || hint.hosts) continue
    for (let t = since; t < until; t += MINUTE) {
      for (const [name, value] of mobileMinute(app, t / MINUTE)) {
        if (names && !names.has(name)) continue
        yield {
          timestamp: t,
          accountId: app.accountId,
          appId: app.id,
          appName: app.name,
          entityGuid: app.guid,
          metricTimesliceName: name,
          host: '',
          instanceName: '',
          scope: null,
          value,
        }
      }
    }
  }
}

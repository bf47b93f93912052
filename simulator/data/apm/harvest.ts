/**
 * @module simulator/data/apm/harvest
 * When an application's agent reports, to the second, and its newest `Transaction` event. An agent
 * harvests once a minute ("The APM harvest cycle is 60 seconds", New Relic docs "Monitor
 * short-lived .NET processes"), counted from when it connected, so its reports fall at the same
 * second of every minute; events go every five seconds (New Relic docs "Details on APM real-time
 * streaming"), so the newest `Transaction` event is as recent as the last report. Modeled: one
 * harvest second per application (live, each agent instance has its own [model]); the report of
 * minute `m` leaves at `m` + that second, carrying the minute's newest `Transaction` event when the
 * minute had calls [model: where NRDB puts a harvest's data in its minutes is not public].
 */
import type { TransactionSource } from '../../types'
import type { Application } from '../model'
import { hashString, nth } from '../prng'
import { MINUTE, minuteBase } from './timeslices'

/** Milliseconds after each minute's start at which the application's agent reports: 1–58 s and
 * some milliseconds, never on `:00`. */
export function harvestOffsetMs(app: Application): number {
  const h = hashString(app.guid)
  return 1000 * (1 + Math.floor(58 * nth(h, 0))) + Math.floor(1000 * nth(h, 1))
}

/** Whether any instance of `app` served a transaction in the minute starting at `m` (epoch ms). */
function hadCalls(app: Application, m: number): boolean {
  return app.instances.some((inst) => {
    if (inst.activeFrom !== null && Math.floor(inst.activeFrom / MINUTE) * MINUTE > m) return false
    const base = minuteBase(app, inst, m / MINUTE)
    return base.web + base.other > 0
  })
}

/**
 * Epoch ms of the newest `Transaction` event of `app` in [since, until), or null: the newest minute
 * with calls among the minutes with data (`data`: [start, end), metric-store.ts `dataWindow`), at
 * its harvest second. Walks back from the window's end and stops at the first minute with calls,
 * so it reads a few minutes, never the whole window, unless the app served nothing.
 */
export function newestTransaction(
  app: Application,
  since: number,
  until: number,
  data: { start: number; end: number }
): number | null {
  const offset = harvestOffsetMs(app)
  const end = Math.min(data.end, app.stoppedAt ?? Infinity)
  const last = Math.min(Math.floor((until - 1 - offset) / MINUTE) * MINUTE, end - MINUTE)
  const first = Math.max(Math.ceil((since - offset) / MINUTE) * MINUTE, data.start)
  for (let m = last; m >= first; m -= MINUTE) if (hadCalls(app, m)) return m + offset
  return null
}

/** The `Transaction` events of `apps` as the NRQL engine reads them (nrql/transactions.ts): the
 * attributes every event of an application carries (New Relic docs "Events reported by APM":
 * `appId`, `appName`) and its newest event. */
export function transactionSources(
  apps: readonly Application[],
  data: { start: number; end: number }
): TransactionSource[] {
  return apps.map((app) => ({
    accountId: app.accountId,
    attributes: { appId: app.id, appName: app.name },
    newest: (since, until) => newestTransaction(app, since, until, data),
  }))
}

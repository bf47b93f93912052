/** @module simulator/dataset — the deterministic synthetic dataset and its ground-truth accessors. */
import { apmGuid, buildApplication, type BuildContext } from './applications'
import { ACCOUNTS, SHOWCASE, STAGING_APPS } from './catalog'
import { fleet } from './fleet'
import { createMetricStore, dataWindow } from './metric-store'
import type { Account, Application, Instance } from './model'
import { MINUTE } from './timeslices'
import type { MetricRow, MetricStore } from './types'

export const DEFAULT_SEED = 20250415

export interface TimesliceQuery {
  appId: number
  name: string
  host?: string
  instanceName?: string
  /** Inclusive, epoch ms (rows whose minute starts at or after it). */
  from: number
  /** Exclusive, epoch ms. */
  to: number
  /** Scoped rows of this transaction; unscoped rows (scope null) when absent. */
  scope?: string | null
}

export interface Dataset {
  readonly seed: number
  readonly accounts: readonly Account[]
  applications(accountId?: number): readonly Application[]
  application(appId: number): Application | undefined
  applicationByGuid(guid: string): Application | undefined
  hosts(appId: number): string[]
  instances(appId: number): readonly Instance[]
  metricNames(appId: number): string[]
  /** Rows of one metric, as the Metric event type holds them (the NRQL engine reads the same rows). */
  timeslices(query: TimesliceQuery): MetricRow[]
  readonly store: MetricStore
  /** Minutes with data: [start, end), end = floor_minute(now). */
  window(): { start: number; end: number }
  now(): number
}

/** Decodes an APM GUID in either base64 alphabet, padded or not; null when it is not one. */
export function decodeGuid(guid: string): { accountId: number; appId: number } | null {
  try {
    const text = atob(guid.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, ''))
    const match = /^(\d{1,10})\|APM\|APPLICATION\|(\d{1,19})$/.exec(text)
    return match ? { accountId: Number(match[1]), appId: Number(match[2]) } : null
  } catch {
    return null
  }
}

export function createDataset(seed = DEFAULT_SEED, now: () => number = Date.now): Dataset {
  const ctx: BuildContext = {
    seed,
    anchor: Math.floor(now() / MINUTE) * MINUTE,
    now,
    accounts: ACCOUNTS,
    instanceIds: new Set(),
  }
  const specs = [...SHOWCASE, ...fleet(seed), ...STAGING_APPS]
  const all = specs.map((spec) => buildApplication(spec, ctx))
  const byId = new Map(all.map((app) => [app.id, app]))
  if (byId.size !== all.length) throw new Error('duplicate application id in the catalog')
  const byAccount = new Map(
    ACCOUNTS.map((a) => [a.id, all.filter((app) => app.accountId === a.id)])
  )
  const appsOf = (accountId: number) => byAccount.get(accountId) ?? []
  const store = createMetricStore(appsOf, now)

  return {
    seed,
    accounts: ACCOUNTS,
    applications: (accountId) => (accountId === undefined ? all : appsOf(accountId)),
    application: (appId) => byId.get(appId),
    applicationByGuid(guid) {
      const ids = decodeGuid(guid)
      const app = ids ? byId.get(ids.appId) : undefined
      return app && apmGuid(ids!.accountId, ids!.appId) === app.guid ? app : undefined
    },
    hosts: (appId) => [...(byId.get(appId)?.hosts ?? [])],
    instances: (appId) => byId.get(appId)?.instances ?? [],
    metricNames: (appId) => [...new Set(byId.get(appId)?.metrics.map((m) => m.name) ?? [])],
    timeslices(query) {
      const app = byId.get(query.appId)
      if (!app) return []
      const scope = query.scope ?? null
      const rows = store.scan({
        accountId: app.accountId,
        appIds: [app.id],
        names: [query.name],
        ...(query.host === undefined ? {} : { hosts: [query.host] }),
        since: query.from,
        until: query.to,
      })
      return [...rows].filter(
        (row) =>
          row.scope === scope &&
          (query.instanceName === undefined || row.instanceName === query.instanceName)
      )
    },
    store,
    window: () => dataWindow(now()),
    now,
  }
}

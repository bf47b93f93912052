/** @module simulator/dataset — the deterministic synthetic dataset and its ground-truth accessors. */
import { apmGuid, buildApplication, type BuildContext } from './applications'
import { ACCOUNTS, SHOWCASE, STAGING_APPS } from './catalog'
import { createDeploymentStore, type DeploymentStore } from './deployment-store'
import { fleet } from './fleet'
import { createMetricStore, dataWindow } from './metric-store'
import type { Account, Application, Instance } from './model'
import { MINUTE } from './timeslices'
import type { MetricRow, MetricStore } from './types'
import { createResources, type Resources } from './resources'
import { apmEntity, type SimEntity } from './sim-entity'

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
  /** Change-tracking deployments: a seeded history plus those created since the last reset. */
  readonly deployments: DeploymentStore
  /** agentApplicationSettingsUpdate: the entity shows the new values; timeslices keep theirs. */
  updateApplication(appId: number, changes: ApplicationChanges): void
  /** agentApplicationDelete: the app leaves search, entity lookups and NRQL. */
  deleteApplication(appId: number): void
  /** Key transactions, browser and mobile applications, users, and what mutations changed. */
  readonly resources: Resources
  /** Every searchable entity: APM applications and resources/. */
  entities(): readonly SimEntity[]
  entityByGuid(guid: string): SimEntity | undefined
  /** Undoes every write (POST /_sim/reset): seeded deployments, original settings, no deletions,
   * seeded tags, no created browser or mobile applications. */
  reset(): void
}

/** What a settings update may change on an application. */
export interface ApplicationChanges {
  name?: string
  apdexT?: number
  browserApdexT?: number | null
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
  const base = specs.map((spec) => buildApplication(spec, ctx))
  const original = new Map(base.map((app) => [app.id, app]))
  if (original.size !== base.length) throw new Error('duplicate application id in the catalog')
  let byId = new Map(original)
  const group = (apps: Iterable<Application>) => {
    const list = [...apps]
    return new Map(ACCOUNTS.map((a) => [a.id, list.filter((app) => app.accountId === a.id)]))
  }
  let byAccount = group(byId.values())
  const appsOf = (accountId: number) => byAccount.get(accountId) ?? []
  const resources = createResources(base, ACCOUNTS, seed, now)
  // Timeslices come from the original apps (a new apdex T does not rewrite history).
  const store = createMetricStore(
    (accountId) => appsOf(accountId).map((app) => original.get(app.id)!),
    now,
    resources.rows
  )
  const showcase = SHOWCASE.map((spec) => original.get(spec.id)!)
  const deployments = createDeploymentStore(showcase, seed, ctx.anchor)
  let apmEntities: SimEntity[] | undefined
  const replace = (next: Map<number, Application>) => {
    byId = next
    byAccount = group(byId.values())
    apmEntities = undefined
  }
  const entities = (): SimEntity[] => [
    ...(apmEntities ??= [...byId.values()].map((app) =>
      apmEntity(dataset, app, () => resources.state.tags(app.guid) ?? app.tags)
    )),
    ...resources.entities(),
  ]

  const dataset: Dataset = {
    seed,
    accounts: ACCOUNTS,
    applications: (accountId) => (accountId === undefined ? [...byId.values()] : appsOf(accountId)),
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
    deployments,
    updateApplication(appId, changes) {
      const app = byId.get(appId)
      if (!app) return
      const props = Object.fromEntries(
        Object.entries(changes).map(([k, value]) => [k, { value, enumerable: true }])
      )
      // The prototype keeps every other field, getters included.
      replace(
        new Map([...byId].map(([id, a]) => [id, id === appId ? Object.create(app, props) : a]))
      )
    },
    deleteApplication(appId) {
      replace(new Map([...byId].filter(([id]) => id !== appId)))
    },
    resources,
    entities,
    entityByGuid: (guid) => entities().find((e) => e.guid === guid),
    reset() {
      replace(new Map(original))
      deployments.reset()
      resources.state.reset()
    },
  }
  return dataset
}

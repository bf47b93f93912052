/** @module simulator/data/create-dataset — builds the deterministic synthetic dataset (data/dataset.ts). */
import { apmEntity } from './apm/entity'
import { apmGuid, buildApplication, type BuildContext } from './apm/applications'
import { createDeploymentStore } from './apm/deployment-store'
import { fleet } from './apm/fleet'
import { createMetricStore, dataWindow } from './apm/metric-store'
import { MINUTE } from './apm/timeslices'
import { ACCOUNTS, SHOWCASE, STAGING_APPS, type AppSpec } from './catalog'
import { DEFAULT_SEED, decodeGuid, type Dataset } from './dataset'
import type { SimEntity } from './entity'
import type { Application } from './model'
import { createResources } from './resources'
import { createVisibility, createWriteHistory, type Visibility } from './visibility'
import { DEFAULT_RETENTION, type Retention } from '../types'

/** `visibility`: when writes show in NerdGraph's reads (data/visibility.ts); at once by default here,
 * the live delay through createSimulator. `retention`: timeslice retention and rollups. `extra`:
 * applications beside the catalog's (the fleet bench's, simulator.ts `stagingFleet`). */
export function createDataset(
  seed = DEFAULT_SEED,
  now: () => number = Date.now,
  visibility: Visibility = createVisibility(0),
  retention: Retention = DEFAULT_RETENTION,
  extra: readonly AppSpec[] = []
): Dataset {
  const ctx: BuildContext = {
    seed,
    anchor: Math.floor(now() / MINUTE) * MINUTE,
    now,
    accounts: ACCOUNTS,
    instanceIds: new Set(),
  }
  const specs = [...SHOWCASE, ...fleet(seed), ...STAGING_APPS, ...extra]
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
  const resources = createResources(base, ACCOUNTS, seed, now, visibility)
  // Timeslices come from the original apps (a new apdex T does not rewrite history).
  const store = createMetricStore(
    (accountId) => appsOf(accountId).map((app) => original.get(app.id)!),
    now,
    resources.rows,
    retention
  )
  const showcase = SHOWCASE.map((spec) => original.get(spec.id)!)
  const deployments = createDeploymentStore(showcase, seed, ctx.anchor, visibility)
  // Settings updates (renames included) as NerdGraph's reads show them: held back until visible.
  const updates = createWriteHistory<Application>(visibility)
  const shownApp = (app: Application) =>
    updates.shown(String(app.id))?.value ?? original.get(app.id)!
  let apmEntities: SimEntity[] | undefined
  let entitiesUntil = Infinity
  const replace = (next: Map<number, Application>) => {
    byId = next
    byAccount = group(byId.values())
    apmEntities = undefined
  }
  const entities = (): SimEntity[] => {
    if (visibility.clock() >= entitiesUntil) apmEntities = undefined
    if (!apmEntities) {
      entitiesUntil = updates.nextChange()
      apmEntities = [...byId.values()].map((app) => {
        const shown = shownApp(app)
        return apmEntity(dataset, shown, () => resources.state.shownTags(app.guid) ?? shown.tags)
      })
    }
    return [...apmEntities, ...resources.entities()]
  }

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
        ...(query.rollupMs === undefined ? {} : { rollupMs: query.rollupMs }),
      })
      return [...rows].filter(
        (row) =>
          row.scope === scope &&
          (query.instanceName === undefined || row.instanceName === query.instanceName)
      )
    },
    store,
    retention,
    window: () => dataWindow(now(), retention),
    now,
    deployments,
    updateApplication(appId, changes) {
      const app = byId.get(appId)
      if (!app) return
      const props = Object.fromEntries(
        Object.entries(changes).map(([k, value]) => [k, { value, enumerable: true }])
      )
      // The prototype keeps every other field, getters included.
      const updated = Object.create(app, props) as Application
      updates.write(String(appId), updated)
      replace(new Map([...byId].map(([id, a]) => [id, id === appId ? updated : a])))
    },
    deleteApplication(appId) {
      replace(new Map([...byId].filter(([id]) => id !== appId)))
    },
    resources,
    entities,
    entityByGuid: (guid) => entities().find((e) => e.guid === guid),
    reset() {
      replace(new Map(original))
      updates.clear()
      deployments.reset()
      resources.state.reset()
    },
  }
  return dataset
}

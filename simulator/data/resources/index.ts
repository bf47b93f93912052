/**
 * @module simulator/data/resources
 * Key transactions, browser and mobile applications and users of the dataset: their entities,
 * their `FROM Metric` rows and the state mutations change.
 */
import type { Account, Application } from '../model'
import type { EntityTag, SimEntity } from '../entity'
import type { MetricRow, ScanHint } from '../../types'
import {
  browserApps,
  keyTransactions,
  mobileApps,
  USERS,
  type BrowserApp,
  type KeyTransaction,
  type MobileApp,
  type SimUser,
} from './catalog'
import { browserEntity, keyTransactionEntity, mobileEntity, type EntityContext } from './entities'
import { keyTransactionRows, mobileRows } from './rows'
import { createResourceState, type ResourceState } from './state'
import type { Visibility } from '../visibility'

export interface Resources {
  readonly keyTransactions: readonly KeyTransaction[]
  readonly users: readonly SimUser[]
  readonly state: ResourceState
  mobile(): readonly MobileApp[]
  /** Browser applications, created ones included. */
  browser(): readonly BrowserApp[]
  /** Every resource entity, created ones included. */
  entities(): SimEntity[]
  /** Rows of one account in [since, until), narrowed by the hint. */
  rows(accountId: number, since: number, until: number, hint: ScanHint): Iterable<MetricRow>
}

/** A few labels (user tags) on the showcase and staging applications, for `GET /v2/labels`. */
function demoLabels(apps: readonly Application[]): Map<string, EntityTag[]> {
  const labels: Record<number, [string, string][]> = {
    9045822: [
      ['Team', 'Payments'],
      ['Environment', 'Production'],
    ],
    9045837: [
      ['Team', 'Storefront'],
      ['Environment', 'Production'],
    ],
    9045866: [
      ['Team', 'Storefront'],
      ['Environment', 'Production'],
    ],
    9045893: [
      ['Team', 'Payments'],
      ['Environment', 'Production'],
    ],
    9702201: [
      ['Team', 'Payments'],
      ['Environment', 'Staging'],
    ],
    9702214: [['Environment', 'Staging']],
  }
  const out = new Map<string, EntityTag[]>()
  for (const app of apps) {
    const extra = labels[app.id]
    if (!extra) continue
    out.set(app.guid, [...app.tags, ...extra.map(([key, value]) => ({ key, values: [value] }))])
  }
  return out
}

export function createResources(
  apps: readonly Application[],
  accounts: readonly Account[],
  seed: number,
  now: () => number,
  visibility?: Visibility
): Resources {
  const state = createResourceState(seed, demoLabels(apps), visibility)
  const kts = keyTransactions(apps, seed)
  const browser = browserApps(apps, seed)
  const mobile = mobileApps(seed)
  // Entities are what NerdGraph reads: they show tags once visible (data/visibility.ts).
  const ctx: EntityContext = { accounts, tags: (guid) => state.shownTags(guid), now }
  const ktEntities = kts.map((kt) => keyTransactionEntity(kt, ctx))
  return {
    keyTransactions: kts,
    users: USERS,
    state,
    mobile: () => [...mobile, ...state.createdMobile],
    browser: () => [...browser, ...state.createdBrowser],
    entities: () => [
      ...ktEntities,
      ...[...browser, ...state.createdBrowser].map((b) => browserEntity(b, ctx)),
      ...[...mobile, ...state.createdMobile].map((m) => mobileEntity(m, ctx)),
    ],
    *rows(accountId, since, until, hint) {
      yield* keyTransactionRows(
        kts.filter((kt) => kt.accountId === accountId),
        since,
        until,
        hint
      )
      yield* mobileRows(
        mobile.filter((m) => m.accountId === accountId),
        since,
        until,
        hint
      )
    },
  }
}

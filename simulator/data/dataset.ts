/**
 * @module simulator/data/dataset
 * What the rest of the simulator reads of the dataset: the Dataset interface (built by
 * create-dataset.ts) and its plain helpers. Types only, besides DEFAULT_SEED and decodeGuid, so any
 * module may depend on it without reaching the builder.
 */
import type { DeploymentStore } from './apm/deployment-store'
import type { SimEntity } from './entity'
import type { Account, Application, Instance } from './model'
import type { Resources } from './resources'
import type { MetricRow, MetricStore, Retention } from '../types'

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
  /** Rollup rows of this length (ms): hourly ones reach back 90 days; one minute when absent. */
  rollupMs?: number
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
  /** How long each resolution is kept (types.ts `Retention`). */
  readonly retention: Retention
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
  browserApdexTSince?: number
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

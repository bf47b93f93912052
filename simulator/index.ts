/**
 * @module simulator — the public entry of the NerdGraph simulator, a stand-in for NerdGraph and for
 * the REST API v2 endpoints New Relic keeps (README.md). Everything outside simulator/ and
 * test/simulator/ imports from here (scripts/import-rules.ts). This file only re-exports.
 */

// The simulator and its server
export { createSimulator, type Simulator, type SimulatorOptions } from './simulator'
export {
  startSimulatorServer,
  type SimulatorServer,
  type SimulatorServerOptions,
} from './node-server'
export type { FaultConfig, LimitedStats, LiveLimits } from './server/limits'
export { LIVE_LIMITS } from './server/limits'
export type { QueryCost } from './graphql/nrql-limits'
export type { Perturbation, V2Switches } from './v2/perturb'
export type { SimStats } from './graphql/stats'
export { ACCESS_DENIED, OTHERS_KEYS, type AccessOptions } from './graphql/access'
export { SCHEMA_SDL } from './graphql/schema'

// The dataset: keys, accounts, applications, ground truth
export {
  DEMO_KEY_ACCOUNTS,
  DEMO_KEYS,
  DEMO_LEGACY_KEYS,
  FLEET_KEYS,
  maskKey,
  type FleetKey,
} from './data/keys'
export { KEY_SEARCH_PAGE } from './graphql/api-access'
export { ACCOUNTS, PRODUCTION, SHOWCASE, STAGING, STAGING_APPS } from './data/catalog'
export { DEFAULT_SEED, decodeGuid, type Dataset, type TimesliceQuery } from './data/dataset'
export { apmGuid } from './data/apm/applications'
export { dataWindow } from './data/apm/metric-store'
export { harvestOffsetMs } from './data/apm/harvest'
export { alertsOf, type AlertsState } from './data/alerts/state'
export type { EntityTag, SimEntity } from './data/entity'
export type { Account, AlertSeverity, Application, Instance, Language } from './data/model'

// Entity search and NRQL, usable on their own
export { compileSearch, SearchSyntaxError } from './graphql/entity-search'
export { parseNrql, runNrql } from './nrql'
export { resolveWindow, rollupOf, type QueryWindow } from './nrql/window'
export type { Condition, NrqlQuery, SelectExpr } from './nrql/ast'
export {
  DEFAULT_RETENTION,
  NrqlError,
  type Retention,
  type MetricRow,
  type MetricStore,
  type NrqlContext,
  type NrqlResult,
  type ScanHint,
  type TimesliceValue,
} from './types'

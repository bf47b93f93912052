/** @module simulator — an in-process NerdGraph stand-in: synthetic dataset, GraphQL subset, admin API. */
import { alertsOf } from './alerts'
import { createSimulatorApp } from './app'
import { createDataset, DEFAULT_SEED, type Dataset } from './dataset'
import { createConcurrency, createFaults } from './limits'
import { createStats, type SimStats } from './stats'

export { DEMO_KEYS, DEMO_LEGACY_KEYS, maskKey } from './keys'
export { apmGuid } from './applications'
export { ACCOUNTS, PRODUCTION, SHOWCASE, STAGING, STAGING_APPS } from './catalog'
export { DEFAULT_SEED, decodeGuid, type Dataset, type TimesliceQuery } from './dataset'
export { dataWindow, RETENTION_DAYS } from './metric-store'
export { SCHEMA_SDL } from './schema'
export {
  startSimulatorServer,
  type SimulatorServer,
  type SimulatorServerOptions,
} from './node-server'
export type { Account, AlertSeverity, Application, Instance, Language } from './model'
export type { FaultConfig } from './limits'
export type { SimStats } from './stats'
export type { MetricRow, TimesliceValue } from './types'

export interface SimulatorOptions {
  seed?: number
  /** Clock in epoch ms; defaults to Date.now. */
  now?: () => number
}

export interface Simulator {
  /** Serves POST /graphql and /_sim/* in-process (no sockets). */
  fetch(request: Request): Promise<Response>
  /** Ground truth for tests. */
  dataset: Dataset
  stats(): SimStats
  /** Clears stats and faults and undoes every write (mutations). */
  reset(): void
}

export function createSimulator(opts: SimulatorOptions = {}): Simulator {
  const seed = opts.seed ?? DEFAULT_SEED
  const dataset = createDataset(seed, opts.now ?? Date.now)
  const stats = createStats()
  const faults = createFaults(seed)
  const app = createSimulatorApp({ dataset, stats, faults, concurrency: createConcurrency() })
  return {
    fetch: async (request) => app.fetch(request),
    dataset,
    stats: () => stats.snapshot(),
    reset() {
      stats.reset()
      faults.clear()
      dataset.reset()
      alertsOf(dataset).reset()
    },
  }
}

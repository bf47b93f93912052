/** @module simulator/simulator — createSimulator: one dataset, its NerdGraph, v2 stand-in and admin API. */
import { alertsOf } from './data/alerts/state'
import { createDataset } from './data/create-dataset'
import { DEFAULT_SEED, type Dataset } from './data/dataset'
import { createStats, type SimStats } from './graphql/stats'
import { createSimulatorApp } from './server/app'
import { createConcurrency, createFaults } from './server/limits'
import { DEFAULT_RETENTION, type Retention } from './types'
import { initV2Switches, v2SwitchesOf, type V2Switches } from './v2/perturb'

export interface SimulatorOptions {
  seed?: number
  /** Clock in epoch ms; defaults to Date.now. */
  now?: () => number
  /** The v2 stand-in's switches at start-up (and after reset): one perturbation in every 2xx answer,
   * and noise on values over windows ending now (README "v2 stand-in"). */
  v2?: Partial<V2Switches>
  /** Timeslice retention and rollups (types.ts `Retention`): 8 days of minutes, 90 of hours by
   * default; a test may shrink them. */
  retention?: Partial<Retention>
}

export interface Simulator {
  /** Serves POST /graphql, /v2/* and /_sim/* in-process (no sockets). */
  fetch(request: Request): Promise<Response>
  /** Ground truth for tests. */
  dataset: Dataset
  stats(): SimStats
  /** Clears stats and faults and undoes every write (mutations). */
  reset(): void
}

export function createSimulator(opts: SimulatorOptions = {}): Simulator {
  const seed = opts.seed ?? DEFAULT_SEED
  const dataset = createDataset(seed, opts.now ?? Date.now, {
    ...DEFAULT_RETENTION,
    ...opts.retention,
  })
  initV2Switches(dataset, opts.v2)
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
      const v2 = v2SwitchesOf(dataset)
      v2.current = { ...v2.initial }
    },
  }
}

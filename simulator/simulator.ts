/** @module simulator/simulator — createSimulator: one dataset, its NerdGraph, v2 stand-in and admin API. */
import { fleet } from './data/apm/fleet'
import { STAGING, type AppSpec } from './data/catalog'
import { createDataset } from './data/create-dataset'
import { DEFAULT_SEED, type Dataset } from './data/dataset'
import { createVisibility } from './data/visibility'
import { initAccess, type AccessOptions } from './graphql/access'
import { setNrqlLimits } from './graphql/nrql-caps'
import { createNrqlLimits } from './graphql/nrql-limits'
import { createStats, type SimStats } from './graphql/stats'
import { resetSimulator } from './server/admin'
import { createSimulatorApp } from './server/app'
import {
  createConcurrency,
  createFaults,
  createRefusals,
  LIVE_LIMITS,
  type LimitedStats,
  type LiveLimits,
} from './server/limits'
import type { SimulatorServices } from './server/services'
import { DEFAULT_RETENTION, type NrqlLimits, type Retention } from './types'
import { initV2Switches, type V2Switches } from './v2/perturb'

export interface SimulatorOptions {
  seed?: number
  /** Clock in epoch ms; defaults to Date.now. */
  now?: () => number
  /** The v2 stand-in's switches at start-up (and after reset): one perturbation in every 2xx answer,
   * and noise on values over windows ending now (README "v2 stand-in"). */
  v2?: Partial<V2Switches>
  /** NRDB's caps, smaller for a test: `limitMax` (the facets `LIMIT MAX` answers, 5,000 live) and
   * `uniquesCap` (the values a `uniques()` answers, 10,000 live). */
  nrql?: Partial<NrqlLimits>
  /** How many other users' keys an admin's key search finds, and the lenient `FORBIDDEN` switch
   * for another account (graphql/access.ts; README "How it differs from the live NerdGraph"). */
  access?: AccessOptions
  /** The live limits, each shrunk or switched off for a test (`Infinity`, `0` or `false`: README
   * "How it differs from the live NerdGraph"); the live figures by default. */
  limits?: Partial<LiveLimits>
  /** Wall clock of the limits and of write visibility (real minutes, whatever `now` says). */
  wallClock?: () => number
  /** Timeslice retention and rollups (types.ts `Retention`): 8 days of minutes, 90 of hours by
   * default; a test may shrink them. */
  retention?: Partial<Retention>
  /** Generated applications added to the STAGING account, for the fleet bench (bench/fleet.ts),
   * whose second account needs as many applications as the first; none by default. */
  stagingFleet?: number
}

/** `count` generated applications in STAGING: the first fleet specs, moved and renamed. */
function stagingFleet(seed: number, count: number): AppSpec[] {
  return fleet(seed)
    .slice(0, count)
    .map((spec, i) => ({
      ...spec,
      id: 9_800_011 + 11 * i,
      accountId: STAGING.id,
      name: `Staging Fleet ${String(i + 1).padStart(3, '0')}`,
    }))
}

export interface Simulator {
  /** Serves POST /graphql, /v2/* and /_sim/* in-process (no sockets). */
  fetch(request: Request): Promise<Response>
  /** Ground truth for tests. */
  dataset: Dataset
  /** What `GET /_sim/stats` answers. */
  stats(): SimStats & { limited: LimitedStats }
  /** Clears stats and faults, undoes every write (mutations) and restores the start-up limits. */
  reset(): void
}

export function createSimulator(opts: SimulatorOptions = {}): Simulator {
  const seed = opts.seed ?? DEFAULT_SEED
  const initial: LiveLimits = { ...LIVE_LIMITS, ...opts.limits }
  const wallClock = opts.wallClock ?? Date.now
  const visibility = createVisibility(initial.writeVisibilityMs, wallClock)
  const dataset = createDataset(
    seed,
    opts.now ?? Date.now,
    visibility,
    {
      ...DEFAULT_RETENTION,
      ...opts.retention,
    },
    stagingFleet(seed, opts.stagingFleet ?? 0)
  )
  initV2Switches(dataset, opts.v2)
  setNrqlLimits(dataset, opts.nrql)
  initAccess(dataset, opts.access)
  const concurrency = createConcurrency(initial.concurrentPerUser)
  const refusals = createRefusals()
  const nrqlLimits = createNrqlLimits(initial, wallClock, (refusal, accountId) =>
    refusals.query(refusal, accountId)
  )
  let current = initial
  const services: SimulatorServices = {
    dataset,
    stats: createStats(),
    faults: createFaults(seed),
    concurrency,
    nrqlLimits,
    refusals,
    visibility,
    limits: {
      current: () => current,
      set(next) {
        current = next
        concurrency.limit = next.concurrentPerUser
        visibility.delayMs = next.writeVisibilityMs
        nrqlLimits.reset(next)
      },
      reset: () => services.limits.set(initial),
    },
  }
  const app = createSimulatorApp(services)
  return {
    fetch: async (request) => app.fetch(request),
    dataset,
    stats: () => ({ ...services.stats.snapshot(), limited: refusals.snapshot() }),
    reset: () => resetSimulator(services),
  }
}

/** @module simulator/server/services — what one simulator's HTTP app (app.ts, admin.ts) works on. */
import type { Dataset } from '../data/dataset'
import type { StatsRecorder } from '../graphql/stats'
import type { Concurrency, Faults } from './limits'

export interface SimulatorServices {
  readonly dataset: Dataset
  readonly stats: StatsRecorder
  readonly faults: Faults
  readonly concurrency: Concurrency
}

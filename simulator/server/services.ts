/** @module simulator/server/services — what one simulator's HTTP app (app.ts, admin.ts) works on. */
import type { Dataset } from '../data/dataset'
import type { Visibility } from '../data/visibility'
import type { NrqlLimits } from '../graphql/nrql-limits'
import type { StatsRecorder } from '../graphql/stats'
import type { Concurrency, Faults, LiveLimits, Refusals } from './limits'

export interface SimulatorServices {
  readonly dataset: Dataset
  readonly stats: StatsRecorder
  readonly faults: Faults
  readonly concurrency: Concurrency
  readonly nrqlLimits: NrqlLimits
  /** The 429s answered and the queries refused, by limit (`/_sim/stats` `limited`). */
  readonly refusals: Refusals
  readonly visibility: Visibility
  /** The limits now in force, and setting them (each part above follows). */
  readonly limits: { current(): LiveLimits; set(limits: LiveLimits): void; reset(): void }
}

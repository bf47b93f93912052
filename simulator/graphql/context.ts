/** @module simulator/graphql/context — what every resolver receives as graphql-js's context value. */
import type { Dataset } from '../data/dataset'
import type { Principal } from '../data/keys'
import type { NrqlLimits, Refusal } from './nrql-limits'
import type { StatsRecorder } from './stats'

export interface GraphContext {
  readonly principal: Principal
  readonly dataset: Dataset
  readonly stats: StatsRecorder
  /** The live NRQL limits and cost model (graphql/nrql-limits.ts). */
  readonly nrqlLimits: NrqlLimits
  /** When the request was admitted (`performance.now()`): a query's modeled duration counts from
   * there, as NerdGraph runs a user's requests side by side rather than one after another. */
  readonly admittedAt: number
  /** Set by a query the NRQL limits refused: the whole request answers HTTP 429 (server/app.ts). */
  refused?: Refusal
}

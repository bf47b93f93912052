/** @module simulator/graphql/context — what every resolver receives as graphql-js's context value. */
import type { Dataset } from '../data/dataset'
import type { Principal } from '../data/keys'
import type { StatsRecorder } from './stats'

export interface GraphContext {
  readonly principal: Principal
  readonly dataset: Dataset
  readonly stats: StatsRecorder
}

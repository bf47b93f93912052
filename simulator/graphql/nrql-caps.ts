/** @module simulator/graphql/nrql-caps — the NRDB caps one simulator's NRQL answers by (createSimulator's
 * `nrql` option; the live caps when absent, simulator/types.ts `NrqlLimits`). */
import type { Dataset } from '../data/dataset'
import type { NrqlLimits } from '../types'

const limits = new WeakMap<Dataset, Partial<NrqlLimits>>()

export function setNrqlLimits(dataset: Dataset, caps: Partial<NrqlLimits> = {}): void {
  limits.set(dataset, caps)
}

export function nrqlLimitsOf(dataset: Dataset): Partial<NrqlLimits> {
  return limits.get(dataset) ?? {}
}

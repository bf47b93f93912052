/**
 * @module simulator/data/alerts/state — the alerts state of one simulator: policies, NRQL conditions, notification
 * channels, issues and incidents, with the state changes NerdGraph's mutations (and the v2 stand-in's
 * writes) make. Created lazily per dataset; `POST /_sim/reset` restores the seed.
 */
import type { Dataset } from '../dataset'
import {
  alertsSeed,
  type AlertsSeed,
  type SimChannel,
  type SimIncident,
  type SimIssue,
} from './seed'

export type { SimChannel, SimIncident, SimIssue, SimNrqlCondition, SimPolicy } from './seed'

export interface AlertsState extends AlertsSeed {
  /** Next id for created policies, conditions and channels. */
  nextId(): number
  /** Counts resets, so state derived from the seed (the v2 stand-in's rows) knows to start over. */
  epoch: number
  reset(): void
  issueOpen(issue: SimIssue): boolean
  issueState(issue: SimIssue): 'ACTIVATED' | 'CLOSED'
  /** Closes an issue and its incidents at `at`. */
  resolveIssue(issue: SimIssue, at: number, by: string | null): void
  channelsOf(accountId: number): SimChannel[]
  incidentsOf(issue: SimIssue): SimIncident[]
}

const states = new WeakMap<Dataset, AlertsState>()

/** The alerts state of `dataset`, created on first use. */
export function alertsOf(dataset: Dataset): AlertsState {
  let state = states.get(dataset)
  if (!state) states.set(dataset, (state = createAlertsState(dataset)))
  return state
}

function createAlertsState(dataset: Dataset): AlertsState {
  const anchor = Math.floor(dataset.now() / 60_000) * 60_000
  const name = (id: number) => dataset.application(id)?.name ?? `Application ${id}`
  let id = 8_100_000
  const state: AlertsState = {
    ...alertsSeed(dataset.seed, anchor, name),
    nextId: () => (id += 1),
    epoch: 0,
    reset() {
      Object.assign(state, alertsSeed(dataset.seed, anchor, name))
      id = 8_100_000
      state.epoch += 1
    },
    issueOpen: (issue: SimIssue) => issue.closedAt === null,
    issueState: (issue: SimIssue) => (issue.closedAt === null ? 'ACTIVATED' : 'CLOSED'),
    resolveIssue(issue: SimIssue, at: number, by: string | null) {
      issue.closedAt = at
      issue.closedBy = by
      for (const incident of state.incidentsOf(issue)) incident.closedAt ??= at
    },
    channelsOf: (accountId: number) => state.channels.filter((c) => c.accountId === accountId),
    incidentsOf: (issue: SimIssue) =>
      state.incidents.filter((i) => issue.incidentIds.includes(i.incidentId)),
  }
  return state
}

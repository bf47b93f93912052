/**
 * @module mappings/topology
 * Which timeslices show that an agent instance is alive, and for how long a host or instance stays
 * listed after it last reported.
 */

/** Every APM agent reports these unscoped timeslices each minute (New Relic docs "Query APM metric
 * timeslice data with NRQL": memory and
 * the web/other transaction rollups exist for all agents). */
export const presenceMetricNames = [
  'HttpDispatcher',
  'OtherTransaction/all',
  'Memory/Physical',
] as const

/** v2 lists hosts and instances that reported "for approximately the last hour" (New Relic docs
 * "List an app's host IDs and instance IDs"). */
export const membershipWindowMs = 60 * 60 * 1000

/** v2 summaries are "a rolling 3–4 minute average" (New Relic docs "Summary data examples (v2)";
 * v2 explorer notes); v2bridge uses the last
 * five whole minutes. */
export const summaryWindowMs = 5 * 60 * 1000

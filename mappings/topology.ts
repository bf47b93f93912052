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

/** v2 summaries are "a rolling three- to four-minute average" (New Relic docs "Summary data
 * examples (v2)"), "the last 3-4 minutes" (v2 explorer notes of the applications, hosts and
 * instances lists): the last three whole minutes, which begin 3 to 4 minutes before the call. */
export const summaryWindowMs = 3 * 60 * 1000

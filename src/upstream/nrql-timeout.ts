/**
 * @module upstream/nrql-timeout
 * The `timeout:` v2bridge gives an NRQL query, by the size of the call: NerdGraph answers a query
 * still running at its timeout with a TIMEOUT error, the timeout is 5 s unless the field says more,
 * and it is clamped to 5–120 s (schema `Account.nrql`; New Relic docs "Rate limits with NRQL": "The
 * default timeout for querying with NerdGraph is 5 seconds"). NRDB's work grows with the rows it
 * reads, which for timeslice data is names × minutes × instances; v2bridge knows the first two.
 */

/** Seconds for the smallest call: twice NerdGraph's default, for a slow NRDB. */
export const baseNrqlTimeoutS = 10
/** One more second per this many name-minutes (50 names over 4 days: 24 s). */
export const nameMinutesPerSecond = 20_000
/** NerdGraph's clamp (schema `Account.nrql`). */
export const nrqlTimeoutRangeS = { min: 5, max: 120 } as const

/** `timeout:` for a query over `names` metric names and `minutes` minutes of data. */
export function nrqlTimeoutS(names: number, minutes: number): number {
  const seconds = baseNrqlTimeoutS + Math.floor((names * minutes) / nameMinutesPerSecond)
  return Math.min(nrqlTimeoutRangeS.max, Math.max(nrqlTimeoutRangeS.min, seconds))
}

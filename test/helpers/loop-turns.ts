/**
 * Counts the event loop's turns (one `setImmediate` each) while `job` runs: `count()` is the turn
 * the loop is in when it is called, and, once `result` settles, how many turns `job` took.
 */
export function turnsDuring<T>(job: () => Promise<T>): { result: Promise<T>; count: () => number } {
  let turns = 0
  let done = false
  const spin = () => {
    turns += 1
    if (!done) setImmediate(spin)
  }
  setImmediate(spin)
  const result = job().finally(() => (done = true))
  return { result, count: () => turns }
}

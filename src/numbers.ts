/**
 * @module numbers
 * v2 number formatting (contract §1.10): about three significant digits unless `raw=true`.
 */

/** Rounds to 3 significant digits: 99770 → 99800, 0.36412 → 0.364, 6.987 → 6.99. */
export function round3(value: number): number {
  if (!Number.isFinite(value) || value === 0) return Number.isFinite(value) ? value : 0
  return Number(value.toPrecision(3))
}

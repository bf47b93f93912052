/**
 * @module numbers
 * v2 number formatting (D-extract, D-summary, TONS samples; `raw` in the v2 explorer: "Return
 * unformatted raw values"): about three significant digits unless `raw=true`.
 */

/** How close to a half a scaled value must be for the exact (slow) path to decide the tie. */
const tieMargin = 1e-6

/** 10^k for k in −24…24, each the double nearest to the decimal (as parsing `1e-5` gives). */
const pow10 = Array.from({ length: 49 }, (_, i) => Number(`1e${i - 24}`))

/**
 * Rounds to 3 significant digits exactly as `Number(value.toPrecision(3))` does, about 10× faster:
 * the decimal exponent comes from `log10`, the rounding from `Math.round`, and only values within
 * a hair of a tie (where binary scaling could tip the result) take the `toPrecision` path.
 * @example round3(99770) // 99800; round3(0.36412) // 0.364; round3(-6.987) // -6.99
 */
export function round3(value: number): number {
  if (!Number.isFinite(value)) return 0
  if (value === 0) return 0
  const a = Math.abs(value)
  const e = Math.floor(Math.log10(a))
  let rounded: number
  if (e > 24 || e < -20) return exact(value)
  if (e >= 2) {
    const unit = pow10[e - 2 + 24]! // an exact integer up to 1e22
    const q = a / unit
    if (Math.abs(q - Math.floor(q) - 0.5) < tieMargin || unit > 1e22) return exact(value)
    rounded = Math.round(q) * unit
  } else {
    const scale = pow10[2 - e + 24]!
    const q = a * scale
    if (Math.abs(q - Math.floor(q) - 0.5) < tieMargin) return exact(value)
    rounded = Math.round(q) / scale
  }
  return value < 0 ? -rounded : rounded
}

function exact(value: number): number {
  return Number(value.toPrecision(3))
}

/**
 * Apdex scores and targets with at most 2 decimals, as every real v2 sample shows them (docs
 * "Summary data examples": `"apdex_score": 0.84`, `"apdex_target": 0.5`).
 * @example round2(0.8462) // 0.85; round2(7) // 7
 */
export function round2(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 100) / 100 : 0
}

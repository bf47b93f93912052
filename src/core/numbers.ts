/**
 * @module core/numbers
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
  const e = exponentOf(a)
  if (e > 24 || e < -20) return exact(value)
  const m = mantissa3(a, e)
  if (m < 0) return exact(value)
  // An exact integer times an exact power of ten (up to 1e22): one IEEE rounding, as the decimal.
  const rounded = e >= 2 ? m * pow10[e - 2 + 24]! : m / pow10[2 - e + 24]!
  return value < 0 ? -rounded : rounded
}

/**
 * `JSON.stringify(round3(value))` without the generic double-to-text conversion. `round3` gives the
 * double nearest to `m × 10^(e−2)` (m a 3-digit integer), whose shortest round-trip text is m's
 * digits placed by ECMA-262 Number::toString (a plain decimal from 1e-6 up to 1e21); the texts come
 * from tables indexed by m. Exponent forms and near-ties take `JSON.stringify(round3(value))`.
 * @example round3Json(0.36412) // '0.364'; round3Json(99770) // '99800'; round3Json(NaN) // '0'
 */
export function round3Json(value: number): string {
  if (!Number.isFinite(value) || value === 0) return '0'
  const a = Math.abs(value)
  let e = exponentOf(a)
  let m = e > 18 || e < -7 ? -1 : mantissa3(a, e)
  if (m < 0) return generic(value)
  if (m === 1000) ((m = 100), e++)
  const n = e + 1 // the text's digits before the point: |value| = 0.ddd × 10^n
  let text: string
  if (n > 2) text = digits[m]! + zeros[n - 3]!
  else if (n > 0) text = (n === 1 ? oneWhole : twoWhole)[m]!
  else if (n > -6) text = leads[-n]! + significant[m]!
  else return generic(value)
  return value < 0 ? `-${text}` : text
}

/** Near 1.8e308 `round3` gives Infinity, which JSON writes as `null`. */
const generic = (value: number) => JSON.stringify(round3(value))

const zeros = Array.from({ length: 20 }, (_, i) => '0'.repeat(i))
/** `0.`, `0.0`, … `0.00000`: the text before the digits of a value under 1. */
const leads = zeros.slice(0, 6).map((z) => `0.${z}`)
/** Per mantissa 100…999: its digits, without trailing zeros, and as `d.dd` and `dd.d` (trimmed). */
const digits = Array.from({ length: 1000 }, (_, m) => String(m))
const significant = digits.map((d) => d.replace(/0+$/, ''))
const oneWhole = digits.map((d) => `${d[0]}.${d.slice(1)}`.replace(/\.?0+$/, ''))
const twoWhole = digits.map((d) => `${d.slice(0, 2)}.${d[2]}`.replace(/\.?0+$/, ''))

/** `Math.floor(Math.log10(a))`, by comparison from 1 to 10^6, where the powers of ten are exact
 * doubles and most values fall (issue 39: `log10` took a tenth of the largest call's writing). */
function exponentOf(a: number): number {
  if (a >= 1 && a < 1e6)
    return a < 1e3 ? (a < 10 ? 0 : a < 100 ? 1 : 2) : a < 1e4 ? 3 : a < 1e5 ? 4 : 5
  return Math.floor(Math.log10(a))
}

/** The 3-digit integer mantissa of `a` (in 10^e…10^(e+1)), or −1 when a tie is too close to call. */
function mantissa3(a: number, e: number): number {
  const q = e >= 2 ? a / pow10[e - 2 + 24]! : a * pow10[2 - e + 24]!
  return Math.abs(q - Math.floor(q) - 0.5) < tieMargin ? -1 : Math.round(q)
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

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { round3, round3Json } from '../src/core/numbers'

const reference = (v: number) => Number(v.toPrecision(3))

/** Decimals with at most 7 significant digits, m × 10^e: where rounding ties live. */
const fewDigits = (minE: number, maxE: number) =>
  fc
    .tuple(fc.integer({ min: 1, max: 9_999_999 }), fc.integer({ min: minE, max: maxE }))
    .map(([m, e]) => m * 10 ** e)

describe('round3', () => {
  it.each([
    [99770, 99800],
    [0.36412, 0.364],
    [6.987, 6.99],
    [-6.987, -6.99],
    [364.4, 364],
    [999.5, 1000],
    [0.0009995, 0.000999], // binary 0.00099949999…
    [1e-7, 1e-7],
    [123456789012, 123000000000],
    [0.1235, 0.123], // binary 0.12349999…: the tie path keeps toPrecision's answer
    [2.675, 2.67], // binary 2.67499999…
    [1.5e25, 1.5e25],
    [0, 0],
    [-0, 0],
    [Number.NaN, 0],
    [Number.POSITIVE_INFINITY, 0],
  ])('rounds %d to %d', (value, rounded) => {
    expect(round3(value)).toBe(rounded)
  })

  it('agrees with toPrecision(3) on any finite double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
        expect(round3(v)).toBe(v === 0 ? 0 : reference(v))
      }),
      { numRuns: 20_000 }
    )
  })

  it('agrees with toPrecision(3) on decimal values with few digits, where ties live', () => {
    fc.assert(
      fc.property(fewDigits(-12, 12), (v) => {
        expect(round3(v)).toBe(reference(v))
        expect(round3(-v)).toBe(reference(-v))
      }),
      { numRuns: 20_000 }
    )
  })
})

/** `v` and the doubles next to it: where the exponent by comparison (1 to 10^6) meets `log10`. */
function neighbours(v: number): number[] {
  const bits = new BigInt64Array(new Float64Array([v]).buffer)
  const at = (d: bigint) => new Float64Array(new BigInt64Array([bits[0]! + d]).buffer)[0]!
  return [at(-2n), at(-1n), v, at(1n), at(2n)]
}
const nearPowers = Array.from({ length: 8 }, (_, k) => neighbours(10 ** k)).flat()

describe('round3 and round3Json from 1 to 10^6, and next to its powers of ten', () => {
  it.each(nearPowers)('agree with toPrecision(3) at %d', (v) => {
    expect(round3(v)).toBe(reference(v))
    expect(round3Json(v)).toBe(JSON.stringify(reference(v)))
  })

  it('agree with toPrecision(3) on any double in that range', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 2e6, noNaN: true }), (v) => {
        expect(round3(v)).toBe(reference(v))
        expect(round3Json(v)).toBe(JSON.stringify(reference(v)))
      }),
      { numRuns: 20_000 }
    )
  })
})

describe('round3Json', () => {
  const json = (v: number) => JSON.stringify(round3(v))

  it.each([
    [0.36412, '0.364'],
    [99770, '99800'],
    [-6.987, '-6.99'],
    [999.7, '1000'],
    [0.0000123456, '0.0000123'],
    [1.234e-7, '1.23e-7'],
    [9.996e20, '1e+21'],
    [1.23456e19, '12300000000000000000'],
    [-0, '0'],
    [Number.NaN, '0'],
    [Number.MAX_VALUE, 'null'], // round3 gives Infinity there
  ])('writes %d as %s', (value, text) => {
    expect(round3Json(value)).toBe(text)
    expect(round3Json(value)).toBe(json(value))
  })

  it('is JSON.stringify(round3(v)) for any double', () => {
    fc.assert(
      fc.property(fc.double(), (v) => {
        expect(round3Json(v)).toBe(json(v))
      }),
      { numRuns: 20_000 }
    )
  })

  it('is JSON.stringify(round3(v)) for decimals with few digits, around ties and powers of ten', () => {
    fc.assert(
      fc.property(fewDigits(-14, 22), (v) => {
        expect(round3Json(v)).toBe(json(v))
        expect(round3Json(-v)).toBe(json(-v))
      }),
      { numRuns: 20_000 }
    )
  })
})

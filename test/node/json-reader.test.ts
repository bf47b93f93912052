/**
 * src/node/json-reader.ts against `JSON.parse` of the whole text: random JSON values, written with
 * random whitespace and cut into random chunks (inside strings, escapes, numbers and multi-byte
 * characters), read to the same value; random texts that are not all JSON throw where `JSON.parse`
 * throws and nowhere else.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { JsonReader } from '../../src/node/json-reader'

/** Reads `bytes` cut before each index of `cuts`; the value, or `'threw'` with the error's class. */
function read(bytes: Buffer, cuts: number[]): unknown {
  const reader = new JsonReader()
  try {
    let at = 0
    for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length)].sort((a, b) => a - b)) {
      reader.push(bytes.subarray(at, cut))
      at = cut
    }
    reader.push(bytes.subarray(at))
    return { value: reader.end() }
  } catch (err) {
    return { threw: (err as Error).constructor.name }
  }
}

function parsed(text: string): unknown {
  try {
    return { value: JSON.parse(text) }
  } catch (err) {
    return { threw: (err as Error).constructor.name }
  }
}

const space = fc.constantFrom('', ' ', '\n', '\t ', '\r\n  ')

/** `value` as JSON text with random whitespace between its tokens. */
function spaced(value: unknown, gaps: () => string): string {
  if (Array.isArray(value))
    return `[${gaps()}${value.map((v) => spaced(v, gaps)).join(`${gaps()},${gaps()}`)}${gaps()}]`
  if (value !== null && typeof value === 'object')
    return `{${gaps()}${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}${gaps()}:${gaps()}${spaced(v, gaps)}`)
      .join(`${gaps()},${gaps()}`)}${gaps()}}`
  return JSON.stringify(value)
}

const key = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constantFrom('__proto__', 'facet', '0', '12', 'a"b', 'x\\y', '],}{[', '},{', '}]')
)
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -0.5, 1e21, 123456789.125),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ unit: 'binary', maxLength: 12 }),
    // What the reader's guessed batch ends look for, inside strings (issue 39).
    fc.constantFrom('},{', '}]', '"},{"', '\\"}]'),
    fc.array(tie('value'), { maxLength: 6 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 })
  ),
})).value

describe('JsonReader', () => {
  it('reads every JSON text, however cut, as JSON.parse reads it whole', () => {
    fc.assert(
      fc.property(
        jsonValue,
        fc.array(space, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(2000), { maxLength: 40 }),
        (value, gaps, cuts) => {
          let g = 0
          const text = spaced(value, () => gaps[g++ % gaps.length]!)
          const bytes = Buffer.from(text)
          const ours = read(bytes, cuts) as { value: unknown }
          expect(ours).toEqual(parsed(text))
          // toEqual does not see key order or an own `__proto__`: the text does.
          expect(JSON.stringify(ours.value)).toBe(JSON.stringify(JSON.parse(text)))
        }
      ),
      { numRuns: 3000 }
    )
  })

  it('reads long runs of whitespace, skipped 4 KiB at a time, as JSON.parse does (issue 40)', () => {
    // Runs of spaces past 64 bytes, and runs that turn to other whitespace or to a token within or
    // just past a 4 KiB block, before, between and after tokens, cut anywhere.
    const long = fc.constantFrom(
      ' '.repeat(64),
      ' '.repeat(4096 + 64),
      ' '.repeat(3 * 4096 + 70),
      `${' '.repeat(100)}\n${' '.repeat(5000)}`,
      `\t${' '.repeat(63)}\r\n${' '.repeat(4095)}`,
      ' '.repeat(65 + 4095)
    )
    fc.assert(
      fc.property(
        jsonValue,
        fc.array(fc.oneof(space, long), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(20_000), { maxLength: 12 }),
        (value, gaps, cuts) => {
          let g = 0
          const gap = () => gaps[g++ % gaps.length]!
          const text = `${gap()}${spaced(value, gap)}${gap()}`
          expect(read(Buffer.from(text), cuts)).toEqual(parsed(text))
          expect(read(Buffer.from(`${text}${' '.repeat(9000)}x`), cuts)).toEqual(parsed(`${text}x`))
        }
      ),
      { numRuns: 300 }
    )
  })

  it('throws where JSON.parse throws, and only there', () => {
    const pieces = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      ' ',
      '"',
      '\\',
      '"a"',
      '1',
      '-',
      '.5',
      'e3',
      'true',
      'nul',
      'null',
      '"\\u00e9"',
      '"é"',
      '\u00a0',
      '[]',
      '{}',
      '"k":',
      '[1,',
      ',]',
      '[,',
      '},{',
      '}]',
      '[{',
      '"},{"'
    )
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 14 }),
        fc.array(fc.nat(40), { maxLength: 6 }),
        (parts, cuts) => {
          const text = parts.join('')
          expect(read(Buffer.from(text), cuts)).toEqual(parsed(text))
        }
      ),
      { numRuns: 20000 }
    )
  })

  it('gives `__proto__` as an own key, the later of two equal keys, at the first one’s place', () => {
    const text = '{"__proto__":{"polluted":1},"b":1,"a":2,"b":3,"rows":[{"__proto__":[]}]}'
    const value = read(Buffer.from(text), [3, 9, 40]) as { value: Record<string, unknown> }
    expect(Object.getPrototypeOf(value.value)).toBe(Object.prototype)
    expect(Object.keys(value.value)).toEqual(['__proto__', 'b', 'a', 'rows'])
    expect(value.value['b']).toBe(3)
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('reads a 5 MB answer cut into chunks of 64 KiB and of any size, with a long element across many', () => {
    const rows = Array.from({ length: 20000 }, (_, i) => ({
      facet: [`WebTransaction/Uri/${i}`, 'é'],
      beginTimeSeconds: 1_700_000_000 + i,
      'average.duration': i / 3,
    }))
    const long = { names: Array.from({ length: 40000 }, (_, i) => `Custom/${i}`) }
    const text = JSON.stringify({ data: { q0: { results: rows }, k0: { results: [long] } } })
    const bytes = Buffer.from(text)
    const cuts = Array.from({ length: bytes.length >> 16 }, (_, i) => (i + 1) << 16)
    expect(read(bytes, cuts)).toEqual({ value: JSON.parse(text) })
    // Chunks of every size from 1 byte to 40 KB, as a socket or a decoder gives them: the reader's
    // store fills, moves its unread bytes to the front and grows.
    const uneven = fc.sample(fc.integer({ min: 1, max: 40_000 }), { numRuns: 400, seed: 27 })
    let at = 0
    const steps = uneven.map((n) => (at += n)).filter((cut) => cut < bytes.length)
    expect(read(bytes, steps)).toEqual({ value: JSON.parse(text) })
  })

  it('guesses batch ends by `},{` and `}]` only where they are, and reads bytes given one at a time in linear work (issue 39)', () => {
    // Objects whose strings and nested arrays hold what the guess looks for, between rows.
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      facet: i % 3 ? `a},{"b":${i}}]` : 'x',
      nested: i % 5 ? [{ a: i }, { b: '}]' }] : [],
      value: i / 7,
    }))
    const text = JSON.stringify({ results: rows, tail: [{ a: 1 }, { b: [{}, {}] }], n: [1, 2] })
    const bytes = Buffer.from(text)
    for (const size of [1, 7, 64, 1000, 65536]) {
      const cuts = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => i * size)
      const ours = read(bytes, cuts) as { value: unknown }
      expect(JSON.stringify(ours.value)).toBe(text)
    }
    // Bytes one at a time, with a long element full of `},{` that ends no batch: the text JSON.parse
    // is handed stays within a few times the answer (a guess is made again only once its bytes
    // have doubled, not at every byte).
    const long = JSON.stringify({ rows: [{ a: Array(5000).fill({}) }, ...rows.slice(0, 200)] })
    const parse = JSON.parse
    let handed = 0
    JSON.parse = (t: string) => ((handed += t.length), parse(t) as unknown)
    try {
      const reader = new JsonReader()
      const all = Buffer.from(long)
      for (let i = 0; i < all.length; i++) reader.push(all.subarray(i, i + 1))
      expect(JSON.stringify(reader.end())).toBe(long)
    } finally {
      JSON.parse = parse
    }
    expect(handed).toBeGreaterThanOrEqual(long.length)
    expect(handed).toBeLessThan(6 * long.length)
  })

  it('refuses more after a failure, and an unfinished text at its end', () => {
    const reader = new JsonReader()
    expect(() => reader.push(Buffer.from('{"a":1}}'))).toThrow(SyntaxError)
    expect(() => reader.push(Buffer.from(' '))).toThrow(SyntaxError)
    const unfinished = new JsonReader()
    unfinished.push(Buffer.from('{"results":[{"a":1},'))
    expect(() => unfinished.end()).toThrow(SyntaxError)
  })
})

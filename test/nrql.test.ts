import { describe, expect, it } from 'vitest'
import { quote, quoteList } from '../src/core/nrql'

describe('quote', () => {
  it.each([
    ['HttpDispatcher', `'HttpDispatcher'`],
    [`O'Brien`, `'O\\'Brien'`],
    ['a\\b', `'a\\\\b'`],
    [`\\'`, `'\\\\\\''`],
    ['50% _done_', `'50% _done_'`],
    ['line\nbreak', `'line\nbreak'`],
    ['日本 😀', `'日本 😀'`],
    [42, `'42'`],
  ])('quotes %j as %s', (input, expected) => {
    expect(quote(input)).toBe(expected)
  })

  it('quotes lists for IN', () => {
    expect(quoteList(['a', `b'`])).toBe(`('a', 'b\\'')`)
  })
})

import { describe, expect, it } from 'vitest'
import { V2Params, paramsFromBody } from '../src/http/params'
import { V2Error } from '../src/core/errors'

describe('V2Params', () => {
  it('reads names[], bare names and indexed names[N] as one list in order', () => {
    const p = new V2Params(
      new URLSearchParams('names[1]=C&names[]=A&names=B&names[0]=Z&names[10]=Last')
    )
    expect(p.list('names')).toEqual(['A', 'B', 'Z', 'C', 'Last'])
  })

  it('decodes + as a space and percent-encoded brackets', () => {
    const p = new V2Params(
      new URLSearchParams('filter%5Bname%5D=My+Web+Page&from=2014-06-09T00:00:00+00:00')
    )
    expect(p.get('filter[name]')).toBe('My Web Page')
    expect(p.get('from')).toBe('2014-06-09T00:00:00 00:00')
  })

  it('keeps the last value of a repeated scalar', () => {
    expect(
      new V2Params([
        ['page', '1'],
        ['page', '3'],
      ]).get('page')
    ).toBe('3')
  })

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['', false],
    ['on', false],
  ])('reads boolean %j as %s', (raw, expected) => {
    expect(new V2Params([['raw', raw]]).bool('raw')).toBe(expected)
  })
})

describe('paramsFromBody', () => {
  it('reads a form body', () => {
    expect(
      paramsFromBody('filter[name]=a+b&names[]=X%2FY', 'application/x-www-form-urlencoded')
    ).toEqual([
      ['filter[name]', 'a b'],
      ['names[]', 'X/Y'],
    ])
  })

  it('reads a JSON object body with bracketed keys, arrays and nested objects', () => {
    expect(
      paramsFromBody(
        '{"filter[name]":"x","names":["A","B"],"filter":{"ids":[1,2]},"raw":true}',
        'application/json'
      )
    ).toEqual([
      ['filter[name]', 'x'],
      ['names[]', 'A'],
      ['names[]', 'B'],
      ['filter[ids][]', '1'],
      ['filter[ids][]', '2'],
      ['raw', 'true'],
    ])
  })

  it('rejects a JSON body that is not an object with a 400 V2Error', () => {
    expect(() => paramsFromBody('[1,2]', 'application/json')).toThrow(V2Error)
    expect(() => paramsFromBody('{bad', 'application/json')).toThrow(/Invalid JSON/)
  })

  it('returns nothing for an empty body', () => {
    expect(paramsFromBody('  ', 'application/json')).toEqual([])
  })
})

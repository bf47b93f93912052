import { describe, expect, it } from 'vitest'
import { columnsOf } from '../../src/resources/metrics/columns'
import { defaultTables } from '../../src/resources/metrics/families'

describe('columnsOf (what names and values decide, remembered across calls)', () => {
  it('answers a repeated name and value set from memory, the same columns as the first time', () => {
    const first = columnsOf(['HttpDispatcher', 'Apdex'], ['call_count', 'score'])
    const again = columnsOf(['HttpDispatcher', 'Apdex'], ['call_count', 'score'])
    expect(again).toBe(first)
    expect(first.groups.map((g) => g.select)).toEqual([
      "count(newrelic.timeslice.value) AS 'a'",
      "count(newrelic.timeslice.value) AS 'a', sum(newrelic.timeslice.value) AS 'b', " +
        "sum(newrelic.timeslice.value['totalExclusive']) AS 'c'",
    ])
    expect(first.nameLists).toEqual(["('HttpDispatcher', 'Apdex')"])
  })

  it('tells apart name lists that join to the same text, and values from names', () => {
    const joined = columnsOf(['Custom/a\nCustom/b'], null)
    const split = columnsOf(['Custom/a', 'Custom/b'], null)
    expect(joined.metrics.map((m) => m.name)).toEqual(['Custom/a\nCustom/b'])
    expect(split.metrics.map((m) => m.name)).toEqual(['Custom/a', 'Custom/b'])
    expect(columnsOf(['Apdex'], ['score']).metrics[0]!.values.map((v) => v.value)).toEqual([
      'score',
    ])
    expect(columnsOf(['Apdex'], null).metrics[0]!.values.length).toBeGreaterThan(1)
  })

  it('forgets the least recently used sets first once they hold more than 5,000 names', () => {
    const small = columnsOf(['Errors/all'], ['error_count'])
    const other = columnsOf(['Memory/Physical'], null)
    expect(columnsOf(['Errors/all'], ['error_count'])).toBe(small) // now used after `other`
    const large = Array.from({ length: 4_999 }, (_, i) => `Custom/${i}`)
    columnsOf(large, ['call_count'])
    expect(columnsOf(['Errors/all'], ['error_count'])).toBe(small)
    const again = columnsOf(['Memory/Physical'], null)
    expect(again).not.toBe(other)
    expect(again).toEqual(other)
  })

  it('derives afresh with tables other than the default ones', () => {
    const tables = { ...defaultTables }
    expect(columnsOf(['Apdex'], null, tables)).not.toBe(columnsOf(['Apdex'], null, tables))
  })
})

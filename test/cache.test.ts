import { describe, expect, it } from 'vitest'
import { approximateBytes, PartitionedCache } from '../src/core/cache'

describe('PartitionedCache', () => {
  it('never answers one partition with another partition’s entry', () => {
    const cache = new PartitionedCache<number>(60_000)
    cache.set('key-a', 'apps', 1)
    expect(cache.get('key-a', 'apps')).toBe(1)
    expect(cache.get('key-b', 'apps')).toBeUndefined()
  })

  it('expires entries after the TTL', () => {
    let now = 1000
    const cache = new PartitionedCache<string>(500, 10, () => now)
    cache.set('p', 'k', 'v')
    now = 1499
    expect(cache.get('p', 'k')).toBe('v')
    now = 1500
    expect(cache.get('p', 'k')).toBeUndefined()
  })

  it('evicts the least recently used entry past its size bound', () => {
    const cache = new PartitionedCache<number>(60_000, 2)
    cache.set('p', 'a', 1)
    cache.set('p', 'b', 2)
    cache.get('p', 'a')
    cache.set('p', 'c', 3)
    expect(cache.get('p', 'a')).toBe(1)
    expect(cache.get('p', 'b')).toBeUndefined()
    expect(cache.get('p', 'c')).toBe(3)
  })
})

describe('PartitionedCache: stale-while-revalidate and byte bounds', () => {
  it('answers a stale value while exactly one refresh is claimed, then forgets it', () => {
    let now = 0
    const cache = new PartitionedCache<string>({ freshMs: 100, staleMs: 50, now: () => now })
    cache.set('p', 'k', 'old')
    now = 99
    expect(cache.lookup('p', 'k')).toEqual({ value: 'old', fresh: true })
    expect(cache.startRefresh('p', 'k')).toBe(false) // fresh: nothing to refresh
    now = 100
    expect(cache.get('p', 'k')).toBeUndefined() // `get` answers fresh values only
    expect(cache.lookup('p', 'k')).toEqual({ value: 'old', fresh: false })
    expect(cache.startRefresh('p', 'k')).toBe(true)
    expect(cache.startRefresh('p', 'k')).toBe(false) // one refresh at a time
    cache.refreshFailed('p', 'k')
    expect(cache.startRefresh('p', 'k')).toBe(true) // a later request may try again
    cache.set('p', 'k', 'new')
    expect(cache.lookup('p', 'k')).toEqual({ value: 'new', fresh: true })
    now = 250
    expect(cache.lookup('p', 'k')).toBeUndefined() // past both lifetimes
  })

  it('evicts the least recently used entries once their bytes pass the bound', () => {
    const cache = new PartitionedCache<string>({ freshMs: 60_000, maxBytes: 3000 })
    const kib = 'x'.repeat(512) // about 1 KiB in V8's two-byte accounting
    cache.set('p', 'a', kib)
    cache.set('p', 'b', kib)
    expect(cache.size().entries).toBe(2)
    cache.get('p', 'a')
    cache.set('p', 'c', kib)
    expect(cache.get('p', 'b')).toBeUndefined()
    expect(cache.get('p', 'a')).toBe(kib)
    expect(cache.get('p', 'c')).toBe(kib)
    expect(cache.size().bytes).toBeLessThanOrEqual(3000)
    cache.set('p', 'huge', 'x'.repeat(4000)) // larger than the whole bound: not kept
    expect(cache.get('p', 'huge')).toBeUndefined()
    expect(cache.size().entries).toBe(2)
  })

  it('estimates bytes of maps, sets, arrays and objects from their contents', () => {
    const small = approximateBytes(['a'])
    const large = approximateBytes(Array.from({ length: 1000 }, (_, i) => `name-${i}`))
    expect(large).toBeGreaterThan(1000 * 20)
    expect(small).toBeLessThan(100)
    const map = new Map([['web-01', 1]])
    expect(approximateBytes(map)).toBeGreaterThan(approximateBytes(new Map()))
    expect(approximateBytes({ hosts: new Set(['a', 'b']) })).toBeGreaterThan(approximateBytes({}))
  })
})

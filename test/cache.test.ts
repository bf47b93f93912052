import { describe, expect, it } from 'vitest'
import { PartitionedCache } from '../src/cache'

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

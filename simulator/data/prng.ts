/** @module simulator/data/prng — integer hashing and a seeded PRNG, identical on every runtime. */

/** murmur3's 32-bit finalizer: a fast, well-mixed bijection on uint32. */
export function mix32(x: number): number {
  let h = x >>> 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Combines two uint32 hashes (order matters). */
export function combine(a: number, b: number): number {
  return mix32((Math.imul(a, 0x9e3779b1) ^ b) + 0x7f4a7c15)
}

/** FNV-1a over UTF-16 code units, finished with mix32. */
export function hashString(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return mix32(h)
}

/** Maps a uint32 hash to [0, 1). */
export function unit(h: number): number {
  return (h >>> 0) / 4294967296
}

/** The k-th independent uniform in [0, 1) derived from one hash. */
export function nth(h: number, k: number): number {
  return unit(mix32(h + Math.imul(k + 1, 0x9e3779b9)))
}

/** mulberry32: a small seeded PRNG for building the catalog. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)]
      if (item === undefined) throw new Error('pick from an empty list')
      return item
    },
    between: (min, max) => min + next() * (max - min),
  }
}

export interface Random {
  next(): number
  /** Integer in [min, max]. */
  int(min: number, max: number): number
  pick<T>(items: readonly T[]): T
  /** Float in [min, max). */
  between(min: number, max: number): number
}

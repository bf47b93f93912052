import { describe, expect, it } from 'vitest'
import { createRateWindow } from '../../src/http/rate-usage'

describe('per-key call count of the current minute (truthful X-RateLimit-* on a 429)', () => {
  const t0 = Date.UTC(2026, 0, 1, 12, 0, 10)

  it('counts each key on its own and resets at the minute’s end', () => {
    const w = createRateWindow()
    expect(w.count('a', t0)).toEqual({ remaining: 999, resetMs: Date.UTC(2026, 0, 1, 12, 1) })
    expect(w.count('a', t0 + 1000).remaining).toBe(998)
    expect(w.count('b', t0 + 2000).remaining).toBe(999)
    expect(w.count('a', t0 + 50_000)).toEqual({
      remaining: 999,
      resetMs: Date.UTC(2026, 0, 1, 12, 2),
    })
  })

  it('never goes below 0 and bounds the keys it tracks', () => {
    const w = createRateWindow(2)
    for (let i = 0; i < 1005; i++) w.count('a', t0)
    expect(w.count('a', t0).remaining).toBe(0)
    w.count('b', t0)
    w.count('c', t0)
    expect(w.count('c', t0).remaining).toBe(999) // untracked past maxKeys: counted as a first call
  })
})

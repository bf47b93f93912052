import { describe, expect, it } from 'vitest'
import { createUpstreamLimits, OverloadError } from '../../src/upstream/limits'

function deferred<T = void>() {
  let resolve: (v: T) => void = () => {}
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

const tick = () => new Promise((r) => setTimeout(r, 0))

describe('createUpstreamLimits', () => {
  it('runs queued work in arrival order as slots free up', async () => {
    const limits = createUpstreamLimits({ maxInFlight: 1 })
    const signal = new AbortController().signal
    const order: number[] = []
    const first = deferred()
    const runs = [1, 2, 3].map((n) =>
      limits.slot('k', signal, async () => {
        order.push(n)
        if (n === 1) await first.promise
      })
    )
    await tick()
    expect(order).toEqual([1])
    expect(limits.snapshot()).toMatchObject({ inFlight: 1, queued: 2 })
    first.resolve()
    await Promise.all(runs)
    expect(order).toEqual([1, 2, 3])
    expect(limits.snapshot()).toEqual({ keys: 0, inFlight: 0, queued: 0, coalescing: 0 })
  })

  it('keeps keys apart: one key’s full lane does not hold up another key', async () => {
    const limits = createUpstreamLimits({ maxInFlight: 1 })
    const signal = new AbortController().signal
    const hold = deferred()
    const busy = limits.slot('a', signal, () => hold.promise)
    await expect(limits.slot('b', signal, async () => 'b')).resolves.toBe('b')
    hold.resolve()
    await busy
  })

  it('takes a waiter out of the queue when its request is aborted', async () => {
    const limits = createUpstreamLimits({ maxInFlight: 1 })
    const hold = deferred()
    const busy = limits.slot('k', new AbortController().signal, () => hold.promise)
    const controller = new AbortController()
    const waiting = limits.slot('k', controller.signal, async () => 'ran')
    controller.abort(new Error('deadline'))
    await expect(waiting).rejects.toThrow('deadline')
    expect(limits.snapshot().queued).toBe(0)
    hold.resolve()
    await busy
    expect(limits.snapshot().keys).toBe(0)
  })

  it('returns the slot when a running request is aborted, even if its fetch never settles', async () => {
    const limits = createUpstreamLimits({ maxInFlight: 1 })
    const controller = new AbortController()
    void limits.slot('k', controller.signal, () => new Promise(() => {})).catch(() => {})
    controller.abort()
    await expect(limits.slot('k', new AbortController().signal, async () => 'next')).resolves.toBe(
      'next'
    )
  })

  it('refuses work past the queue bound and past the key bound', async () => {
    const limits = createUpstreamLimits({ maxInFlight: 1, maxQueued: 1, maxKeys: 1 })
    const signal = new AbortController().signal
    const hold = deferred()
    const busy = limits.slot('a', signal, () => hold.promise)
    const queued = limits.slot('a', signal, async () => 'q')
    await expect(limits.slot('a', signal, async () => 'x')).rejects.toBeInstanceOf(OverloadError)
    await expect(limits.slot('b', signal, async () => 'x')).rejects.toBeInstanceOf(OverloadError)
    hold.resolve()
    await Promise.all([busy, queued])
  })

  it('shares one in-flight call per id and forgets it once settled', async () => {
    const limits = createUpstreamLimits()
    let calls = 0
    const gate = deferred()
    const run = async () => {
      calls++
      await gate.promise
      return calls
    }
    const both = Promise.all([limits.coalesce('x', run), limits.coalesce('x', run)])
    gate.resolve()
    expect(await both).toEqual([1, 1])
    expect(await limits.coalesce('x', run)).toBe(2)
    expect(limits.snapshot().coalescing).toBe(0)
  })
})

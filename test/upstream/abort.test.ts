/**
 * The abort of an upstream attempt (src/upstream/abort.ts): what v2bridge's code reads of an
 * AbortSignal, without an EventTarget listener per call, and a real AbortSignal for any fetch that
 * has not said it reads an Abort.
 */
import { describe, expect, it } from 'vitest'
import { Abort, asSignal, initFor, takesAbort } from '../../src/upstream/abort'
import { createUpstreamLimits } from '../../src/upstream/limits'

describe('Abort', () => {
  it('runs each listener once, in order, and none removed or added after the abort', () => {
    const abort = new Abort()
    const heard: string[] = []
    const removed = () => heard.push('removed')
    abort.addEventListener('abort', () => heard.push('first'))
    abort.addEventListener('abort', removed)
    abort.addEventListener('abort', () => heard.push(`second ${String(abort.reason)}`))
    abort.removeEventListener('abort', removed)
    expect(() => abort.throwIfAborted()).not.toThrow()
    abort.abort('timeout')
    abort.abort('again')
    abort.addEventListener('abort', () => heard.push('late'))
    expect(heard).toEqual(['first', 'second timeout'])
    expect([abort.aborted, abort.reason]).toEqual([true, 'timeout'])
    expect(() => abort.throwIfAborted()).toThrow('timeout')
  })

  it('gives a fetch that does not take it a real AbortSignal that aborts with it', () => {
    const abort = new Abort()
    const plain = (() => Promise.resolve(new Response())) as unknown as typeof fetch
    const init = initFor(plain, { method: 'POST', signal: asSignal(abort) })
    expect(init.signal).toBeInstanceOf(AbortSignal)
    expect(init.method).toBe('POST')
    abort.abort(new Error('deadline'))
    expect(init.signal!.aborted).toBe(true)
    expect((init.signal!.reason as Error).message).toBe('deadline')
    // Made after the abort, it is aborted already.
    const late = initFor(plain, { signal: asSignal(abort) }).signal!
    expect(late.reason).toBe(abort.reason)
    // A fetch that reads an Abort gets it as it is.
    const reads = Object.assign(plain, { [takesAbort]: true })
    const kept = { signal: asSignal(abort) }
    expect(initFor(reads, kept)).toBe(kept)
  })

  it('frees a slot and a waiter of the upstream limits when it aborts', async () => {
    const limits = createUpstreamLimits({ maxInFlight: 1, maxQueued: 1 })
    const first = new Abort()
    const waiting = new Abort()
    let release!: () => void
    const held = limits.slot('key', first, () => new Promise<void>((r) => (release = r)))
    const queued = limits.slot('key', waiting, () => Promise.resolve('ran'))
    waiting.abort(new Error('gave up'))
    await expect(queued).rejects.toThrow('gave up')
    first.abort(new Error('timeout'))
    // The slot is free at once: the next call runs while the first's work has not settled.
    await expect(limits.slot('key', new Abort(), () => Promise.resolve('next'))).resolves.toBe(
      'next'
    )
    release()
    await held
  })
})

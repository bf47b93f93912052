/**
 * @module upstream/abort
 * The abort of one upstream attempt, as v2bridge's own code reads an `AbortSignal` (`aborted`,
 * `reason`, `throwIfAborted`, and `addEventListener`/`removeEventListener` of `abort`), with its
 * listeners in a plain list. On Node 20 one `abort` listener on an AbortSignal costs about 10 µs,
 * an EventTarget listener (0.15 µs on Node 26; `node -e` of the two, on the development machine), and
 * every upstream call registered two: its slot's and its transport's. A fetch that has not said
 * it reads an `Abort` ({@link takesAbort}) gets a real AbortSignal, made once and aborted with it.
 */

/** The members of an AbortSignal that v2bridge's own code uses. */
export interface AbortLike {
  readonly aborted: boolean
  readonly reason: unknown
  throwIfAborted(): void
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void
  removeEventListener(type: 'abort', listener: () => void): void
}

export class Abort implements AbortLike {
  aborted = false
  reason: unknown = undefined
  private listeners: (() => void)[] = []
  private controller: AbortController | undefined

  /** Aborts once: each listener runs once, in the order added. */
  abort(reason: unknown): void {
    if (this.aborted) return
    this.aborted = true
    this.reason = reason
    const listeners = this.listeners
    this.listeners = []
    for (const listener of listeners) listener()
    this.controller?.abort(reason)
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason
  }

  /** Every listener runs once (as `{ once: true }`): the abort happens once. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener)
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener)
    if (at >= 0) this.listeners.splice(at, 1)
  }

  /** A real AbortSignal that aborts with this one. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController()
      if (this.aborted) this.controller.abort(this.reason)
    }
    return this.controller.signal
  }
}

/** Set on a fetch that reads an {@link Abort} in `init.signal` as it reads an AbortSignal. */
export const takesAbort = Symbol('takesAbort')

/** `init` for `fetchImpl`: its `signal` a real AbortSignal unless `fetchImpl` takes an Abort. */
export function initFor(fetchImpl: typeof fetch, init: RequestInit): RequestInit {
  const signal: unknown = init.signal
  if (!(signal instanceof Abort) || (fetchImpl as { [takesAbort]?: boolean })[takesAbort])
    return init
  return { ...init, signal: signal.signal }
}

/** An Abort where RequestInit types an AbortSignal: read only by a fetch that {@link takesAbort},
 * or made real by {@link initFor} first. */
export const asSignal = (abort: Abort) => abort as unknown as AbortSignal

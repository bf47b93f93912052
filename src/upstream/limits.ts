/**
 * @module upstream/limits
 * v2bridge's side of NerdGraph's limits, per app instance: at most 25 requests in flight per user
 * (NerdGraph guarantees 25 concurrent requests per user, "tracked and enforced per user, not per user
 * key": New Relic docs "NerdGraph usage limits"), all of the user's keys together once NerdGraph
 * told a key's user (`learnUser`), per key fingerprint until then; the rest wait in a queue within
 * their time budget, and identical in-flight reads share one upstream request.
 * Plain promises and maps: it runs unchanged in workerd.
 */
import type { AbortLike } from './abort'

export interface LimitSettings {
  /** Upstream requests in flight per key (NerdGraph's per-user guarantee). */
  maxInFlight: number
  /** Requests waiting per key; past it the caller gets 429. */
  maxQueued: number
  /** Keys with requests in flight or waiting; past it a new key gets 429 (bounds the state); also
   * the keys whose user is kept. */
  maxKeys: number
}

/** A waiting request leaves the queue when its time budget (UPSTREAM_TIMEOUT_MS) runs out, so the
 * queue is bounded by time: an exporter's scrape of ~600 requests at once waits, it is not refused.
 * `maxQueued` only caps the memory one key can hold. */
export const defaultLimits: LimitSettings = {
  maxInFlight: 25,
  maxQueued: 10_000,
  maxKeys: 10_000,
}

/** Thrown when the queue of a key, or the table of keys, is full. */
export class OverloadError extends Error {
  override name = 'OverloadError'
}

interface Lane {
  inFlight: number
  waiting: (() => void)[]
}

export interface UpstreamLimits {
  /** Runs `fn` once the key has a free slot. The slot is returned when `fn` settles or `signal`
   * aborts; an abort while waiting leaves the queue and rejects with the signal's reason. */
  slot<T>(partition: string, signal: AbortLike, fn: () => Promise<T>): Promise<T>
  /** The lane of a key's NerdGraph requests: its user's once known, else the key's own. */
  lane(partition: string): string
  /** Records the user NerdGraph answered for the key of `partition` (only from an accepted key). */
  learnUser(partition: string, userId: number): void
  /** Whether a call with this id is in flight (`coalesce`). */
  running(id: string): boolean
  /** Joins the in-flight call with the same id, or starts `fn`. */
  coalesce<T>(id: string, fn: () => Promise<T>): Promise<T>
  snapshot(): { keys: number; inFlight: number; queued: number; coalescing: number }
}

export function createUpstreamLimits(settings: Partial<LimitSettings> = {}): UpstreamLimits {
  const { maxInFlight, maxQueued, maxKeys } = { ...defaultLimits, ...settings }
  const lanes = new Map<string, Lane>()
  const shared = new Map<string, Promise<unknown>>()
  const users = new Map<string, string>()

  const release = (partition: string, lane: Lane) => {
    const next = lane.waiting.shift()
    if (next) return next() // the slot passes straight to the next waiter
    lane.inFlight -= 1
    if (lane.inFlight === 0) lanes.delete(partition)
  }

  const acquire = (partition: string, signal: AbortLike): Promise<Lane> => {
    signal.throwIfAborted()
    let lane = lanes.get(partition)
    if (!lane) {
      if (lanes.size >= maxKeys) throw new OverloadError('too many keys in flight')
      lanes.set(partition, (lane = { inFlight: 0, waiting: [] }))
    }
    const current = lane
    if (current.inFlight < maxInFlight) {
      current.inFlight += 1
      return Promise.resolve(current)
    }
    if (current.waiting.length >= maxQueued) throw new OverloadError('queue full')
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', leave)
        resolve(current)
      }
      const leave = () => {
        const at = current.waiting.indexOf(grant)
        if (at >= 0) current.waiting.splice(at, 1)
        reject(signal.reason)
      }
      current.waiting.push(grant)
      signal.addEventListener('abort', leave, { once: true })
    })
  }

  return {
    async slot(partition, signal, fn) {
      const lane = await acquire(partition, signal)
      let held = true
      const done = () => {
        if (!held) return
        held = false
        signal.removeEventListener('abort', done)
        release(partition, lane)
      }
      signal.addEventListener('abort', done, { once: true })
      try {
        signal.throwIfAborted() // aborted while the grant was on its way
        return await fn()
      } finally {
        done()
      }
    },
    lane: (partition) => users.get(partition) ?? partition,
    running: (id) => shared.has(id),
    learnUser(partition, userId) {
      users.delete(partition) // most recent last
      users.set(partition, `user:${userId}`)
      if (users.size > maxKeys) users.delete(users.keys().next().value!)
    },
    coalesce<T>(id: string, fn: () => Promise<T>) {
      const running = shared.get(id) as Promise<T> | undefined
      if (running) return running
      const started = fn().finally(() => shared.delete(id))
      shared.set(id, started)
      return started
    },
    snapshot() {
      let inFlight = 0
      let queued = 0
      for (const lane of lanes.values()) {
        inFlight += lane.inFlight
        queued += lane.waiting.length
      }
      return { keys: lanes.size, inFlight, queued, coalescing: shared.size }
    },
  }
}

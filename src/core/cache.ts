/**
 * @module core/cache
 * A small in-memory cache whose every entry is partitioned by the caller's key fingerprint
 * (src/core/identity.ts): one caller's cached data can never answer another caller. Entries are
 * fresh for `freshMs`, then usable for `staleMs` more while one background refresh replaces them
 * (stale-while-revalidate, RFC 5861's model); the least recently used go first once the cache holds
 * more than `maxEntries` entries or more than `maxBytes` (approximate bytes, `approximateBytes`).
 */

export interface CacheSettings {
  freshMs: number
  /** How long past `freshMs` a value may still answer while it is refreshed; 0 by default. */
  staleMs?: number
  maxEntries?: number
  maxBytes?: number
  now?: () => number
}

interface Entry<V> {
  value: V
  freshUntil: number
  staleUntil: number
  bytes: number
  refreshing: boolean
}

export interface Lookup<V> {
  value: V
  /** false: past its fresh lifetime; answer with it and refresh it (`startRefresh`). */
  fresh: boolean
}

const defaults = { staleMs: 0, maxEntries: 10_000, maxBytes: 16 * 2 ** 20 }

export class PartitionedCache<V> {
  private readonly entries = new Map<string, Entry<V>>()
  private readonly settings: Required<CacheSettings>
  private bytes = 0
  /** Told of every lookup: whether it found a usable value (src/upstream/telemetry.ts counts them). */
  onLookup?: (hit: boolean) => void

  /** `new PartitionedCache(ttlMs, maxEntries?, now?)` or `new PartitionedCache({ freshMs, … })`. */
  constructor(settings: CacheSettings | number, maxEntries?: number, now?: () => number) {
    const given = typeof settings === 'number' ? { freshMs: settings } : settings
    this.settings = {
      ...defaults,
      now: Date.now,
      ...given,
      ...(maxEntries !== undefined ? { maxEntries } : {}),
      ...(now ? { now } : {}),
    }
  }

  /** A fresh value, or undefined. */
  get(partition: string, key: string): V | undefined {
    const hit = this.find(partition, key)
    this.onLookup?.(hit?.fresh === true)
    return hit?.fresh ? hit.value : undefined
  }

  /** A fresh or stale value, or undefined once it is past both lifetimes. */
  lookup(partition: string, key: string): Lookup<V> | undefined {
    const hit = this.find(partition, key)
    this.onLookup?.(hit !== undefined)
    return hit
  }

  private find(partition: string, key: string): Lookup<V> | undefined {
    const k = `${partition}\u0000${key}`
    const hit = this.entries.get(k)
    if (!hit) return undefined
    const now = this.settings.now()
    if (hit.staleUntil <= now) {
      this.remove(k, hit)
      return undefined
    }
    this.entries.delete(k) // refresh recency
    this.entries.set(k, hit)
    return { value: hit.value, fresh: now < hit.freshUntil }
  }

  /** Claims the refresh of a stale entry: true once, until `set` replaces it or `refreshFailed`. */
  startRefresh(partition: string, key: string): boolean {
    const hit = this.entries.get(`${partition}\u0000${key}`)
    if (!hit || hit.refreshing || this.settings.now() < hit.freshUntil) return false
    hit.refreshing = true
    return true
  }

  /** Lets a later request try again after a failed refresh (the stale value stays meanwhile). */
  refreshFailed(partition: string, key: string): void {
    const hit = this.entries.get(`${partition}\u0000${key}`)
    if (hit) hit.refreshing = false
  }

  set(partition: string, key: string, value: V): void {
    const k = `${partition}\u0000${key}`
    const old = this.entries.get(k)
    if (old) this.remove(k, old)
    const { freshMs, staleMs, maxEntries, maxBytes, now } = this.settings
    const bytes = approximateBytes(value) + 2 * k.length
    if (bytes > maxBytes) return
    const freshUntil = now() + freshMs
    this.entries.set(k, {
      value,
      freshUntil,
      staleUntil: freshUntil + staleMs,
      bytes,
      refreshing: false,
    })
    this.bytes += bytes
    while (this.entries.size > maxEntries || this.bytes > maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value!
      this.remove(oldestKey, oldest)
    }
  }

  /** Forgets one entry (e.g. a deleted application). */
  delete(partition: string, key: string): void {
    const k = `${partition}\u0000${key}`
    const entry = this.entries.get(k)
    if (entry) this.remove(k, entry)
  }

  clear(): void {
    this.entries.clear()
    this.bytes = 0
  }

  /** Entries and approximate bytes held, for tests and the metrics endpoint. */
  size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes }
  }

  private remove(k: string, entry: Entry<V>): void {
    this.entries.delete(k)
    this.bytes -= entry.bytes
  }
}

/**
 * Approximate heap bytes of a cached value, as V8 lays it out (a string is 2 bytes a character plus
 * a header, an object or array a header plus 8 bytes a slot): close enough to bound memory, and
 * computed once per `set`.
 */
export function approximateBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return 16 + 2 * value.length
  if (value === null || typeof value !== 'object' || depth > 8) return 8
  // Loops without a closure or an entries array: this runs once per cached value, over answers
  // of thousands of nodes, on the request's path.
  let bytes = 32
  const next = depth + 1
  if (value instanceof Map) {
    for (const [k, v] of value) bytes += 16 + approximateBytes(k, next) + approximateBytes(v, next)
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) bytes += 8 + approximateBytes(value[i], next)
  } else if (value instanceof Set) {
    for (const v of value) bytes += 8 + approximateBytes(v, next)
  } else {
    const record = value as Record<string, unknown>
    for (const k in record)
      if (Object.hasOwn(record, k)) bytes += 32 + 2 * k.length + approximateBytes(record[k], next)
  }
  return bytes
}

/** A cache a module owns: its name (in `/metrics`, src/upstream/telemetry.ts), settings and value
 * type. The module that reads and writes the cache defines it; the app's registry makes it. */
export interface CacheSpec<V> {
  readonly name: string
  readonly settings: CacheSettings
  /** Never set: carries the value type. */
  readonly value?: V
}

export function defineCache<V>(name: string, settings: CacheSettings): CacheSpec<V> {
  return { name, settings }
}

/**
 * Every cache of one app instance, each made on first use from its module's `CacheSpec`.
 * Created once per `createApp`, so two apps (or two tests) never share cached data; a module
 * names only its own caches, so no module needs to know another's value types.
 */
export class CacheRegistry {
  private readonly made = new Map<string, PartitionedCache<unknown>>()
  /** Background refreshes running (src/entities/background.ts). */
  readonly refreshes = { running: 0 }

  /** `observe` hears every lookup of every cache, by the cache's name (src/upstream/telemetry.ts). */
  constructor(private readonly observe?: (cache: string, hit: boolean) => void) {}

  of<V>(spec: CacheSpec<V>): PartitionedCache<V> {
    let cache = this.made.get(spec.name)
    if (!cache) {
      cache = new PartitionedCache<unknown>(spec.settings)
      const observe = this.observe
      if (observe) cache.onLookup = (hit) => observe(spec.name, hit)
      this.made.set(spec.name, cache)
    }
    return cache as PartitionedCache<V>
  }
}

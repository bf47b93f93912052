/**
 * @module cache
 * A small in-memory TTL cache whose every entry is partitioned by the caller's key fingerprint
 * (design.md, Identity): one caller's cached data can never answer another caller.
 */

interface Entry<V> {
  value: V
  expires: number
}

export class PartitionedCache<V> {
  private readonly entries = new Map<string, Entry<V>>()

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now
  ) {}

  get(partition: string, key: string): V | undefined {
    const k = `${partition}\u0000${key}`
    const hit = this.entries.get(k)
    if (!hit) return undefined
    if (hit.expires <= this.now()) {
      this.entries.delete(k)
      return undefined
    }
    this.entries.delete(k) // refresh recency
    this.entries.set(k, hit)
    return hit.value
  }

  set(partition: string, key: string, value: V): void {
    const k = `${partition}\u0000${key}`
    this.entries.delete(k)
    this.entries.set(k, { value, expires: this.now() + this.ttlMs })
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.entries.delete(oldest)
    }
  }

  clear(): void {
    this.entries.clear()
  }
}

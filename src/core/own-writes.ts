/**
 * @module core/own-writes
 * Read-your-writes: what a key changed through v2bridge, kept for as long as NerdGraph's reads may
 * take to show it, so a read by the same key right after its own write shows the write. NerdGraph
 * answers a write at once but shows it in reads later: tags after more than a minute
 * (newrelic/terraform-provider-newrelic issues #791 and #1556; its PR #1936 waits longer for them);
 * renames and deployments read from the same index (their delay is not on record). A write is
 * recorded only once NerdGraph accepted it, per key fingerprint like every cache (one caller's writes
 * never show to another), at most `maxOwnWrites` per key and scope, each for `ownWriteMs`.
 */
import { defineCache, type CacheSpec, type PartitionedCache } from './cache'

/** How long a write is laid over reads: five times the minute reports saw tags missing for. */
export const ownWriteMs = 5 * 60_000

/** Writes kept per key and scope (an application, an account's labels); the oldest go first. */
export const maxOwnWrites = 50

export interface OwnWrite<T> {
  value: T
  at: number
}

/** A cache of one kind of own writes: per key fingerprint, per scope, the writes in order. */
export function defineOwnWrites<T>(name: string): CacheSpec<OwnWrite<T>[]> {
  return defineCache<OwnWrite<T>[]>(name, { freshMs: ownWriteMs, maxBytes: 4 * 2 ** 20 })
}

/** Records one write NerdGraph accepted. */
export function recordOwnWrite<T>(
  cache: PartitionedCache<OwnWrite<T>[]>,
  partition: string,
  scope: string,
  value: T,
  now = Date.now()
): void {
  const live = (cache.get(partition, scope) ?? []).filter((w) => w.at > now - ownWriteMs)
  live.push({ value, at: now })
  cache.set(partition, scope, live.slice(-maxOwnWrites))
}

/** The writes of `scope` still laid over reads, oldest first. */
export function ownWrites<T>(
  cache: PartitionedCache<OwnWrite<T>[]>,
  partition: string,
  scope: string,
  now = Date.now()
): T[] {
  return (cache.get(partition, scope) ?? [])
    .filter((w) => w.at > now - ownWriteMs)
    .map((w) => w.value)
}

/**
 * @module entities/background
 * Cache refreshes that run after the answer (stale-while-revalidate, src/core/cache.ts): on Workers inside
 * `waitUntil` (Cloudflare docs "Context (ctx)": work that outlives the response), on Node as a detached
 * promise. A failure is dropped: the stale value keeps answering, and a later request tries again.
 * At most `maxRefreshes` run at once per app, so refreshes never crowd the callers' own requests out
 * of a key's NerdGraph slots (src/upstream/limits.ts); past it a refresh is skipped, not queued.
 */
import type { Context } from 'hono'
import type { PartitionedCache } from '../core/cache'
import type { Env } from '../http/env'

export const maxRefreshes = 4

/** Starts `task` unless `maxRefreshes` already run; `onFailure` undoes the claim of the refresh. */
export function refreshInBackground(
  c: Context<Env>,
  task: () => Promise<unknown>,
  onFailure: () => void
): void {
  const refreshes = c.get('caches').refreshes
  if (refreshes.running >= maxRefreshes) return onFailure()
  refreshes.running += 1
  const run = task()
    .catch(() => onFailure())
    .finally(() => (refreshes.running -= 1))
  try {
    c.executionCtx.waitUntil(run)
  } catch {
    // Node: no execution context; the promise runs on by itself.
  }
}

/** A cached value with stale-while-revalidate: fresh → as is; stale → as is while one background
 * `load` replaces it; missing or expired → `load` now, then cached. */
export async function cachedOrLoad<V>(
  c: Context<Env>,
  cache: PartitionedCache<V>,
  key: string,
  load: () => Promise<V>
): Promise<V> {
  const keyHash = c.get('keyHash')
  const hit = cache.lookup(keyHash, key)
  if (hit) {
    if (!hit.fresh && cache.startRefresh(keyHash, key)) {
      refreshInBackground(
        c,
        async () => cache.set(keyHash, key, await load()),
        () => cache.refreshFailed(keyHash, key)
      )
    }
    return hit.value
  }
  const value = await load()
  cache.set(keyHash, key, value)
  return value
}

/**
 * @module upstream/cache-api-store
 * The Worker's second tier of shared NRQL answers (src/upstream/answer-store.ts): the Cache API's
 * `caches.default`, which every isolate of the Worker in one Cloudflare data center reads. Each
 * answer is a JSON Response under a synthetic https URL of its store key, kept by `Cache-Control:
 * max-age`. Cloudflare docs "Cache" (developers.cloudflare.com/workers/runtime-apis/cache/): the
 * contents "do not replicate outside of the originating data center", so each data center asks
 * NerdGraph once; and Cache API operations of `*.workers.dev` deployments "will have no impact":
 * only a Worker on a custom domain, not behind Cloudflare Access, shares (elsewhere every read is a
 * miss, as without a store). `put` throws for a request other than GET, a 206 or `Vary: *` (same
 * page): none of them here. Only the Worker entry (src/worker.ts) imports this module.
 */
import type { SharedAnswerStore } from './answer-store'

/** The Workers runtime's cache (Cloudflare docs "Cache": `caches.default`), if there is one. */
const defaultCache = () => (globalThis as { caches?: { default?: Cache } }).caches?.default

/** Under v2bridge's own name: never a URL a client could request. */
const urlOf = (key: string) => `https://v2bridge-answers.invalid/nrql/${key}`

export const cacheAnswerStore: SharedAnswerStore = {
  async get(key) {
    const res = await defaultCache()?.match(urlOf(key))
    return res?.json()
  },
  async put(key, value, ttlMs) {
    // Past max-age the cache drops it; the value's own `until` (src/upstream/reuse.ts) is exact.
    const headers = { 'Cache-Control': `max-age=${Math.ceil(ttlMs / 1000)}` }
    await defaultCache()?.put(urlOf(key), Response.json(value, { headers }))
  },
}

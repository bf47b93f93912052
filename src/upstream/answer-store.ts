/**
 * @module upstream/answer-store
 * The second tier of NRQL answers shared across callers (src/upstream/reuse.ts): a store beyond one
 * process's memory, which the Worker gives (src/upstream/cache-api-store.ts, the Cache API) and Node does not.
 * Its keys are a hash of the NerdGraph endpoint, the document and its variables, never a caller's
 * key or anything derived from it; which key may get what it holds is reuse.ts's proof, made
 * before. A store that throws or is slow is a miss: it may cost a call `waitMs`, never an error.
 */
import { keyFingerprint } from '../core/identity'

export interface SharedAnswerStore {
  /** The value `put` under `key` while its time lasts, else undefined. */
  get(key: string): Promise<unknown>
  /** Holds a JSON `value` under `key` for `ttlMs`. */
  put(key: string, value: unknown, ttlMs: number): Promise<void>
}

/** Hex SHA-256 of `scope` and `id` (WebCrypto, which both runtimes have). */
export const storeKey = (scope: string, id: string): Promise<string> =>
  keyFingerprint(`${scope}\u0000${id}`)

/** What `work` gives within `waitMs`, else undefined (a rejection too): never rejects. */
export const withinWait = <T>(work: Promise<T>, waitMs: number) =>
  new Promise<T | undefined>((resolve) => {
    const timer = setTimeout(resolve, waitMs)
    work.then(resolve, () => resolve(undefined)).finally(() => clearTimeout(timer))
  })

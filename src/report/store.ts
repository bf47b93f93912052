/**
 * @module report/store
 * Where the migration report lives, behind one small interface: `record` is called on the request
 * path and never awaited (it returns at once; a store that writes somewhere keeps that off the
 * request), `read` answers one key's entries. In memory by default, bounded in keys and entries;
 * a JSONL file on Node (src/report/file-store.ts); a Durable Object on Workers (src/report/durable.ts).
 */
import { addCall, bounds, type CallEvent, type ReportEntry } from './entries'

export interface ReportStore {
  /** Adds one call of `keyHash`; a returned promise is for `waitUntil`, never for the request. */
  record(keyHash: string, call: CallEvent): void | Promise<unknown>
  /** The entries of `keyHash` only. */
  read(keyHash: string): Promise<ReportEntry[]>
}

/** Entries per key in memory; the least recently active key goes first past `bounds.keys`. */
export function memoryStore(): ReportStore & { load(keyHash: string, call: CallEvent): void } {
  const byKey = new Map<string, Map<string, ReportEntry>>()
  const load = (keyHash: string, call: CallEvent) => {
    let entries = byKey.get(keyHash)
    if (entries) byKey.delete(keyHash)
    else entries = new Map()
    byKey.set(keyHash, entries)
    if (byKey.size > bounds.keys) byKey.delete(byKey.keys().next().value!)
    addCall(entries, call)
  }
  return {
    load,
    record: load,
    read: async (keyHash) => structuredClone([...(byKey.get(keyHash)?.values() ?? [])]),
  }
}

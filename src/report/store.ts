/**
 * @module report/store
 * Where the migration report lives, behind one small interface: `record` is called on the request
 * path and never awaited (it returns at once; a store that writes somewhere keeps that off the
 * request), `read` answers one key's entries. In memory by default, as bounded aggregates (per key
 * and overall, in entries, names and approximate bytes: src/report/entries.ts `bounds`); a file on
 * Node (src/report/file-store.ts); a Durable Object on Workers (src/report/durable.ts). Only keys
 * NerdGraph accepted are recorded (src/report/record.ts).
 */
import { addCall, bounds, type CallEvent, type ReportEntry } from './entries'
import { addOutcome, type Outcome, type Verification } from '../compare'

export interface ReportStore {
  /** Adds one call of `keyHash`; a returned promise is for `waitUntil`, never for the request. */
  record(keyHash: string, call: CallEvent): void | Promise<unknown>
  /** The entries of `keyHash` only. */
  read(keyHash: string): Promise<ReportEntry[]>
  /** Adds one outcome of compare mode (src/compare/) to the key's verification, within the same
   * bounds; like `record`, never awaited on the request. */
  compared?(keyHash: string, outcome: Outcome): void | Promise<unknown>
  /** The verification of `keyHash` only, one aggregate per operation. */
  verification?(keyHash: string): Promise<Verification[]>
  /** Every key's entries, for the organisation view (src/report/org.ts); absent where the store
   * keeps no list of keys (one Durable Object per key). */
  all?(): Promise<Iterable<readonly [string, readonly ReportEntry[]]>>
}

export interface KeyReport {
  entries: Map<string, ReportEntry>
  bytes: number
  /** Compare mode's aggregates, by operation (src/compare/aggregate.ts). */
  verification?: Map<string, Verification>
}

/** The report in memory; past `bounds.keys` keys or `bounds.bytes` bytes the least recently seen
 * key goes first. */
export class MemoryStore implements ReportStore {
  protected readonly byKey = new Map<string, KeyReport>()
  protected total = 0

  record(keyHash: string, call: CallEvent): void {
    const report = this.touch(keyHash)
    const added = addCall(report.entries, call, bounds.bytesPerKey - report.bytes)
    report.bytes += added
    this.total += added
    this.evict()
  }

  compared(keyHash: string, outcome: Outcome): void {
    const report = this.touch(keyHash)
    const added = addOutcome(
      (report.verification ??= new Map()),
      outcome,
      bounds,
      bounds.bytesPerKey - report.bytes
    )
    report.bytes += added
    this.total += added
    this.evict()
  }

  async verification(keyHash: string): Promise<Verification[]> {
    return structuredClone([...(this.byKey.get(keyHash)?.verification?.values() ?? [])])
  }

  async read(keyHash: string): Promise<ReportEntry[]> {
    return structuredClone([...(this.byKey.get(keyHash)?.entries.values() ?? [])])
  }

  async all(): Promise<Iterable<readonly [string, readonly ReportEntry[]]>> {
    return [...this.byKey].map(([k, report]) => [k, [...report.entries.values()]] as const)
  }

  /** Keys and approximate bytes held. */
  size(): { keys: number; bytes: number } {
    return { keys: this.byKey.size, bytes: this.total }
  }

  /** The key's report, now the most recently seen. */
  protected touch(keyHash: string): KeyReport {
    let report = this.byKey.get(keyHash)
    if (report) this.byKey.delete(keyHash)
    else report = { entries: new Map(), bytes: 0 }
    this.byKey.set(keyHash, report)
    return report
  }

  protected evict(): void {
    while (this.byKey.size > bounds.keys || (this.total > bounds.bytes && this.byKey.size > 1)) {
      const [oldest, report] = this.byKey.entries().next().value!
      this.byKey.delete(oldest)
      this.total -= report.bytes
    }
  }
}

export const memoryStore = () => new MemoryStore()

/**
 * @module report/durable
 * The migration report on Workers: one Durable Object per key fingerprint (binding `REPORTS`,
 * optional), so every edge location adds to and reads the same report and it survives deploys.
 * Each entry is one storage key (`e:<method> <path> <client>`), so a call writes one small value;
 * compare mode's aggregates likewise, one per operation (`v:<method> <path>`, src/compare/).
 */
import { addCall, bounds, entryKey, type CallEvent, type ReportEntry } from './entries'
import { addOutcome, type Outcome, type Verification } from '../compare'
import type { ReportNamespace } from '../http/env'
import type { ReportStore } from './store'

export type { ReportNamespace }

interface ObjectState {
  storage: {
    list<T>(options: { prefix: string }): Promise<Map<string, T>>
    put(key: string, value: unknown): Promise<void>
  }
  blockConcurrencyWhile<T>(fn: () => Promise<T>): Promise<T>
}

const origin = 'https://report.v2bridge'

/** The Durable Object class (exported by src/worker.ts as `ReportObject`). */
export class ReportObject {
  private entries = new Map<string, ReportEntry>()
  private verification = new Map<string, Verification>()

  constructor(private readonly state: ObjectState) {
    void state.blockConcurrencyWhile(async () => {
      const stored = await state.storage.list<ReportEntry>({ prefix: 'e:' })
      for (const [key, entry] of stored) this.entries.set(key.slice(2), entry)
      const checks = await state.storage.list<Verification>({ prefix: 'v:' })
      for (const [key, v] of checks) this.verification.set(key.slice(2), v)
    })
  }

  async fetch(request: Request): Promise<Response> {
    const compared = new URL(request.url).pathname === '/compared'
    if (compared && request.method !== 'POST') return Response.json([...this.verification.values()])
    if (compared) {
      const outcome = (await request.json()) as Outcome
      addOutcome(this.verification, outcome, bounds, bounds.bytesPerKey)
      const key = `${outcome.method} ${outcome.path}`
      const v = this.verification.get(key)
      if (v) await this.state.storage.put(`v:${key}`, v)
      return new Response(null, { status: 204 })
    }
    if (request.method !== 'POST') return Response.json([...this.entries.values()])
    const call = (await request.json()) as CallEvent
    addCall(this.entries, call)
    const key = entryKey(call)
    const entry = this.entries.get(key)
    // Past the entry bound the call is dropped, and nothing is written.
    if (entry) await this.state.storage.put(`e:${key}`, entry)
    return new Response(null, { status: 204 })
  }
}

export function durableStore(namespace: ReportNamespace): ReportStore {
  const stub = (keyHash: string) => namespace.get(namespace.idFromName(keyHash) as never)
  return {
    record: (keyHash, call) =>
      stub(keyHash).fetch(`${origin}/calls`, { method: 'POST', body: JSON.stringify(call) }),
    read: async (keyHash) =>
      (await (await stub(keyHash).fetch(`${origin}/calls`)).json()) as ReportEntry[],
    compared: (keyHash, outcome) =>
      stub(keyHash).fetch(`${origin}/compared`, { method: 'POST', body: JSON.stringify(outcome) }),
    verification: async (keyHash) =>
      (await (await stub(keyHash).fetch(`${origin}/compared`)).json()) as Verification[],
  }
}

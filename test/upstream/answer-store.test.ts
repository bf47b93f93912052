/**
 * The second tier of shared NRQL answers (src/upstream/answer-store.ts, through reuse.ts): two
 * clients of their own ("isolates") over one store and the simulator, which counts NRQL. A stored
 * answer reaches only a key NerdGraph proved for its account; answers with errors are not stored;
 * a store's TTL is the window's class; a store that fails or hangs is a miss. Fixed clock: half past
 * the current minute.
 */
import { describe, expect, it } from 'vitest'
import type { Simulator } from '../../simulator'
import { createUpstream } from '../../src/upstream/nerdgraph'
import { nrqlDocument } from '../../src/upstream/nrql-document'
import { createSharedReads, defaultReuse } from '../../src/upstream/reuse'
import type { SharedAnswerStore } from '../../src/upstream/answer-store'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { minute } from '../metrics/helpers'

const now0 = Math.floor(Date.now() / minute) * minute + 30_000
const settled = Math.floor(now0 / minute) * minute - defaultReuse.settleMs
const nrql = (until: number) =>
  "SELECT count(newrelic.timeslice.value) FROM Metric WHERE entity.guid = 'MTAwMDAwMXxBUE18QVBQTElDQVRJT058OTA0NTgyMg' " +
  `AND metricTimesliceName IN ('HttpDispatcher') SINCE ${until - 5 * minute} UNTIL ${until}`
const read = (until: number) => [nrqlDocument, { accountId: 1000001, nrql: nrql(until) }] as const

/** A store in memory, as JSON (what the Cache API keeps), counting its reads and writes. */
function memoryStore() {
  const held = new Map<string, string>()
  const puts: { key: string; ttlMs: number }[] = []
  let gets = 0
  const store: SharedAnswerStore = {
    get: async (key) => {
      gets++
      const text = held.get(key)
      return text === undefined ? undefined : JSON.parse(text)
    },
    put: async (key, value, ttlMs) => {
      puts.push({ key, ttlMs })
      held.set(key, JSON.stringify(value))
    },
  }
  return { store, puts, gets: () => gets, held }
}

/** One isolate's client for `apiKey`, over `sim` and `store`; `edit` changes NerdGraph's answers.
 * The store may take `waitMs` (long, so that what a test counts does not hang on the machine's load). */
function isolate(
  sim: Simulator,
  store: SharedAnswerStore,
  {
    apiKey = DEMO_KEYS.all as string,
    edit = undefined as ((body: any) => void) | undefined,
    waitMs = 60_000,
  } = {}
) {
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await sim.fetch(new Request(input, init))
    if (!edit) return res
    const body = await res.json()
    edit(body)
    return new Response(JSON.stringify(body), { status: res.status, headers: res.headers })
  }) as typeof globalThis.fetch
  const endpoint = 'http://simulator.test/graphql'
  const upstream = createUpstream({
    endpoint,
    fetch,
    reuse: createSharedReads({ storeWaitMs: waitMs }, { store, scope: endpoint }),
    clock: { now: () => now0, random: () => 0, sleep: async () => {} },
  })
  return upstream.forCaller({ apiKey, partition: `p:${apiKey}`, timeoutMs: 5000 })
}

describe('answers shared through a store', () => {
  it('gives another isolate the answer once NerdGraph proved its key for the account', async () => {
    const { sim } = harness()
    const s = memoryStore()
    const first = await isolate(sim, s.store).query(...read(settled))
    expect(s.puts.length).toBe(1)
    expect(sim.stats().nrqlQueries).toBe(1)
    const before = sim.stats().graphqlRequests
    const second = isolate(sim, s.store)
    expect(await second.query(...read(settled))).toEqual(first)
    // one request, the key's accounts (no NRQL), then the stored answer
    expect(sim.stats().graphqlRequests - before).toBe(1)
    expect(sim.stats().nrqlQueries).toBe(1)
    const gets = s.gets()
    expect(await second.query(...read(settled))).toEqual(first) // from its own memory now
    expect(s.gets()).toBe(gets)
    expect(s.puts.length).toBe(1)
  })

  it('never gives it to a key that cannot read the account: that key asks NerdGraph itself', async () => {
    const { sim } = harness()
    const s = memoryStore()
    const first = await isolate(sim, s.store).query(...read(settled))
    const before = sim.stats()
    // DEMO_KEYS.one reads 1000002 only
    const own = await isolate(sim, s.store, { apiKey: DEMO_KEYS.one })
      .query(...read(settled))
      .catch((err: unknown) => err)
    expect(first.errors).toEqual([])
    expect(own).toMatchObject({ status: 403, title: 'Access to this account is not allowed' })
    expect(sim.stats().graphqlRequests - before.graphqlRequests).toBe(2) // its accounts, its NRQL
  })

  it('stores for the time of the window’s class: settled, just closed, open', async () => {
    const { sim } = harness()
    const s = memoryStore()
    const ng = isolate(sim, s.store)
    const closed = Math.floor(now0 / minute) * minute
    for (const until of [settled, closed, closed + minute]) await ng.query(...read(until))
    expect(s.puts.map((p) => p.ttlMs)).toEqual([
      defaultReuse.closedMs,
      defaultReuse.recentMs,
      defaultReuse.openMs,
    ])
    expect(new Set(s.puts.map((p) => p.key)).size).toBe(3)
    for (const { key } of s.puts) expect(key).toMatch(/^[0-9a-f]{64}$/)
  })

  it('stores no answer NerdGraph gave with errors', async () => {
    const { sim } = harness()
    const s = memoryStore()
    const withError = (body: any) => {
      if (body.data?.actor?.account)
        body.errors = [{ message: 'NRDB query timed out', path: ['actor', 'account', 'nrql'] }]
    }
    await isolate(sim, s.store, { edit: withError })
      .query(...read(settled))
      .catch(() => undefined)
    expect(sim.stats().nrqlQueries).toBeGreaterThan(0)
    expect(s.puts).toEqual([])
  })

  it('takes a store that throws or never answers for a miss: each isolate asks NerdGraph', async () => {
    const { sim } = harness()
    const throwing: SharedAnswerStore = {
      get: () => Promise.reject(new Error('cache down')),
      put: () => Promise.reject(new Error('cache down')),
    }
    const hanging: SharedAnswerStore = {
      get: () => new Promise(() => {}),
      put: () => new Promise(() => {}),
    }
    for (const store of [throwing, hanging]) {
      const before = sim.stats().nrqlQueries
      const waitMs = defaultReuse.storeWaitMs
      const a = await isolate(sim, store, { waitMs }).query(...read(settled))
      const b = await isolate(sim, store, { waitMs }).query(...read(settled))
      expect(b).toEqual(a)
      expect(sim.stats().nrqlQueries - before).toBe(2)
    }
  })
})

describe('createSharedReads with a store', () => {
  it('keeps what the store gives only while true, and never longer than closedMs', async () => {
    const s = memoryStore()
    const reuse = createSharedReads({}, { store: s.store, scope: 'x' })
    const vars = { accountId: 7, nrql: nrql(settled) }
    await reuse.set('id', { rows: [1] }, vars, now0)
    const other = createSharedReads({}, { store: s.store, scope: 'x' })
    const stored = await other.fromStore('id', now0)
    expect(stored).toEqual({ value: { rows: [1] }, until: now0 + defaultReuse.closedMs })
    expect(await other.fromStore('id', now0 + defaultReuse.closedMs)).toBeUndefined()
    // another endpoint's store keys never meet these
    expect(
      await createSharedReads({}, { store: s.store, scope: 'y' }).fromStore('id', now0)
    ).toBeUndefined()
    other.keep('id', { value: 1, until: now0 + 10 * defaultReuse.closedMs }, now0)
    expect(other.get('id', now0 + defaultReuse.closedMs - 1)).toBe(1)
    expect(other.get('id', now0 + defaultReuse.closedMs)).toBeUndefined()
    s.held.set([...s.held.keys()][0]!, '"not an answer"')
    expect(await other.fromStore('id', now0)).toBeUndefined()
  })
})

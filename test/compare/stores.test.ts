/**
 * Compare mode's aggregates in the migration report's stores (src/report/): in memory within the
 * key's byte bound, and in the Workers Durable Object (src/report/durable.ts) one storage value per
 * operation, read back after a restart of the object.
 */
import { describe, expect, it } from 'vitest'
import { memoryStore } from '../../src/report/store'
import { bounds } from '../../src/report/entries'
import { durableStore, ReportObject } from '../../src/report/durable'
import type { Outcome } from '../../src/compare'

const outcome = (path: string, differs = false): Outcome => ({
  method: 'GET',
  path,
  result: differs ? 'differing' : 'equal',
  differences: differs
    ? [{ path: 'application.name', at: 'application.name', kind: 'value', v2: 'a', bridge: 'b' }]
    : [],
  noisy: [],
  cosmetic: [],
})

describe('memory store', () => {
  it("keeps a key's verification apart from other keys'", async () => {
    const store = memoryStore()
    store.compared('k1', outcome('/v2/applications/{id}', true))
    store.compared('k1', outcome('/v2/applications/{id}'))
    expect(await store.verification('k1')).toMatchObject([
      { path: '/v2/applications/{id}', compared: 2, equal: 1, differing: 1 },
    ])
    expect(await store.verification('k2')).toEqual([])
  })

  it('counts the aggregates against the key bytes of the report', () => {
    const store = memoryStore()
    for (let i = 0; i < 2 * bounds.entriesPerKey; i++)
      store.compared('k', outcome(`/op/${i}`, true))
    const { bytes } = store.size()
    expect(bytes).toBeGreaterThan(0)
    expect(bytes).toBeLessThanOrEqual(bounds.bytesPerKey)
  })
})

describe('Durable Object store', () => {
  it('stores one value per operation and reads it back after a restart', async () => {
    const storage = new Map<string, unknown>()
    const state = {
      storage: {
        list: async <T>({ prefix }: { prefix: string }) =>
          new Map([...storage].filter(([k]) => k.startsWith(prefix))) as Map<string, T>,
        put: async (key: string, value: unknown) => void storage.set(key, structuredClone(value)),
      },
      blockConcurrencyWhile: <T>(fn: () => Promise<T>) => fn(),
    }
    let object = new ReportObject(state)
    const namespace = {
      idFromName: (name: string) => name,
      get: () => ({
        fetch: (input: string, init?: RequestInit) => object.fetch(new Request(input, init)),
      }),
    }
    const store = durableStore(namespace)
    await store.compared!('k', outcome('/v2/applications/{id}', true))
    await store.compared!('k', outcome('/v2/applications/{id}'))
    expect([...storage.keys()]).toEqual(['v:GET /v2/applications/{id}'])
    object = new ReportObject(state)
    await new Promise((r) => setTimeout(r, 0))
    expect(await store.verification!('k')).toMatchObject([
      { compared: 2, equal: 1, differing: 1, paths: [{ path: 'application.name', count: 1 }] },
    ])
    expect(await store.read('k')).toEqual([])
  })
})

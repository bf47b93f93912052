/**
 * Shared NRQL answers across isolates (src/upstream/cache-api-store.ts): two apps, as two isolates of one
 * data center have, each with memory of its own and the Worker's Cache API store, read the same
 * settled minutes; NerdGraph (the simulator) runs their NRQL once. miniflare's `caches.default`
 * keeps what is put, as Cloudflare's does within one data center. Windows relative to the clock the
 * test runs on (shifted-clock.ts).
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, inject, it } from 'vitest'
import { createApp } from '../../src/app'
import { cacheAnswerStore } from '../../src/upstream/cache-api-store'

const key = 'NRAK-DEMO0000000000000000000000'
const minute = 60_000

async function simStats(): Promise<{ graphqlRequests: number; nrqlQueries: number }> {
  return (await fetch(`${inject('simulatorUrl')}/_sim/stats`)).json()
}

async function read(app: ReturnType<typeof createApp>, url: string) {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(url, { headers: { 'X-Api-Key': key } }), env, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

describe('answers shared across isolates through caches.default', () => {
  it('runs the NRQL of the same settled minutes once for two isolates', async () => {
    const end = Math.floor(Date.now() / minute) * minute - 40 * minute
    const url =
      'https://v2bridge.test/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher' +
      `&values[]=call_count&summarize=true&from=${new Date(end - 17 * minute).toISOString()}` +
      `&to=${new Date(end).toISOString()}`
    const [one, two] = [0, 1].map(() => createApp({ answerStore: cacheAnswerStore }))
    const solo = createApp() // a third isolate without the store: what a read costs alone
    const before = await simStats()
    const first = await read(one!, url)
    expect(first.status).toBe(200)
    const afterOne = await simStats()
    const own = afterOne.nrqlQueries - before.nrqlQueries
    expect(own).toBeGreaterThan(0)

    const second = await read(two!, url)
    expect(second.status).toBe(200)
    expect(await second.json()).toEqual(await first.json())
    const afterTwo = await simStats()
    const shared = afterTwo.nrqlQueries - afterOne.nrqlQueries

    const alone = await read(solo, url)
    expect(alone.status).toBe(200)
    const soloCost = (await simStats()).nrqlQueries - afterTwo.nrqlQueries
    // The second isolate ran none of the NRQL (its key's accounts, asked once, are no NRQL); an
    // isolate without the store runs all of it again.
    expect(shared).toBe(0)
    expect(soloCost).toBe(own)
  })
})

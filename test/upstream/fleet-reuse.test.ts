/**
 * NRQL answers shared across callers (src/upstream/reuse.ts) and slots per user
 * (src/upstream/limits.ts), counted by the simulator: keys of one account share one NerdGraph
 * request for the same closed minutes; a key that cannot read the account never gets the answer; a
 * window reaching into the current minute is reused only while fresh; a user's keys share its 25
 * slots once NerdGraph told the user. Windows are relative to the clock the test runs on.
 */
import { describe, expect, it } from 'vitest'
import { FLEET_KEYS, PRODUCTION, type Simulator } from '../../simulator'
import { createUpstream } from '../../src/upstream/nerdgraph'
import { nrqlDocument } from '../../src/upstream/nrql-document'
import { defaultReuse } from '../../src/upstream/reuse'
import { createUpstreamLimits } from '../../src/upstream/limits'
import { keyCheckDocument } from '../../src/upstream/key-check'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { iso, minute, minutesAgo } from '../metrics/helpers'

const appId = 9045822 // Checkout Service, in PRODUCTION
const [a, , b] = FLEET_KEYS // two keys of one user, both created in PRODUCTION
const other = FLEET_KEYS.find((k) => k.accountId === PRODUCTION.id && k.userId !== a!.userId)!
const data = (from: number, to: number) =>
  `/v2/applications/${appId}/metrics/data.json?names[]=HttpDispatcher&values[]=call_count` +
  `&summarize=true&from=${iso(from)}&to=${iso(to)}`

/** Each of two keys of one account reads it once on its own (NerdGraph answering it is what lets a
 * key share), then both read the same closed minutes, one after the other: equal answers, and the
 * NerdGraph requests those two reads cost. */
async function sameMinutesTwice(h: ReturnType<typeof harness>) {
  for (const k of [a!, other])
    expect((await h.get(data(minutesAgo(60), minutesAgo(40)), { key: k.key })).status).toBe(200)
  const before = h.sim.stats().graphqlRequests
  const first = await h.get(data(minutesAgo(20), minutesAgo(10)), { key: a!.key })
  const second = await h.get(data(minutesAgo(20), minutesAgo(10)), { key: other.key })
  expect([first.status, second.status]).toEqual([200, 200])
  expect(await second.json()).toEqual(await first.json())
  return { before, sent: h.sim.stats().graphqlRequests - before }
}

describe('answers shared across callers', () => {
  it('gives two keys of one account one NerdGraph request for the same closed minutes', async () => {
    const h = harness()
    const { before, sent } = await sameMinutesTwice(h)
    expect(sent).toBe(1)
    // in flight at once: one request too
    const window = data(minutesAgo(30), minutesAgo(25))
    const both = await Promise.all([a!, other].map((k) => h.get(window, { key: k.key })))
    expect(both.map((r) => r.status)).toEqual([200, 200])
    expect(h.sim.stats().graphqlRequests - before).toBe(2)
  })

  it('shares nothing with SHARED_ANSWERS=false: each key sends its own request', async () => {
    expect((await sameMinutesTwice(harness({ SHARED_ANSWERS: 'false' }))).sent).toBe(2)
  })

  it('never gives the answer to a key that cannot read the account: it asks itself and gets 404', async () => {
    const { get, sim } = harness()
    const window = data(minutesAgo(20), minutesAgo(10))
    expect((await get(window)).status).toBe(200) // the all-accounts demo key, twice: kept
    expect((await get(window)).status).toBe(200)
    const keysBefore = sim.stats().byKey
    const before = sim.stats().graphqlRequests
    // DEMO_KEYS.one sees 1000002 only; pinned to 1000001 it reaches the account's NRQL itself.
    const res = await get(window, { key: DEMO_KEYS.one, headers: { 'X-Account-Id': '1000001' } })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: { title: 'No Application found with the given ID' } })
    expect(sim.stats().graphqlRequests - before).toBeGreaterThan(0)
    expect(Object.keys(sim.stats().byKey).length).toBe(Object.keys(keysBefore).length + 1)
  })
})

describe('a window reaching into the current minute', () => {
  const now0 = Math.floor(Date.now() / minute) * minute + 30_000 // half past the current minute
  function client(sim: Simulator, clock: { now: number }) {
    const fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      sim.fetch(new Request(input, init))) as typeof globalThis.fetch
    const upstream = createUpstream({
      endpoint: 'http://simulator.test/graphql',
      fetch,
      clock: { now: () => clock.now, random: () => 0, sleep: async () => {} },
    })
    return upstream.forCaller({ apiKey: DEMO_KEYS.all, partition: 'p', timeoutMs: 5000 })
  }
  const nrql = (until: number) =>
    "SELECT count(newrelic.timeslice.value) FROM Metric WHERE entity.guid = 'MTAwMDAwMXxBUE18QVBQTElDQVRJT058OTA0NTgyMg' " +
    `AND metricTimesliceName IN ('HttpDispatcher') SINCE ${until - 5 * minute} UNTIL ${until}`

  it('is reused only for its freshness; a just-closed window for a minute; a settled one stays', async () => {
    const { sim } = harness()
    const clock = { now: now0 }
    const ng = client(sim, clock)
    const ask = (until: number) => ng.query(nrqlDocument, { accountId: 1000001, nrql: nrql(until) })
    const open = Math.floor(now0 / minute) * minute + minute // the end of the current minute
    const closed = Math.floor(now0 / minute) * minute // late data may still land in it
    const settled = closed - defaultReuse.settleMs
    await ask(open)
    await ask(closed)
    await ask(settled)
    expect(sim.stats().graphqlRequests).toBe(3)
    clock.now += defaultReuse.openMs - 1
    await ask(open)
    await ask(closed)
    await ask(settled)
    expect(sim.stats().graphqlRequests).toBe(3)
    clock.now += 2
    await ask(open)
    expect(sim.stats().graphqlRequests).toBe(4)
    clock.now = now0 + defaultReuse.recentMs
    await ask(closed)
    expect(sim.stats().graphqlRequests).toBe(5)
    clock.now = now0 + defaultReuse.proofMs - minute // the key's proof of the account still holds
    await ask(settled)
    expect(sim.stats().graphqlRequests).toBe(5)
  })
})

describe('slots per user (docs "NerdGraph usage limits": 25 per user, "not per user key")', () => {
  it('holds two keys of one user to the user’s slots once NerdGraph told the user', async () => {
    const { sim } = harness({}, { limits: { concurrentPerUser: 2 } })
    await sim.fetch(
      new Request('http://sim.test/_sim/faults', { method: 'POST', body: '{"latencyMs":30}' })
    )
    const fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      sim.fetch(new Request(input, init))) as typeof globalThis.fetch
    const upstream = createUpstream({
      endpoint: 'http://simulator.test/graphql',
      fetch,
      limits: createUpstreamLimits({ maxInFlight: 2 }),
    })
    const callers = [a!, b!].map((k, i) =>
      upstream.forCaller({ apiKey: k.key, partition: `key${i}`, timeoutMs: 5000 })
    )
    let n = 0
    const round = () =>
      Promise.allSettled(
        callers.flatMap((ng) =>
          [0, 1, 2].map(() =>
            ng.query(nrqlDocument, {
              accountId: PRODUCTION.id,
              nrql: `SELECT count(newrelic.timeslice.value) FROM Metric WHERE appId = ${appId} AND metricTimesliceName = 'HttpDispatcher' SINCE ${++n + 10} minutes ago`,
            })
          )
        )
      )
    const concurrency = () => sim.stats().limited.byUser[String(a!.userId)]?.concurrency ?? 0
    // Per key until the user is known: 2 + 2 in flight, past the user's 2.
    const unknown = await round()
    expect(unknown.filter((r) => r.status === 'rejected').length).toBeGreaterThan(0)
    expect(concurrency()).toBeGreaterThan(0)
    const refused = concurrency()
    for (const ng of callers) await ng.query(keyCheckDocument) // NerdGraph tells each key's user
    const known = await round()
    expect(known.map((r) => r.status)).toEqual(Array(6).fill('fulfilled'))
    expect(concurrency()).toBe(refused)
  })
})

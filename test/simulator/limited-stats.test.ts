/**
 * `/_sim/stats` counts the 429s it answered by the limit behind each (per user) and the NRQL queries
 * it refused (per account), and the fleet bench's keys (bench/fleet.ts): 10 keys of 2 users, each
 * seeing the one account it was created in, with `stagingFleet` applications added to STAGING.
 * The limits run on a wall clock the tests drive; the dataset's clock is fixed.
 */
import { describe, expect, it } from 'vitest'
import { createSimulator, DEMO_KEYS, FLEET_KEYS, PRODUCTION, STAGING } from '../../simulator'
import type { LimitedStats } from '../../simulator/server/limits'
import { NOW, post } from './graphql-client'

const NRQL =
  'query($a: Int!, $q: Nrql!) { actor { account(id: $a) { nrql(query: $q) { results } } } }'
const small =
  "SELECT count(newrelic.timeslice.value) FROM Metric WHERE appId = 9045822 AND metricTimesliceName = 'HttpDispatcher' SINCE 30 minutes ago"

const limited = async (sim: ReturnType<typeof createSimulator>) =>
  (
    (await (await sim.fetch(new Request('http://sim.test/_sim/stats'))).json()) as {
      limited: LimitedStats
    }
  ).limited

describe('GET /_sim/stats `limited`', () => {
  it('counts 429s per user by limit and refused queries per account, and clears on reset', async () => {
    const clock = { now: 1_000_000 }
    const sim = createSimulator({
      now: () => NOW,
      limits: { identicalPerUserPerMinute: 2, perAccountPerMinute: 4 },
      wallClock: () => clock.now,
    })
    const ask = (q: string, key: string = DEMO_KEYS.all, a = 1000002) =>
      post(sim, NRQL, { a, q }, key)
    expect(await limited(sim)).toEqual({ byUser: {}, byAccount: {} })
    for (const status of [200, 200, 429]) expect((await ask(small)).status).toBe(status)
    expect((await ask(`${small} LIMIT 1`)).status).toBe(200) // the account's 4th
    expect((await ask(`${small} LIMIT 2`)).status).toBe(429) // and 5th
    expect(await limited(sim)).toEqual({
      byUser: { '4100001': { concurrency: 0, account: 1, identical: 1 } },
      byAccount: { '1000002': { account: 1, identical: 1 } },
    })
    sim.reset()
    expect(await limited(sim)).toEqual({ byUser: {}, byAccount: {} })
  })

  it('counts a request past the user’s requests in flight as concurrency', async () => {
    const sim = createSimulator({ now: () => NOW, limits: { concurrentPerUser: 1 } })
    await sim.fetch(
      new Request('http://sim.test/_sim/faults', { method: 'POST', body: '{"latencyMs":50}' })
    )
    const held = post(sim, NRQL, { a: 1000002, q: small })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect((await post(sim, NRQL, { a: 1000002, q: small })).status).toBe(429)
    expect((await held).status).toBe(200)
    expect((await limited(sim)).byUser).toEqual({
      '4100001': { concurrency: 1, account: 0, identical: 0 },
    })
  })
})

describe('the fleet keys', () => {
  it('are 10 keys of 2 users, each seeing the one account it was created in', async () => {
    expect(new Set(FLEET_KEYS.map((k) => k.userId)).size).toBe(2)
    expect(FLEET_KEYS.map((k) => k.accountId)).toEqual(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? STAGING.id : PRODUCTION.id))
    )
    const sim = createSimulator({ now: () => NOW })
    const seen = async (key: string) => {
      const res = await post(sim, '{ actor { user { id } accounts { id } } }', {}, key)
      return (await res.json()) as {
        data: { actor: { user: { id: number }; accounts: { id: number }[] } }
      }
    }
    for (const k of FLEET_KEYS) {
      const { data } = await seen(k.key)
      expect(data.actor).toEqual({ user: { id: k.userId }, accounts: [{ id: k.accountId }] })
    }
  })

  it('leave the demo as it is; `stagingFleet` adds applications to STAGING only', () => {
    const plain = createSimulator({ now: () => NOW }).dataset
    const fleet = createSimulator({ now: () => NOW, stagingFleet: 10 }).dataset
    const count = (d: typeof plain, account: number) =>
      d.applications().filter((a) => a.accountId === account).length
    expect(count(fleet, STAGING.id)).toBe(count(plain, STAGING.id) + 10)
    expect(count(fleet, PRODUCTION.id)).toBe(count(plain, PRODUCTION.id))
  })
})

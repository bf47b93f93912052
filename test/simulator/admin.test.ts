import { describe, expect, it } from 'vitest'
import { DEMO_KEYS } from '../../simulator'
import { fixedSimulator, gql, MINUTE, NOW } from './graphql-client'

const end = Math.floor(NOW / MINUTE) * MINUTE
const admin = (sim: ReturnType<typeof fixedSimulator>, path: string, init?: RequestInit) =>
  sim.fetch(new Request(`http://simulator.test/_sim${path}`, init))

describe('GET /_sim/stats', () => {
  it('counts authenticated requests and each nrql field, per masked key', async () => {
    const sim = fixedSimulator()
    await gql(sim, '{ actor { accounts { id } } }', {}, 'bad-key')
    const nrql = `{ actor { account(id: 1000002) {
      a: nrql(query: "SELECT count(*) FROM Metric SINCE 5 minutes ago") { results }
      b: nrql(query: "SELECT max(newrelic.timeslice.value) FROM Metric SINCE 5 minutes ago") { results } } } }`
    await gql(sim, nrql, {}, DEMO_KEYS.one)
    await gql(sim, '{ actor { accounts { id } } }')
    const response = await admin(sim, '/stats')
    const stats = await response.json()
    expect(stats).toMatchObject({ graphqlRequests: 2, nrqlQueries: 2 })
    expect(stats.queries).toEqual([
      'SELECT count(*) FROM Metric SINCE 5 minutes ago',
      'SELECT max(newrelic.timeslice.value) FROM Metric SINCE 5 minutes ago',
    ])
    expect(sim.stats()).toEqual(stats)
    const keys = Object.keys(stats.byKey)
    expect(keys).toHaveLength(2)
    expect(JSON.stringify(stats)).not.toContain(DEMO_KEYS.one)
    expect(JSON.stringify(stats)).not.toContain(DEMO_KEYS.all)
    const one = keys.find((k) => stats.byKey[k].nrqlQueries === 2)!
    expect(one.startsWith(DEMO_KEYS.one.slice(0, 9))).toBe(true)
    expect(stats.byKey[one]).toEqual({ graphqlRequests: 1, nrqlQueries: 2 })
  })

  it('is cleared by POST /_sim/reset and by reset()', async () => {
    const sim = fixedSimulator()
    await gql(sim, '{ actor { accounts { id } } }')
    expect((await admin(sim, '/reset', { method: 'POST' })).status).toBe(200)
    expect(sim.stats()).toEqual({
      graphqlRequests: 0,
      nrqlQueries: 0,
      byKey: {},
      queries: [],
      limited: { byUser: {}, byAccount: {} },
    })
    await gql(sim, '{ actor { accounts { id } } }')
    sim.reset()
    expect(sim.stats().graphqlRequests).toBe(0)
  })
})

describe('GET /_sim/timeslices', () => {
  it('returns the ground-truth rows of one metric', async () => {
    const sim = fixedSimulator()
    const from = new Date(end - 3 * MINUTE).toISOString()
    const response = await admin(
      sim,
      `/timeslices?appId=9045851&name=HttpDispatcher&from=${from}&to=${end}`
    )
    expect(response.status).toBe(200)
    const { rows } = await response.json()
    const truth = sim.dataset.timeslices({
      appId: 9045851,
      name: 'HttpDispatcher',
      from: end - 3 * MINUTE,
      to: end,
    })
    expect(rows).toEqual(
      truth.map((r) => ({
        timestamp: r.timestamp,
        host: r.host,
        instanceName: r.instanceName,
        ...r.value,
      }))
    )
    expect(rows.length).toBeGreaterThan(0)
  })

  it('filters by host, instance and scope', async () => {
    const sim = fixedSimulator()
    const app = sim.dataset.application(9045822)!
    const scoped = app.metrics.find((m) => m.scope !== null)!
    const q = `appId=9045822&name=${encodeURIComponent(scoped.name)}&from=${end - 5 * MINUTE}&to=${end}`
    const host = await (
      await admin(sim, `/timeslices?${q}&host=web-02.prod.example.com&instanceName=web-02:8081`)
    ).json()
    expect(new Set(host.rows.map((r: { instanceName: string }) => r.instanceName))).toEqual(
      new Set(['web-02:8081'])
    )
    const withScope = await (
      await admin(sim, `/timeslices?${q}&scope=${encodeURIComponent(scoped.scope!)}`)
    ).json()
    const without = await (await admin(sim, `/timeslices?${q}`)).json()
    expect(withScope.rows.length).toBe(without.rows.length)
  })

  it.each([
    ['missing appId', '?name=HttpDispatcher'],
    ['missing name', '?appId=9045822'],
    ['bad appId', '?appId=abc&name=HttpDispatcher'],
    ['bad from', '?appId=9045822&name=HttpDispatcher&from=yesterday'],
    ['reversed window', `?appId=9045822&name=HttpDispatcher&from=${end}&to=${end - MINUTE}`],
  ])('answers 400 for %s', async (_, query) => {
    const sim = fixedSimulator()
    expect((await admin(sim, `/timeslices${query}`)).status).toBe(400)
  })
})

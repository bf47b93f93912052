import { describe, expect, it } from 'vitest'
import { at, fixedSimulator, gql, MINUTE, NOW } from './graphql-client'

const NRQL = `query($a: Int!, $q: Nrql!) { actor { account(id: $a) {
  nrql(query: $q, timeout: 30) { results totalResult otherResult nrql metadata { eventTypes facets messages timeWindow { begin end since until compareWith } } } } } }`

describe('NRQL through /graphql', () => {
  const sim = fixedSimulator()
  const end = Math.floor(NOW / MINUTE) * MINUTE
  const a = end - 90 * MINUTE
  const b = end - 30 * MINUTE

  it('counts HttpDispatcher calls exactly as the ground-truth timeslices', async () => {
    const q = `SELECT count(newrelic.timeslice.value) AS 'c' FROM Metric WHERE appId = 9045822 AND metricTimesliceName = 'HttpDispatcher' SINCE ${a} UNTIL ${b}`
    const { body } = await gql(sim, NRQL, { a: 1000001, q })
    expect(body.errors).toBeUndefined()
    const truth = sim.dataset
      .timeslices({ appId: 9045822, name: 'HttpDispatcher', from: a, to: b })
      .reduce((sum, r) => sum + r.value.count, 0)
    expect(truth).toBeGreaterThan(0)
    expect(at(body.data, 'actor', 'account', 'nrql', 'results', 0, 'c')).toBe(truth)
    expect(at(body.data, 'actor', 'account', 'nrql', 'nrql')).toBe(q)
    expect(at(body.data, 'actor', 'account', 'nrql', 'metadata', 'timeWindow')).toMatchObject({
      begin: a,
      end: b,
    })
  })

  it('facets by host over the shared host name without mixing the two apps', async () => {
    const host = 'ip-10-0-1-17.ec2.internal'
    const q = `SELECT sum(newrelic.timeslice.value) AS 's' FROM Metric WHERE appId = 9045851 AND metricTimesliceName = 'HttpDispatcher' FACET host SINCE ${a} UNTIL ${b} LIMIT MAX`
    const { body } = await gql(sim, NRQL, { a: 1000001, q })
    expect(body.errors).toBeUndefined()
    const results = at(body.data, 'actor', 'account', 'nrql', 'results') as Record<
      string,
      unknown
    >[]
    const row = results.find((r) => Object.values(r).includes(host))
    const truth = sim.dataset
      .timeslices({ appId: 9045851, name: 'HttpDispatcher', host, from: a, to: b })
      .reduce((sum, r) => sum + r.value.total, 0)
    expect(results).toHaveLength(3)
    expect(row?.['s']).toBeCloseTo(truth, 9)
  })

  it('returns an NRQL error beside the data of the other aliases', async () => {
    const query = `{ actor { account(id: 1000001) {
      good: nrql(query: "SELECT count(*) FROM Metric WHERE appId = 9045851 SINCE 5 minutes ago") { results }
      bad: nrql(query: "SELECT nonsense( FROM Metric") { results } } } }`
    const { status, body } = await gql(sim, query)
    expect(status).toBe(200)
    expect(at(body.data, 'actor', 'account', 'bad')).toBeNull()
    expect(at(body.data, 'actor', 'account', 'good', 'results', 0)).toBeDefined()
    expect(body.errors).toHaveLength(1)
    expect(body.errors?.[0]?.path).toEqual(['actor', 'account', 'bad'])
    expect(String(body.errors?.[0]?.extensions?.['errorClass'])).toMatch(
      /^(INVALID_INPUT|NRQL_SYNTAX_ERROR)$/
    )
  })

  it('shows the data of the key account only', async () => {
    const q = `SELECT count(newrelic.timeslice.value) AS 'c' FROM Metric WHERE appId = 9045822 SINCE ${a} UNTIL ${b}`
    const { body } = await gql(sim, NRQL, { a: 1000002, q })
    expect(at(body.data, 'actor', 'account', 'nrql', 'results', 0, 'c')).toBe(0)
  })
})

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { rowsOf } from '../../src/resources/metrics/cold-scope'
import { harness } from '../helpers/harness'

const app = '/v2/applications/9045822'
const pinned = { ACCOUNT_ID: '1000001' }

/** Host and instance IDs as a warm app lists them. */
async function ids() {
  const { get } = harness(pinned)
  const hosts = (await (await get(`${app}/hosts.json`)).json()) as {
    application_hosts: { id: number; host: string }[]
  }
  const instances = (await (await get(`${app}/instances.json`)).json()) as {
    application_instances: { id: number; host: string }[]
  }
  return { host: hosts.application_hosts[0]!, instance: instances.application_instances[1]! }
}

describe('a host- or instance-scoped data call on a cold cache', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 23, 12, 7) }))
  afterEach(() => void vi.useRealTimers())

  it('costs one NerdGraph request with the account pinned, and answers as the warm call does', async () => {
    const { host } = await ids()
    const { get, sim } = harness(pinned)
    const path = `${app}/hosts/${host.id}/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&names[]=Nope&values[]=call_count&values[]=score`
    const cold = await get(path)
    expect(cold.status).toBe(200)
    expect(sim.stats().graphqlRequests).toBe(1)
    const sent = sim.stats().queries
    expect(sent.some((q) => q.includes('FACET metricTimesliceName, host SINCE'))).toBe(true)
    expect(sent.some((q) => q.includes("uniques(instanceName, 1000) AS 'instances'"))).toBe(true)

    const warm = await get(path)
    expect(sim.stats().graphqlRequests).toBe(2)
    expect(sim.stats().queries.at(-1)).toContain(`host = '${host.host}'`)
    const body = await cold.text()
    expect(body).toBe(await warm.text())
    const data = (JSON.parse(body) as { metric_data: Record<string, unknown> }).metric_data
    expect(data['metrics_found']).toEqual(['HttpDispatcher', 'Apdex'])
    expect(data['metrics_not_found']).toEqual(['Nope'])
  })

  it('picks one instance of a host in one request, slice by slice, and XML alike', async () => {
    const { instance } = await ids()
    const { get, sim } = harness(pinned)
    const path = `${app}/instances/${instance.id}/metrics/data.xml?names[]=HttpDispatcher&values[]=call_count`
    const cold = await get(path)
    expect(cold.status).toBe(200)
    expect(sim.stats().graphqlRequests).toBe(1)
    const warm = await get(path)
    expect(await cold.text()).toBe(await warm.text())
    expect(sim.stats().queries.at(-1)).toContain('instanceName = ')
  })

  it('answers 404 in v2 shape for an ID the application does not have, after one request', async () => {
    const { get, sim } = harness(pinned)
    const res = await get(`${app}/hosts/12345/metrics/data.json?names[]=HttpDispatcher`)
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({
      error: { title: 'No Application Host found with the given ID' },
    })
    expect(sim.stats().graphqlRequests).toBe(1)
  })

  it('keeps only the rows of the member it resolved, read by position in metadata.facets', () => {
    // The live shape of a several-attribute FACET: only `facet`, no `host` or `instanceName` key.
    const rows = [
      { facet: ['A', 'web-01', 'i1'] },
      { facet: ['A', 'web-01', 'i2'] },
      { facet: ['A', 'web-02', 'i1'] },
    ]
    const metadata = { facets: ['metricTimesliceName', 'host', 'instanceName'] }
    const data = { actor: { account: { q0: { results: rows, metadata }, k0: null } } }
    expect(rowsOf(data, { host: 'web-01' }).actor.account!['q0']!.results).toEqual(rows.slice(0, 2))
    expect(
      rowsOf(data, { host: 'web-01', instanceName: 'i2' }).actor.account!['q0']!.results
    ).toEqual([rows[1]])
    expect(rowsOf(data, { host: 'web-01' }).actor.account!['k0']).toBeNull()
  })
})

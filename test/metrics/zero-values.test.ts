/**
 * Known metric, no data → zero values, still found (docs "Extract metric timeslice data": "Metric
 * values that have existed in the past, but are no longer collected, will return a zero value"),
 * in one NerdGraph request; names the scope never reported stay in metrics_not_found.
 */
import { describe, expect, it } from 'vitest'
import { harness } from '../helpers/harness'
import { cost, metricData } from './helpers'

const checkout = 9045822
const stopped = 9045874 // Inventory Worker: stopped 2 days before start-up
const { get, sim } = harness()

describe('known metric names without data', () => {
  it('answers a 2024 range with zero-valued slices for names the application reports', async () => {
    const path =
      `/v2/applications/${checkout}/metrics/data.json?names[]=HttpDispatcher&names[]=No/Such/Metric` +
      `&names[]=Errors/all&values[]=call_count&values[]=error_count` +
      `&from=2024-03-01T10:00:00Z&to=2024-03-01T10:30:00Z`
    let body: Awaited<ReturnType<typeof metricData>> | undefined
    const spent = await cost(sim, async () => (body = await metricData(get, path)))
    expect(spent.requests).toBeLessThanOrEqual(2) // the first call also resolves the application
    expect(body!.metrics_found).toEqual(['HttpDispatcher', 'Errors/all'])
    expect(body!.metrics_not_found).toEqual(['No/Such/Metric'])
    const [http, errors] = body!.metrics
    // older than 8 days: the hour of NRDB's hourly rollups the 30 minutes lie in (docs/differences.md)
    expect(http!.timeslices).toHaveLength(1)
    expect(http!.timeslices[0]).toMatchObject({
      from: '2024-03-01T10:00:00+00:00',
      to: '2024-03-01T11:00:00+00:00',
    })
    for (const t of http!.timeslices) expect(t.values).toEqual({ call_count: 0 })
    for (const t of errors!.timeslices) expect(t.values).toEqual({ error_count: 0 })
  })

  it('costs one request once the application is resolved', async () => {
    const spent = await cost(sim, () =>
      metricData(
        get,
        `/v2/applications/${checkout}/metrics/data.json?names[]=Apdex&from=2024-03-01T10:00:00Z&to=2024-03-01T11:00:00Z`
      )
    )
    expect(spent.requests).toBe(1)
  })

  it('answers a stopped application over the default window with zeros, Errors/all included', async () => {
    const name = sim.dataset.metricNames(stopped).find((n) => n !== 'Errors/all')!
    const body = await metricData(
      get,
      `/v2/applications/${stopped}/metrics/data.json?names[]=${encodeURIComponent(name)}&names[]=Errors/all`
    )
    expect(body.metrics_found).toEqual([name, 'Errors/all'])
    expect(body.metrics_not_found).toEqual([])
    const errors = body.metrics[1]!
    expect(errors.timeslices).toHaveLength(30)
    for (const t of errors.timeslices) {
      expect(t.values).toEqual({ error_count: 0, errors_per_minute: 0 })
    }
  })

  it('renders the zero-valued metric in XML', async () => {
    const res = await get(
      `/v2/applications/${stopped}/metrics/data.xml?names[]=Errors/all&names[]=Nope&values[]=error_count&summarize=true`
    )
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain('<metrics_found>\n      <metrics_found>Errors/all</metrics_found>')
    expect(text).toContain('<metrics_not_found>\n      <metrics_not_found>Nope</metrics_not_found>')
    expect(text).toMatch(/<name>Errors\/all<\/name>[\s\S]*<error_count>0<\/error_count>/)
  })
})

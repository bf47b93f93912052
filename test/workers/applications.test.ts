import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

const key = 'NRAK-DEMO0000000000000000000000'

describe('v2bridge inside workerd', () => {
  it('lists applications from the simulator through the Worker entry', async () => {
    const res = await SELF.fetch(
      'https://v2bridge.test/v2/applications.json?filter[name]=Checkout',
      {
        headers: { 'X-Api-Key': key },
      }
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const body = (await res.json()) as { applications: { id: number; name: string }[] }
    expect(body.applications.length).toBeGreaterThan(0)
    for (const app of body.applications) {
      expect(Number.isInteger(app.id)).toBe(true)
      expect(app.name.toLowerCase()).toContain('checkout')
    }
  })

  it('answers 401 in v2 shape without a key', async () => {
    const res = await SELF.fetch('https://v2bridge.test/v2/applications.xml')
    expect(res.status).toBe(401)
    expect(await res.text()).toContain('<title>No API key specified</title>')
  })
})

describe('metric data inside workerd', () => {
  it('answers a summarized HttpDispatcher call in v2 shape', async () => {
    const res = await SELF.fetch(
      'https://v2bridge.test/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&values[]=average_response_time&summarize=true',
      { headers: { 'X-Api-Key': key } }
    )
    expect(res.status).toBe(200)
    const body = (await res.json()) as {
      metric_data: {
        metrics_found: string[]
        metrics: { name: string; timeslices: { values: Record<string, number> }[] }[]
      }
    }
    expect(body.metric_data.metrics_found).toEqual(['HttpDispatcher'])
    const values = body.metric_data.metrics[0]!.timeslices[0]!.values
    expect(Object.keys(values)).toEqual(['call_count', 'average_response_time']) // request order
    expect(Number.isInteger(values['call_count'])).toBe(true)
    expect(values['call_count']).toBeGreaterThan(0)
  })
})

import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

const key = 'NRAK-DEMO0000000000000000000000'

describe('explain inside workerd', () => {
  it('plans a metric-data call under /explain/v2/ without sending its NRQL, with its field rows from ASSETS', async () => {
    const res = await SELF.fetch(
      'https://v2bridge.test/explain/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&summarize=true',
      { headers: { 'X-Api-Key': key } }
    )
    expect(res.status).toBe(200)
    const { explain } = (await res.json()) as {
      explain: {
        lookups: { operation: string }[]
        nerdgraph: { operation: string; nrql: string[] }[]
        fields: Record<string, string>
      }
    }
    expect(explain.lookups.map((l) => l.operation)).toEqual(['FindEntity'])
    expect(explain.nerdgraph[0]!.operation).toBe('MetricData')
    expect(explain.nerdgraph[0]!.nrql[0]).toMatch(/FACET metricTimesliceName/)
    expect(explain.fields['metric_data.metrics[].name']).toBe('FACET metricTimesliceName')
  })
})

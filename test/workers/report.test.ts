import { SELF, env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

const key = 'NRAK-DEMO0000000000000000000000'
const other = 'NRAK-DEMO1111111111111111111111'
const base = 'https://v2bridge.test'

interface Report {
  report: {
    operations: {
      path: string
      count: number
      client: string
      metric_names: string[]
      fields: Record<string, string>
    }[]
  }
}

async function reportOf(apiKey: string, until: (r: Report) => boolean): Promise<Report> {
  for (let i = 0; ; i++) {
    const res = await SELF.fetch(`${base}/v2bridge/report.json`, {
      headers: { 'X-Api-Key': apiKey },
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Report
    if (until(body) || i === 50) return body
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('the migration report inside workerd', () => {
  it('records calls in the REPORTS Durable Object, per key', async () => {
    const res = await SELF.fetch(
      `${base}/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&summarize=true`,
      { headers: { 'X-Api-Key': key, 'User-Agent': 'Go-http-client/1.1' } }
    )
    expect(res.status).toBe(200)
    const mine = await reportOf(key, (r) => r.report.operations.length > 0)
    expect(mine.report.operations).toEqual([
      expect.objectContaining({
        path: '/v2/applications/{application_id}/metrics/data',
        count: 1,
        client: 'Go',
        metric_names: ['HttpDispatcher'],
        fields: expect.objectContaining({
          'metric_data.metrics[].name': 'FACET metricTimesliceName',
        }),
      }),
    ])
    const theirs = await reportOf(other, () => true)
    expect(theirs.report.operations).toEqual([])
    // The entries live in the key's Durable Object, not in the isolate.
    const reports = (env as unknown as { REPORTS: DurableObjectNamespace }).REPORTS
    const stored = await reports
      .get(reports.idFromName(await sha256(key)))
      .fetch('https://report.v2bridge/calls')
    expect(((await stored.json()) as { path: string }[]).map((e) => e.path)).toEqual([
      '/v2/applications/{application_id}/metrics/data',
    ])
  })
})

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

import { SELF } from 'cloudflare:test'
import { describe, expect, it, inject } from 'vitest'

// The Worker's clock is the suite's: under `faketime` workerd runs on the real clock and
// shifted-clock.ts moves `Date` here by the offset (test/helpers/real-clock.ts).
describe('the clock inside workerd', () => {
  it('is the clock global setup and the simulator run on, in the tests', () => {
    const setupAt = inject('setupAt')
    expect(Date.now()).toBeGreaterThanOrEqual(setupAt - 1000)
    // Hours, not 400 days: the Node project may run beside these files for a while.
    expect(Date.now() - setupAt).toBeLessThan(3 * 3_600_000)
    expect(Math.abs(new Date().getTime() - Date.now())).toBeLessThan(1000)
    expect(new Date(0).getTime()).toBe(0)
    expect(new Date('2026-11-20T10:00:00Z').toISOString()).toBe('2026-11-20T10:00:00.000Z')
  })

  it('is the clock the Worker answers by: a window without from/to ends now', async () => {
    const res = await SELF.fetch(
      'https://v2bridge.test/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&summarize=true',
      { headers: { 'X-Api-Key': 'NRAK-DEMO0000000000000000000000' } }
    )
    expect(res.status).toBe(200)
    const { metric_data } = (await res.json()) as { metric_data: { from: string; to: string } }
    expect(Math.abs(Date.parse(metric_data.to) - Date.now())).toBeLessThan(5 * 60_000)
  })
})

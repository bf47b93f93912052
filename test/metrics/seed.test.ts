/**
 * The seed's uses of metric data, end to end against the simulator: web and non-web throughput,
 * application and browser Apdex, response time from two metrics, host memory and CPU. Each answer is
 * checked against the raw rows of /_sim/timeslices, and each warm call costs one NerdGraph request.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { harness } from '../helpers/harness'
import { cost, groundTruth, hostIdOf, metricData, minutesAgo, type V2MetricData } from './helpers'
import type { RawRow } from './reference'

const checkout = 9045822 // java, with WebFrontend/QueueTime and browser monitoring
const recommendations = 9045851 // python, no queue time, no browser
const { get, sim } = harness()
const from = minutesAgo(40)
const to = minutesAgo(10)
const window = `from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`

const sum = (rows: RawRow[], f: (r: RawRow) => number) => rows.reduce((a, r) => a + f(r), 0)
const rows = (appId: number, name: string, host?: string) =>
  groundTruth(sim, { appId, name, from, to, ...(host ? { host } : {}) })

/** One summarized call that must cost exactly one upstream request (a data query per metric family
 * and the known-names query while the scope's metric names are not cached). */
async function summarized(path: string, families = 1): Promise<V2MetricData> {
  let body: V2MetricData | undefined
  const spent = await cost(sim, async () => (body = await metricData(get, path)))
  expect(spent).toMatchObject({ requests: 1, nrql: families + 1 })
  return body!
}

const value = (body: V2MetricData, name: string, v: string) =>
  body.metrics.find((m) => m.name === name)!.timeslices[0]!.values[v]!

beforeAll(async () => {
  // Warm the application resolution and the host list, as a client's earlier calls would.
  for (const app of [checkout, recommendations]) {
    await get(`/v2/applications/${app}/metrics/data.json?names[]=HttpDispatcher`)
  }
})

describe('the seed uses of metric data', () => {
  it('gives web and non-web throughput (calls_per_minute of HttpDispatcher and OtherTransaction/all)', async () => {
    const body = await summarized(
      `/v2/applications/${checkout}/metrics/data.json?names[]=HttpDispatcher&names[]=OtherTransaction/all&values[]=calls_per_minute&summarize=true&raw=true&${window}`
    )
    const minutes = (to - from) / 60_000
    const web = sum(await rows(checkout, 'HttpDispatcher'), (r) => r.count) / minutes
    const other = sum(await rows(checkout, 'OtherTransaction/all'), (r) => r.count) / minutes
    expect(value(body, 'HttpDispatcher', 'calls_per_minute')).toBeCloseTo(web, 9)
    expect(value(body, 'OtherTransaction/all', 'calls_per_minute')).toBeCloseTo(other, 9)
    expect(web).toBeGreaterThan(other)
  })

  it('gives the application and the browser Apdex score', async () => {
    const body = await summarized(
      `/v2/applications/${checkout}/metrics/data.json?names[]=Apdex&names[]=EndUser/Apdex&values[]=score&values[]=threshold&summarize=true&raw=true&${window}`
    )
    for (const [name, threshold] of [
      ['Apdex', 0.5],
      ['EndUser/Apdex', 7],
    ] as const) {
      const r = await rows(checkout, name)
      const [s, t, f] = [
        sum(r, (x) => x.count),
        sum(r, (x) => x.total),
        sum(r, (x) => x.totalExclusive),
      ]
      expect(value(body, name, 'score')).toBeCloseTo((s + t / 2) / (s + t + f), 12)
      expect(value(body, name, 'threshold')).toBe(threshold)
    }
  })

  describe('response time from two metrics', () => {
    // HttpDispatcher.average_call_time + (QueueTime.call_count × QueueTime.average_response_time)
    // / HttpDispatcher.call_count, from two summarized calls over the same period.
    async function responseTime(appId: number) {
      const dispatcher = await summarized(
        `/v2/applications/${appId}/metrics/data.json?names[]=HttpDispatcher&values[]=average_call_time&values[]=call_count&summarize=true&raw=true&${window}`
      )
      const queue = await summarized(
        `/v2/applications/${appId}/metrics/data.json?names[]=WebFrontend/QueueTime&values[]=call_count&values[]=average_response_time&summarize=true&raw=true&${window}`
      )
      const hd = dispatcher.metrics[0]!.timeslices[0]!.values
      const qt = queue.metrics[0]?.timeslices[0]?.values ?? {
        call_count: 0,
        average_response_time: 0,
      }
      return {
        queue,
        ms:
          hd['average_call_time']! +
          (qt['call_count']! * qt['average_response_time']!) / hd['call_count']!,
      }
    }

    async function truth(appId: number) {
      const hd = await rows(appId, 'HttpDispatcher')
      const qt = await rows(appId, 'WebFrontend/QueueTime')
      return ((sum(hd, (r) => r.total) + sum(qt, (r) => r.total)) / sum(hd, (r) => r.count)) * 1000
    }

    it('adds queue time on an application that reports WebFrontend/QueueTime', async () => {
      const { queue, ms } = await responseTime(checkout)
      expect(queue.metrics_found).toEqual(['WebFrontend/QueueTime'])
      const expected = await truth(checkout)
      expect(ms).toBeCloseTo(expected, 9)
      const withoutQueue =
        (sum(await rows(checkout, 'HttpDispatcher'), (r) => r.total) /
          sum(await rows(checkout, 'HttpDispatcher'), (r) => r.count)) *
        1000
      expect(ms).toBeGreaterThan(withoutQueue)
    })

    it('lists WebFrontend/QueueTime in metrics_not_found on an application without queue time', async () => {
      const { queue, ms } = await responseTime(recommendations)
      expect(queue).toMatchObject({
        metrics_found: [],
        metrics_not_found: ['WebFrontend/QueueTime'],
        metrics: [],
      })
      expect(ms).toBeCloseTo(await truth(recommendations), 9)
    })
  })

  describe('host scope', () => {
    const hostName = 'web-01.prod.example.com' // three JVMs of the checkout service
    let hostId = 0
    beforeAll(async () => {
      hostId = await hostIdOf(get, checkout, hostName)
      await get(
        `/v2/applications/${checkout}/hosts/${hostId}/metrics/data.json?names[]=HttpDispatcher`
      )
    })

    it("gives a host's memory (Memory/Physical used_mb_by_host)", async () => {
      const body = await summarized(
        `/v2/applications/${checkout}/hosts/${hostId}/metrics/data.json?names[]=Memory/Physical&values[]=used_mb_by_host&values[]=total_used_mb&summarize=true&raw=true&${window}`
      )
      const r = await rows(checkout, 'Memory/Physical', hostName)
      expect(new Set(r.map((x) => x.instanceName)).size).toBe(3)
      // The mean of the per-instance samples, and the host's total at a time averaged over minutes.
      expect(value(body, 'Memory/Physical', 'used_mb_by_host')).toBeCloseTo(
        sum(r, (x) => x.total) / r.length,
        9
      )
      expect(value(body, 'Memory/Physical', 'total_used_mb')).toBeCloseTo(
        sum(r, (x) => x.total) / 30,
        9
      )
    })

    it("gives a host's CPU (CPU/User Time percent = 100 × CPU seconds / seconds)", async () => {
      const body = await summarized(
        `/v2/applications/${checkout}/hosts/${hostId}/metrics/data.json?names[]=CPU/User Time&values[]=percent&summarize=true&raw=true&${window}`
      )
      const r = await rows(checkout, 'CPU/User Time', hostName)
      expect(value(body, 'CPU/User Time', 'percent')).toBeCloseTo(
        (100 * sum(r, (x) => x.total)) / 1800,
        9
      )
    })

    it('gives the same answers rounded to about 3 significant digits without raw=true', async () => {
      const path = `/v2/applications/${checkout}/hosts/${hostId}/metrics/data.json?names[]=CPU/User Time&names[]=Memory/Physical&summarize=true&${window}`
      const rounded = await summarized(path, 2)
      let raw: V2MetricData | undefined
      // The same NRQL over a closed window: answered from the reused answer (src/upstream/reuse.ts).
      const reused = await cost(sim, async () => (raw = await metricData(get, `${path}&raw=true`)))
      expect(reused.requests).toBe(0)
      for (const m of raw!.metrics) {
        for (const [k, v] of Object.entries(m.timeslices[0]!.values)) {
          expect(value(rounded, m.name, k)).toBe(Number(v.toPrecision(3)))
        }
      }
    })
  })
})

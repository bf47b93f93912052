/**
 * EndUser `error_percentage` (issue 23 item 21). Source: New Relic docs "Migrate metric timeslice
 * queries to NRQL" (D-nrql), EndUser table: `error_percentage` is
 * `filter(count(v), WHERE metricTimesliceName = 'EndUser/errors') / filter(count(v), WHERE
 * metricTimesliceName = 'Browser')`, JavaScript errors over page views, a ratio as the table writes
 * it (issue 37 item 5: the table says its NRQL returns what v2 returned). The expected numbers come from the raw rows of /_sim/timeslices,
 * not through NRQL. The EndUser value list: D-browser, D-nrql; `requests_per_minute` is answered when
 * asked (D-browser "Average browser (end user) page throughput example") but is not in that list.
 */
import { describe, expect, it } from 'vitest'
import { round3 } from '../../src/core/numbers'
import { harness, nrqlRows } from '../helpers/harness'
import {
  cost,
  groundTruth,
  hostIdOf,
  iso,
  metricData,
  minute,
  minutesAgo,
  type V2MetricData,
} from './helpers'
import type { RawRow } from './reference'

const appId = 9045822 // Checkout Service: browser monitoring, EndUser rows on its first instance
const window = { from: minutesAgo(40), to: minutesAgo(10) }
const range = `from=${iso(window.from)}&to=${iso(window.to)}`

/** v2's error_percentage of [from, to): Σ EndUser/errors count / Σ Browser count. */
function expected(errors: RawRow[], views: RawRow[], from: number, to: number): number {
  const count = (rows: RawRow[]) =>
    rows.filter((r) => r.timestamp >= from && r.timestamp < to).reduce((a, r) => a + r.count, 0)
  const pages = count(views)
  return pages > 0 ? count(errors) / pages : 0
}

async function truth(h: ReturnType<typeof harness>, host?: string) {
  const q = { appId, ...window, ...(host ? { host } : {}) }
  return {
    errors: await groundTruth(h.sim, { ...q, name: 'EndUser/errors' }),
    views: await groundTruth(h.sim, { ...q, name: 'Browser' }),
  }
}

describe('EndUser error_percentage (D-nrql EndUser table)', () => {
  it('answers EndUser/errors over Browser per timeslice, in one NerdGraph request', async () => {
    const h = harness()
    await h.get(`/v2/applications/${appId}/metrics/data.json?names[]=Apdex`) // resolve the app
    const path =
      `/v2/applications/${appId}/metrics/data.json?names[]=EndUser&names[]=EndUser/RB` +
      `&values[]=error_percentage&values[]=call_count&${range}`
    let body: V2MetricData | undefined
    const spent = await cost(h.sim, async () => (body = await metricData(h.get, path)))
    // The EndUser family's query, the known-names query and the query of the two other metrics.
    expect(spent).toMatchObject({ requests: 1, nrql: 3 })
    const others = spent.queries.find((q) => q.includes("= 'EndUser/errors'"))!
    expect(others).toContain("metricTimesliceName IN ('EndUser/errors', 'Browser')")
    expect(others).not.toContain('FACET')
    const { errors, views } = await truth(h)
    expect(errors.length).toBeGreaterThan(5)
    expect(body!.metrics_found).toEqual(['EndUser']) // the demo has no EndUser/RB rows
    const slices = body!.metrics[0]!.timeslices
    expect(slices).toHaveLength(30)
    let nonZero = 0
    slices.forEach((ts, i) => {
      const from = window.from + i * minute
      expect(Object.keys(ts.values)).toEqual(['error_percentage', 'call_count'])
      expect(ts.values['error_percentage']).toBe(
        round3(expected(errors, views, from, from + minute))
      )
      if (ts.values['error_percentage']! > 0) nonZero++
    })
    expect(nonZero).toBeGreaterThan(10)
  })

  it('summarizes over the whole window (raw=true: unrounded)', async () => {
    const h = harness()
    const path = `/v2/applications/${appId}/metrics/data.json?names[]=EndUser&values[]=error_percentage&summarize=true&raw=true&${range}`
    const body = await metricData(h.get, path)
    const { errors, views } = await truth(h)
    const want = expected(errors, views, window.from, window.to)
    expect(want).toBeGreaterThan(0)
    const got = body.metrics[0]!.timeslices[0]!.values['error_percentage']!
    expect(Math.abs(got - want)).toBeLessThanOrEqual(want * 1e-12)
  })

  it('answers it at host scope, the cold call included (members, data and other metrics in one request)', async () => {
    const h = harness()
    const app = h.dataset.application(appId)!
    const first = app.instances[0]!.host // browser rows are on the app's first instance
    const hostId = await hostIdOf(h.get, appId, first)
    const cold = harness() // its hosts are not cached: src/resources/metrics/cold-scope.ts
    await cold.get(`/v2/applications/${appId}/metrics/data.json?names[]=Apdex`)
    const path = `/v2/applications/${appId}/hosts/${hostId}/metrics/data.json?names[]=EndUser&values[]=error_percentage&summarize=true&${range}`
    let body: V2MetricData | undefined
    const spent = await cost(cold.sim, async () => (body = await metricData(cold.get, path)))
    expect(spent.requests).toBe(1)
    // Split by host like the data query; the answer keeps that host's rows.
    expect(spent.queries.find((q) => q.includes("'Browser'"))).toMatch(/ FACET host SINCE /)
    const { errors, views } = await truth(cold, first)
    const want = round3(expected(errors, views, window.from, window.to))
    expect(body!.metrics[0]!.timeslices[0]!.values).toEqual({ error_percentage: want })
    // Warm: the host is a filter of every query, the other metrics' one included.
    const warm = await cost(cold.sim, async () => (body = await metricData(cold.get, path)))
    expect(warm.queries.every((q) => q.includes(`host = '${first}'`))).toBe(true)
    expect(body!.metrics[0]!.timeslices[0]!.values).toEqual({ error_percentage: want })
  })

  it("lists error_percentage among EndUser's values, and requests_per_minute only when asked", async () => {
    const h = harness()
    const all = await metricData(
      h.get,
      `/v2/applications/${appId}/metrics/data.json?names[]=EndUser&summarize=true&${range}`
    )
    const keys = Object.keys(all.metrics[0]!.timeslices[0]!.values)
    expect(keys.slice(-3)).toEqual(['total_app_time', 'average_app_time', 'error_percentage'])
    expect(keys).not.toContain('requests_per_minute')
    const names = (await (
      await h.get(`/v2/applications/${appId}/metrics.json?name=EndUser`)
    ).json()) as { metrics: { name: string; values: string[] }[] }
    expect(names.metrics.find((m) => m.name === 'EndUser')!.values).toEqual(keys)
    // D-browser's page throughput example: names[]=EndUser&values[]=requests_per_minute&summarize=true.
    const asked = await metricData(
      h.get,
      `/v2/applications/${appId}/metrics/data.json?names[]=EndUser&values[]=requests_per_minute&summarize=true&${range}`
    )
    const [ts] = asked.metrics[0]!.timeslices
    const loads = await groundTruth(h.sim, { appId, name: 'EndUser', ...window })
    expect(ts!.values).toEqual({
      requests_per_minute: round3(loads.reduce((a, r) => a + r.count, 0) / 30),
    })
  })

  it('is left out for other families (D-names: inapplicable values are not returned)', async () => {
    const h = harness()
    const body = await metricData(
      h.get,
      `/v2/applications/${appId}/metrics/data.json?names[]=HttpDispatcher&values[]=error_percentage&summarize=true&${range}`
    )
    expect(body.metrics[0]!.timeslices[0]!.values).toEqual({})
  })
})

describe('explain of EndUser error_percentage', () => {
  const explainHeaders = { 'X-V2bridge-Explain': '1' }
  interface Explained {
    explain: { readable_nrql: string[]; nerdgraph: { nrql: string[] }[] }
  }

  it('shows the query of the other metrics, readable, and computing what v2bridge answers', async () => {
    const h = harness()
    const path =
      `/v2/applications/${appId}/metrics/data.json?names[]=EndUser&values[]=call_count` +
      `&values[]=error_percentage&summarize=true&raw=true&${range}`
    const res = await h.get(path, { headers: explainHeaders })
    const { explain } = (await res.json()) as Explained
    expect(explain.nerdgraph[0]!.nrql.filter((q) => q.includes("'Browser'"))).toHaveLength(1)
    const guid = /entity\.guid = ('[^']+')/.exec(explain.readable_nrql[0]!)![1]
    expect(explain.readable_nrql).toHaveLength(2)
    expect(explain.readable_nrql[1]).toBe(
      `SELECT filter(count(newrelic.timeslice.value), WHERE metricTimesliceName = ` +
        `'EndUser/errors') / filter(count(newrelic.timeslice.value), WHERE metricTimesliceName = ` +
        `'Browser') AS 'error_percentage' FROM Metric WHERE entity.guid = ${guid} AND scope IS NULL ` +
        `AND metricTimesliceName IN ('EndUser/errors', 'Browser') ` +
        `SINCE '${iso(window.from).replace('+00:00', 'Z')}' UNTIL '${iso(window.to).replace('+00:00', 'Z')}'`
    )
    const answer = await metricData(h.get, path)
    const [row] = await nrqlRows<Record<string, number>>(h.sim, explain.readable_nrql[1]!)
    const v2 = answer.metrics[0]!.timeslices[0]!.values['error_percentage']!
    expect(v2).toBeGreaterThan(0)
    expect(Math.abs(row!['error_percentage']! - v2)).toBeLessThanOrEqual(v2 * 1e-12)
  })
})

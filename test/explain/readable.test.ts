import { describe, expect, it } from 'vitest'
import { DEMO_KEYS, harness, nrqlRows } from '../helpers/harness'
import { main, type Io } from '../../src/cli/main'
import { createSimulator } from '../../simulator'

// Explain's readable NRQL (issue 25, item 10): one query per metric family, each v2 value named as v2
// names it, ISO times (New Relic docs "Set a query's time range"), ready to paste; and it computes
// what v2bridge answers.
const appId = 9045822
// A whole hour that ended one to two hours before the clock the test runs on: inside the 8 days of
// 1-minute data on any day (New Relic docs "Manage data retention"), so its slices are 1-minute ones.
const hour = 3_600_000
const start = new Date(Math.floor(Date.now() / hour) * hour - 2 * hour)
const end = new Date(start.getTime() + hour)
const iso = (d: Date) => d.toISOString().replace('.000Z', 'Z')
const window = `from=${iso(start).replace('Z', '%2B00:00')}&to=${iso(end).replace('Z', '%2B00:00')}`
const since = `SINCE '${iso(start)}' UNTIL '${iso(end)}'`
const explainHeaders = { 'X-V2bridge-Explain': '1' }

interface Explained {
  explain: { readable_nrql?: string[]; nerdgraph: { nrql: string[] }[] }
}
type MetricData = {
  metric_data: { metrics: { name: string; timeslices: { values: Record<string, number> }[] }[] }
}

async function explained(h: ReturnType<typeof harness>, path: string) {
  const res = await h.get(path, { headers: explainHeaders })
  expect(res.status).toBe(200)
  return ((await res.json()) as Explained).explain
}

describe('readable NRQL in explain', () => {
  it('writes one query per family with named values and the call window as ISO times', async () => {
    const h = harness()
    const path =
      `/v2/applications/${appId}/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex` +
      `&values[]=average_response_time&values[]=call_count&values[]=score&${window}`
    const explain = await explained(h, path)
    const guid = /entity\.guid = ('[^']+')/.exec(explain.nerdgraph[0]!.nrql[0]!)![1]
    expect(explain.readable_nrql).toEqual([
      `SELECT average(newrelic.timeslice.value) * 1000 AS 'average_response_time', ` +
        `count(newrelic.timeslice.value) AS 'call_count' FROM Metric WHERE entity.guid = ${guid} ` +
        `AND scope IS NULL AND metricTimesliceName IN ('HttpDispatcher') FACET metricTimesliceName ` +
        `${since} TIMESERIES 1 minute LIMIT MAX`,
      `SELECT (count(newrelic.timeslice.value) + sum(newrelic.timeslice.value) / 2) / ` +
        `(count(newrelic.timeslice.value) + sum(newrelic.timeslice.value) + ` +
        `sum(newrelic.timeslice.value['totalExclusive'])) AS 'score' FROM Metric WHERE ` +
        `entity.guid = ${guid} AND scope IS NULL AND metricTimesliceName IN ('Apdex') FACET ` +
        `metricTimesliceName ${since} TIMESERIES 1 minute LIMIT MAX`,
    ])
  })

  it('says SINCE n minutes ago for a call without from/to, and quotes names through one function', async () => {
    const h = harness()
    const explain = await explained(
      h,
      `/v2/applications/${appId}/metrics/data.json?names[]=Custom/it's&values[]=call_count&summarize=true`
    )
    expect(explain.readable_nrql).toHaveLength(1)
    expect(explain.readable_nrql![0]).toContain(`metricTimesliceName IN ('Custom/it\\'s')`)
    expect(explain.readable_nrql![0]).toMatch(/ SINCE 30 minutes ago LIMIT MAX$/)
  })

  it('computes, run as it is written, the values v2bridge answers', async () => {
    const h = harness()
    const path =
      `/v2/applications/${appId}/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex` +
      `&values[]=average_response_time&values[]=calls_per_minute&values[]=call_count` +
      `&values[]=max_response_time&values[]=score&values[]=s&summarize=true&raw=true&${window}`
    const [readable] = [(await explained(h, path)).readable_nrql!]
    const answer = (await (await h.get(path)).json()) as MetricData
    let checked = 0
    for (const nrql of readable) {
      for (const row of await nrqlRows(h.sim, nrql)) {
        const metric = answer.metric_data.metrics.find(
          (m) => m.name === row['metricTimesliceName']
        )!
        for (const [value, v2] of Object.entries(metric.timeslices[0]!.values)) {
          expect(row[value], `${metric.name} ${value}`).toBeTypeOf('number')
          expect(
            Math.abs((row[value] as number) - v2),
            `${metric.name} ${value}`
          ).toBeLessThanOrEqual(Math.abs(v2) * 1e-9)
          checked++
        }
      }
    }
    expect(checked).toBe(6)
  })
})

describe('v2bridge explain --format nrql', () => {
  it('prints the readable NRQL, one query a line', async () => {
    const sim = createSimulator()
    const out: string[] = []
    const io: Io = {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
      env: {},
      fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
        sim.fetch(new Request(input, init))) as typeof fetch,
    }
    const code = await main(
      [
        'explain',
        `/v2/applications/${appId}/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&${window}`,
        '--key',
        DEMO_KEYS.all,
        '--nerdgraph-url',
        'http://simulator.test/graphql',
        '--format',
        'nrql',
      ],
      io
    )
    expect(code).toBe(0)
    expect(out).toHaveLength(1)
    expect(out[0]).toMatch(
      /^SELECT count\(newrelic\.timeslice\.value\) AS 'call_count' FROM Metric WHERE /
    )
    expect(out[0]!.endsWith(` ${since} TIMESERIES 1 minute LIMIT MAX`)).toBe(true)
  })
})

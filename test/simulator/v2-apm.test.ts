/**
 * The v2 stand-in's APM reads (simulator/v2/apm-*.ts): the oracle v2bridge is compared with (issue 24).
 * Numbers are recomputed here from the raw timeslices (`dataset.timeslices`); each expectation names
 * the source of v2's answer (New Relic docs pages, the v2 explorer models, client fixtures; tags in
 * docs/sources.md).
 */
import { describe, expect, it } from 'vitest'
import { createSimulator, DEMO_KEYS, type Simulator } from '../../simulator'
import { fixedSimulator, MINUTE, NOW } from './graphql-client'

const END = Math.floor(NOW / MINUTE) * MINUTE // 12:34:00, the end of the data
const CHECKOUT = 9045822
const RECS = 9045851
const STOPPED = 9045874
const STAGING_APP = 9702201
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00')
const r3 = (v: number) => Number(v.toPrecision(3))
const r2 = (v: number) => Math.round(v * 100) / 100

async function v2(
  sim: Simulator,
  path: string,
  init: { key?: string | null; method?: string; body?: string; type?: string } = {}
) {
  const headers: Record<string, string> = {}
  const key = init.key === undefined ? DEMO_KEYS.all : init.key
  if (key !== null) headers['X-Api-Key'] = key
  if (init.type) headers['Content-Type'] = init.type
  const res = await sim.fetch(
    new Request(`http://sim.test/v2/${path}`, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body === undefined ? {} : { body: init.body }),
    })
  )
  const text = await res.text()
  const json = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined
  return { status: res.status, headers: res.headers, text, json }
}

/** Σ of the unscoped rows of one metric over [from, to), as v2 adds up a slice. */
function sums(
  sim: Simulator,
  appId: number,
  name: string,
  from: number,
  to: number,
  only: { host?: string; instanceName?: string } = {}
) {
  const rows = sim.dataset.timeslices({ appId, name, from, to, ...only })
  const s = { count: 0, total: 0, totalExclusive: 0, sumOfSquares: 0, min: Infinity, max: 0 }
  for (const { value: v } of rows) {
    s.count += v.count
    s.total += v.total
    s.totalExclusive += v.totalExclusive
    s.sumOfSquares += v.sumOfSquares
    s.min = Math.min(s.min, v.min)
    s.max = Math.max(s.max, v.max)
  }
  return s
}

const admin = (sim: Simulator, body: unknown) =>
  sim.fetch(
    new Request('http://sim.test/_sim/v2', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  )

describe('v2 stand-in: metric data from raw timeslices', () => {
  const sim = fixedSimulator()

  it('summarizes HttpDispatcher over an aligned window: Σtotal/Σcount in ms, Σcount, per minute', async () => {
    // New Relic docs "Extract metric timeslice data": ms times, counts summed, rates per minute;
    // "Calculate average metric values (summarize)": one slice over the range.
    const from = END - 60 * MINUTE
    const res = await v2(
      sim,
      `applications/${CHECKOUT}/metrics/data.json?names[]=HttpDispatcher&from=${iso(from)}&to=${iso(END)}&summarize=true`
    )
    expect(res.status).toBe(200)
    const s = sums(sim, CHECKOUT, 'HttpDispatcher', from, END)
    const mean = s.total / s.count
    const [slice] = res.json.metric_data.metrics[0].timeslices
    expect(slice.from).toBe(iso(from))
    expect(slice.to).toBe(iso(END))
    expect(slice.values).toEqual({
      average_response_time: r3(mean * 1000),
      calls_per_minute: r3(s.count / 60),
      call_count: s.count,
      min_response_time: r3(s.min * 1000),
      max_response_time: r3(s.max * 1000),
      average_exclusive_time: r3((s.totalExclusive / s.count) * 1000),
      average_value: r3(mean),
      total_call_time_per_minute: r3(s.total / 60),
      requests_per_minute: r3(s.count / 60),
      standard_deviation: r3(Math.sqrt(s.sumOfSquares / s.count - mean * mean) * 1000),
      average_call_time: r3(mean * 1000),
    })
    // key order of New Relic docs "Extract metric timeslice data"
    expect(Object.keys(res.json.metric_data)).toEqual([
      'from',
      'to',
      'metrics_not_found',
      'metrics_found',
      'metrics',
    ])
  })

  it('answers EndUser error_percentage as EndUser/errors over Browser of each slice (a ratio)', async () => {
    // New Relic docs "Migrate metric timeslice queries to NRQL", EndUser table: error_percentage is
    // count of EndUser/errors over count of Browser (in % as its fe_time_percentage, `100 *`).
    const from = END - 5 * MINUTE
    const res = await v2(
      sim,
      `applications/${CHECKOUT}/metrics/data.json?names[]=EndUser&values[]=error_percentage&values[]=call_count&from=${iso(from)}&to=${iso(END)}`
    )
    const slices = res.json.metric_data.metrics[0].timeslices
    expect(slices).toHaveLength(5)
    slices.forEach((slice: { values: Record<string, number> }, i: number) => {
      const at = from + i * MINUTE
      const errors = sums(sim, CHECKOUT, 'EndUser/errors', at, at + MINUTE).count
      const views = sums(sim, CHECKOUT, 'Browser', at, at + MINUTE).count
      expect(slice.values).toEqual({
        error_percentage: r3(errors / views),
        call_count: sums(sim, CHECKOUT, 'EndUser', at, at + MINUTE).count,
      })
    })
    // Without values[]: the EndUser list ends with error_percentage; requests_per_minute only asked.
    const all = await v2(sim, `applications/${CHECKOUT}/metrics/data.json?names[]=EndUser`)
    const keys = Object.keys(all.json.metric_data.metrics[0].timeslices[0].values)
    expect(keys.at(-1)).toBe('error_percentage')
    expect(keys).not.toContain('requests_per_minute')
  })

  it('gives 10 evenly spaced points for data older than 8 days', async () => {
    // D-extract granularity table: a range starting more than 8 days ago, under 4 days long
    const from = END - 8.5 * 24 * 60 * MINUTE
    const to = from + 100 * MINUTE
    const res = await v2(
      sim,
      `applications/${CHECKOUT}/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&from=${iso(from)}&to=${iso(to)}`
    )
    const slices = res.json.metric_data.metrics[0].timeslices
    expect(slices).toHaveLength(10)
    // v2 held hourly data past 8 days: a 10-minute point carries the hour it starts in, repeated
    // ("oversampling … duplicate values returned", D-extract); main summed 10 one-minute rows
    const hour = Math.floor((from + 30 * MINUTE) / (60 * MINUTE)) * 60 * MINUTE
    const hourly = sim.dataset
      .timeslices({
        appId: CHECKOUT,
        name: 'HttpDispatcher',
        rollupMs: 60 * MINUTE,
        from: hour,
        to: hour + 60 * MINUTE,
      })
      .reduce((n, row) => n + row.value.count, 0)
    expect(hourly).toBeGreaterThan(0)
    expect(slices[3]).toEqual({
      from: iso(from + 30 * MINUTE),
      to: iso(from + 40 * MINUTE),
      values: { call_count: hourly },
    })
  })

  it("takes the grid of coarse and defaulted windows from v2's samples (TONS, D-extract)", async () => {
    // TONS: 14:48:43 → 00:00:00 six days later (6.4 days, hourly) starts at 15:00 (main: 14:57)
    const to = Math.floor(END / (24 * 60 * MINUTE)) * 24 * 60 * MINUTE
    const from = to - 6 * 24 * 60 * MINUTE - 9 * 60 * MINUTE - 11 * MINUTE - 17_000
    const tons = await v2(
      sim,
      `applications/${CHECKOUT}/metrics/data.json?names[]=HttpDispatcher&summarize=true&from=${iso(from)}&to=${iso(to)}`
    )
    expect(tons.json.metric_data.metrics[0].timeslices[0]).toMatchObject({
      from: iso(to - 153 * 60 * MINUTE),
      to: iso(to),
    })
    // 2 h at period 300 from an unaligned minute: 23 slices from the first whole one back from to
    const start = END - 2 * 60 * MINUTE + 30_000 // 2 h to END + 30 s
    const five = await v2(
      sim,
      `applications/${CHECKOUT}/metrics/data.json?names[]=HttpDispatcher&period=300&from=${iso(start)}&to=${iso(END + 30_000)}`
    )
    const grid = five.json.metric_data.metrics[0].timeslices
    expect(grid).toHaveLength(23)
    expect(grid[0].from).toBe(iso(END - 115 * MINUTE))
  })

  it('gives one-minute slices for a short range, each from its own minute of rows', async () => {
    const from = END - 10 * MINUTE
    const res = await v2(
      sim,
      `applications/${RECS}/metrics/data.json?names[]=OtherTransaction/all&values[]=average_response_time&values[]=call_count&from=${iso(from)}&to=${iso(END)}`
    )
    const slices = res.json.metric_data.metrics[0].timeslices
    expect(slices).toHaveLength(10) // D-extract: ≤ 3 h → 1 minute
    slices.forEach((slice: { from: string; to: string; values: object }, i: number) => {
      const start = from + i * MINUTE
      const s = sums(sim, RECS, 'OtherTransaction/all', start, start + MINUTE)
      expect(slice).toEqual({
        from: iso(start),
        to: iso(start + MINUTE),
        values: {
          average_response_time: s.count ? r3((s.total / s.count) * 1000) : 0,
          call_count: s.count,
        },
      })
    })
  })

  it('uses 2-minute slices for a 6-hour range, anchored on to', async () => {
    // D-extract granularity table: > 3 h … ≤ 6 h → 2 minutes
    const from = END - 6 * 60 * MINUTE
    const res = await v2(
      sim,
      `applications/${CHECKOUT}/metrics/data.json?names[]=Errors/all&from=${iso(from)}&to=${iso(END)}`
    )
    const slices = res.json.metric_data.metrics[0].timeslices
    expect(slices).toHaveLength(180)
    const last = slices[179]
    const s = sums(sim, CHECKOUT, 'Errors/all', END - 2 * MINUTE, END)
    expect(last).toEqual({
      from: iso(END - 2 * MINUTE),
      to: iso(END),
      values: { error_count: s.count, errors_per_minute: r3(s.count / 2) },
    })
  })

  it('answers Apdex with s, t, f counts and the score (s + t/2) / (s + t + f)', async () => {
    // New Relic docs "Getting Apdex data for apps or browsers (v2)"; "List your app ID and metric
    // timeslice data" for the value list and its order
    const from = END - 30 * MINUTE
    const res = await v2(
      sim,
      `applications/${STAGING_APP}/metrics/data.json?names[]=Apdex&from=${iso(from)}&to=${iso(END)}&summarize=true`,
      { key: DEMO_KEYS.one }
    )
    const s = sums(sim, STAGING_APP, 'Apdex', from, END)
    const n = s.count + s.total + s.totalExclusive
    expect(res.json.metric_data.metrics[0].timeslices[0].values).toEqual({
      s: s.count,
      t: s.total,
      f: s.totalExclusive,
      count: n,
      score: r3((s.count + s.total / 2) / n),
      value: r3((s.count + s.total / 2) / n),
      threshold: s.max,
      threshold_min: s.min,
    })
  })

  it('reads one host and one instance only, by their v2 IDs', async () => {
    const hosts = (await v2(sim, `applications/${CHECKOUT}/hosts.json`)).json.application_hosts
    const web01 = hosts.find((h: { host: string }) => h.host.startsWith('web-01'))
    const from = END - 15 * MINUTE
    const q = `names[]=HttpDispatcher&values[]=call_count&values[]=max_response_time&from=${iso(from)}&to=${iso(END)}&summarize=true`
    const host = await v2(sim, `applications/${CHECKOUT}/hosts/${web01.id}/metrics/data.json?${q}`)
    const hs = sums(sim, CHECKOUT, 'HttpDispatcher', from, END, { host: web01.host })
    expect(host.json.metric_data.metrics[0].timeslices[0].values).toEqual({
      call_count: hs.count,
      max_response_time: r3(hs.max * 1000),
    })
    const inst = (await v2(sim, `applications/${CHECKOUT}/instances.json`)).json
      .application_instances[0]
    const one = sim.dataset
      .instances(CHECKOUT)
      .find((i) => i.host === inst.host && i.instanceName.endsWith(`:${inst.port}`))!
    const data = await v2(
      sim,
      `applications/${CHECKOUT}/instances/${inst.id}/metrics/data.json?${q}`
    )
    const is = sums(sim, CHECKOUT, 'HttpDispatcher', from, END, {
      host: one.host,
      instanceName: one.instanceName,
    })
    expect(data.json.metric_data.metrics[0].timeslices[0].values.call_count).toBe(is.count)
    expect(is.count).toBeLessThan(hs.count)
  })

  it('defaults to the last 30 minutes, moved 3 minutes back when unaligned', async () => {
    // D-time: 30 minutes by default; New Relic docs "Extract metric timeslice data": from 18:06:06
    // → first slice 18:03; D-names and the AMB fixture: the end moves back with the start
    const res = await v2(sim, `applications/${CHECKOUT}/metrics/data.json?names[]=Memory/Physical`)
    const md = res.json.metric_data
    expect(md.from).toBe(iso(Math.floor(NOW / 1000) * 1000 - 30 * MINUTE)) // 12:04:56
    expect(md.to).toBe('2025-04-15T12:34:56+00:00')
    const slices = md.metrics[0].timeslices
    expect(slices).toHaveLength(30)
    expect(slices[0].from).toBe('2025-04-15T12:01:00+00:00')
    expect(slices.at(-1).to).toBe('2025-04-15T12:31:00+00:00')
    expect(Object.keys(slices[0].values)).toEqual([
      'used_bytes_by_host',
      'used_mb_by_host',
      'total_used_mb',
    ])
  })

  it('lists unknown names in metrics_not_found and drops inapplicable values (200)', async () => {
    // New Relic forum "No more 404s"; D-names: inapplicable values are not returned
    const res = await v2(
      sim,
      `applications/${CHECKOUT}/metrics/data.json?names[]=Nope/None&names[]=Errors/all&values[]=score&values[]=error_count&summarize=true`
    )
    expect(res.status).toBe(200)
    expect(res.json.metric_data.metrics_not_found).toEqual(['Nope/None'])
    expect(res.json.metric_data.metrics_found).toEqual(['Errors/all'])
    expect(Object.keys(res.json.metric_data.metrics[0].timeslices[0].values)).toEqual([
      'error_count',
    ])
  })

  it('keeps raw values unrounded with raw=true', async () => {
    const from = END - 5 * MINUTE
    const res = await v2(
      sim,
      `applications/${CHECKOUT}/metrics/data.json?names[]=HttpDispatcher&values[]=average_value&from=${iso(from)}&to=${iso(END)}&summarize=true&raw=true`
    )
    const s = sums(sim, CHECKOUT, 'HttpDispatcher', from, END)
    expect(res.json.metric_data.metrics[0].timeslices[0].values.average_value).toBe(
      s.total / s.count
    )
  })

  it('reads POST form bodies and bare names as parameters', async () => {
    const res = await v2(sim, `applications/${CHECKOUT}/metrics/data.json`, {
      method: 'POST',
      type: 'application/x-www-form-urlencoded',
      body: 'names=Errors%2Fall&values[]=error_count&summarize=true',
    })
    expect(res.status).toBe(200)
    expect(res.json.metric_data.metrics_found).toEqual(['Errors/all'])
  })

  it('renders XML as TONS recorded it: counts without .0, small floats with it', async () => {
    const from = END - 5 * MINUTE
    const res = await v2(
      sim,
      `applications/${CHECKOUT}/metrics/data.xml?names[]=Apdex&values[]=s&values[]=threshold&from=${iso(from)}&to=${iso(END)}&summarize=true`
    )
    expect(res.headers.get('content-type')).toBe('application/xml')
    const s = sums(sim, CHECKOUT, 'Apdex', from, END)
    expect(res.text).toContain('<metric_data_response>\n  <metric_data>')
    expect(res.text).toContain(`<s>${s.count}</s>`)
    expect(res.text).toContain('<threshold>0.5</threshold>')
    expect(res.text).toContain('<metrics_found>\n      <metrics_found>Apdex</metrics_found>')
  })
})

describe('v2 stand-in: metric names', () => {
  const sim = fixedSimulator()

  it('lists every name with its value list; name= is a substring match', async () => {
    // D-names sample; mrf/newrelic_exporter fixture for the 10 transaction values
    const res = await v2(sim, `applications/${CHECKOUT}/metrics.json?name=Dispatcher`)
    expect(res.json).toEqual({
      metrics: [
        {
          name: 'HttpDispatcher',
          values: [
            'average_response_time',
            'calls_per_minute',
            'call_count',
            'min_response_time',
            'max_response_time',
            'average_exclusive_time',
            'average_value',
            'total_call_time_per_minute',
            'requests_per_minute',
            'standard_deviation',
          ],
        },
      ],
    })
    const all = await v2(sim, `applications/${CHECKOUT}/metrics.json`)
    expect(all.json.metrics.map((m: { name: string }) => m.name)).toEqual(
      sim.dataset.metricNames(CHECKOUT).sort()
    )
    expect(all.headers.get('link')).toBeNull() // one page (1,000 names a page)
  })

  it('leaves app-wide browser metrics out of hosts that do not report them', async () => {
    const hosts = (await v2(sim, `applications/${CHECKOUT}/hosts.json`)).json.application_hosts
    const other = hosts.find((h: { host: string }) => !h.host.startsWith('web-01'))
    const names = (await v2(sim, `applications/${CHECKOUT}/hosts/${other.id}/metrics.json`)).json
      .metrics
    expect(names.map((m: { name: string }) => m.name)).not.toContain('EndUser')
    expect(names.map((m: { name: string }) => m.name)).toContain('HttpDispatcher')
  })
})

describe('v2 stand-in: applications, hosts, instances, deployments', () => {
  const sim = fixedSimulator()

  it('shows an application with its summary of the last minutes, in recorded key order', async () => {
    // New Relic docs "Summary data examples (v2)" and "Application reporting and health status"
    const res = await v2(sim, `applications/${CHECKOUT}.json`)
    const app = res.json.application
    expect(Object.keys(res.json)).toEqual(['application', 'links'])
    expect(Object.keys(app)).toEqual([
      'id',
      'name',
      'language',
      'health_status',
      'reporting',
      'last_reported_at',
      'application_summary',
      'end_user_summary',
      'settings',
      'links',
    ])
    expect(app).toMatchObject({ id: CHECKOUT, health_status: 'red', reporting: true })
    // "The last time the application reported data" (v2 explorer applications.json), to the second
    // (docs "Application reporting and health status"): the last minute of data, 12:33, reported at
    // the agent's harvest second (equal to its newest Transaction event: nrql-transactions.test.ts)
    expect(app.last_reported_at).toMatch(/^2025-04-15T12:33:(?!00)\d\d\+00:00$/)
    // v2's window: the last three whole minutes (docs "Summary data examples (v2)": "a rolling
    // three- to four-minute average"); a web application's response time and throughput are its
    // web transactions' (docs "Get average throughput for an app (v2)")
    const from = END - 3 * MINUTE
    const web = sums(sim, CHECKOUT, 'HttpDispatcher', from, END)
    const other = sums(sim, CHECKOUT, 'OtherTransaction/all', from, END)
    const errors = sums(sim, CHECKOUT, 'Errors/all', from, END)
    const apdex = sums(sim, CHECKOUT, 'Apdex', from, END)
    const calls = web.count + other.count
    const n = apdex.count + apdex.total + apdex.totalExclusive
    expect(app.application_summary).toEqual({
      response_time: r3((web.total / web.count) * 1000),
      throughput: r3(web.count / 3),
      error_rate: r3((errors.count / calls) * 100),
      apdex_target: 0.5,
      // two decimals, as recorded v2 apdex scores: 0.78 (newrelic-client-go
      // pkg/apm/applications_test.go), 0.87 and 0.95 (ContaAzul/newrelic_exporter
      // newrelic/testdata/key_transactions.json, beside `throughput: 3.67`)
      apdex_score: r2((apdex.count + apdex.total / 2) / n),
      host_count: 3,
      instance_count: 7,
      concurrent_instance_count: 7,
    })
    const pages = sums(sim, CHECKOUT, 'EndUser', from, END)
    expect(app.end_user_summary).toMatchObject({
      response_time: r3(pages.total / pages.count),
      throughput: r3(pages.count / 3),
      apdex_target: 7,
    })
    // D-health's key order; the policy of condition 7101201, which targets Checkout (issue 37)
    expect(app.links.alert_policy).toBe(5101102)
    expect(Object.keys(app.links)).toEqual([
      'application_instances',
      'alert_policy',
      'servers',
      'application_hosts',
    ])
    expect(app.links.application_instances).toHaveLength(7)
    expect(res.json.links['application.application_host']).toBe(
      '/v2/application/{application_id}/hosts/{host_id}'
    )
  })

  it('counts the hosts and instances that reported in the window, idle ones too', async () => {
    // newrelic-client-go pkg/apm applications_test.go: `instance_count: 15` for an application
    // serving 1 call a minute, so v2 counts instances that served nothing; every agent reports
    // memory (New Relic docs "Query APM metric timeslice data with NRQL"). At 03:00 UTC (low
    // traffic) some instances of the fleet are idle for the whole window.
    const at = Date.UTC(2025, 3, 15, 3, 0, 30)
    const quiet = createSimulator({ now: () => at })
    const end = Math.floor(at / MINUTE) * MINUTE
    const members = (appId: number, names: string[]) => {
      const rows = names.flatMap((name) =>
        quiet.dataset.timeslices({ appId, name, from: end - 3 * MINUTE, to: end })
      )
      return {
        hosts: new Set(rows.map((r) => r.host)).size,
        instances: new Set(rows.map((r) => `${r.host} ${r.instanceName}`)).size,
      }
    }
    const busyNames = ['HttpDispatcher', 'OtherTransaction/all', 'Errors/all', 'Apdex']
    const idle = quiet.dataset
      .applications(1000001)
      .filter((a) => a.reporting)
      .map((a) => ({
        id: a.id,
        busy: members(a.id, busyNames),
        all: members(a.id, [...busyNames, 'Memory/Physical']),
      }))
      .filter((a) => a.busy.instances > 0 && a.busy.instances < a.all.instances)
    expect(idle.length).toBeGreaterThan(0)
    for (const a of idle.slice(0, 3)) {
      const app = (await v2(quiet, `applications/${a.id}.json`)).json.application
      expect(app.application_summary, String(a.id)).toMatchObject({
        host_count: a.all.hosts,
        instance_count: a.all.instances,
      })
    }
  })

  it('keeps the summary of a reporting application that served nothing in the window, in zeros', async () => {
    // PGN and HUBOT fixtures leave application_summary out only for apps that do not report; BKS
    // drops apps without one as not reporting. At 03:21 UTC a fleet application is idle throughout.
    const at = Date.UTC(2025, 3, 15, 3, 21, 30)
    const quiet = createSimulator({ now: () => at })
    const end = Math.floor(at / MINUTE) * MINUTE
    const rows = (appId: number, names: string[]) =>
      names.flatMap((name) =>
        quiet.dataset.timeslices({ appId, name, from: end - 3 * MINUTE, to: end })
      )
    const idle = quiet.dataset
      .applications(1000001)
      .filter((a) => a.reporting)
      .filter((a) => rows(a.id, ['HttpDispatcher', 'OtherTransaction/all', 'Apdex']).length === 0)
    expect(idle.length).toBeGreaterThan(0)
    for (const a of idle) {
      const alive = rows(a.id, ['Memory/Physical'])
      const app = (await v2(quiet, `applications/${a.id}.json`)).json.application
      expect(app.application_summary, String(a.id)).toEqual({
        response_time: 0,
        throughput: 0,
        error_rate: 0,
        apdex_target: a.apdexT,
        apdex_score: 0,
        host_count: new Set(alive.map((r) => r.host)).size,
        instance_count: new Set(alive.map((r) => `${r.host} ${r.instanceName}`)).size,
        concurrent_instance_count: new Set(alive.map((r) => `${r.host} ${r.instanceName}`)).size,
      })
      const hosts = (await v2(quiet, `applications/${a.id}/hosts.json`)).json.application_hosts
      for (const h of hosts) expect(h).not.toHaveProperty('application_summary')
    }
  })

  it('shows a stopped application gray, without last_reported_at or summaries', async () => {
    // PGN and HUBOT fixtures of a non-reporting app (tags in docs/sources.md)
    const app = (await v2(sim, `applications/${STOPPED}.json`)).json.application
    expect(app).toMatchObject({ health_status: 'gray', reporting: false })
    expect(app).not.toHaveProperty('last_reported_at')
    expect(app).not.toHaveProperty('application_summary')
    expect(app.links).toEqual({ application_instances: [], servers: [], application_hosts: [] })
  })

  it('pages the list 200 at a time, sorted by name, with next and last first in Link', async () => {
    // New Relic docs "Pagination for API output"; Harness's client reads an empty page past the end
    const one = await v2(sim, 'applications.json?exclude_links=true')
    const total = sim.dataset.applications(1000001).length
    expect(one.json.applications).toHaveLength(200)
    expect(one.json).not.toHaveProperty('links')
    const names = one.json.applications.map((a: { name: string }) => a.name)
    expect(names).toEqual([...names].sort())
    expect(one.headers.get('link')).toBe(
      '<http://sim.test/v2/applications.json?exclude_links=true&page=2>; rel="next", ' +
        '<http://sim.test/v2/applications.json?exclude_links=true&page=3>; rel="last"'
    )
    const two = await v2(sim, 'applications.json?page=2')
    expect(two.headers.get('link')).toBe(
      '<http://sim.test/v2/applications.json?page=3>; rel="next", ' +
        '<http://sim.test/v2/applications.json?page=3>; rel="last", ' +
        '<http://sim.test/v2/applications.json?page=1>; rel="first", ' +
        '<http://sim.test/v2/applications.json?page=1>; rel="prev"'
    )
    const three = await v2(sim, 'applications.json?page=3')
    expect(three.json.applications).toHaveLength(total - 400)
    expect(three.headers.get('link')).not.toContain('rel="next"')
    const past = await v2(sim, 'applications.json?page=4')
    expect(past.json.applications).toEqual([])
  })

  it('filters by name (substring, any case), ids, language and host', async () => {
    const ids = (res: { json: { applications: { id: number }[] } }) =>
      res.json.applications.map((a) => a.id)
    expect(ids(await v2(sim, 'applications.json?filter[name]=CHECKOUT'))).toEqual([CHECKOUT])
    expect(
      ids(await v2(sim, `applications.json?filter[ids]=${RECS},${CHECKOUT}&filter[ids]=${STOPPED}`))
    ).toEqual([CHECKOUT, STOPPED, RECS]) // by name: Checkout, Inventory, Recommendations
    const go = await v2(sim, 'applications.json?filter[language]=go&filter[name]=inventory')
    expect(ids(go)).toEqual([STOPPED])
    const host = sim.dataset.application(RECS)!.hosts[1]!
    const byHost = await v2(sim, `applications.json?filter[host]=${host}`)
    expect(ids(byHost)).toContain(RECS)
    const posted = await v2(sim, 'applications.json', {
      method: 'POST',
      type: 'application/x-www-form-urlencoded',
      body: 'filter[name]=Checkout+Service',
    })
    expect(ids(posted)).toEqual([CHECKOUT])
  })

  it('answers only the key’s own account', async () => {
    const other = await v2(sim, `applications/${CHECKOUT}.json`, { key: DEMO_KEYS.one })
    expect(other.status).toBe(404)
    const list = await v2(sim, 'applications.json', { key: DEMO_KEYS.one })
    expect(list.json.applications.map((a: { id: number }) => a.id).sort()).toEqual([
      9702201, 9702214, 9702227, 9702239, 9702246,
    ])
  })

  it('lists hosts and instances with their own summaries and links', async () => {
    // ambitioninc/newrelic-api host fixture, newrelic-client-go instance fixture
    const hosts = await v2(sim, `applications/${CHECKOUT}/hosts.json`)
    expect(hosts.json.application_hosts).toHaveLength(3)
    const web01 = hosts.json.application_hosts.find((h: { host: string }) =>
      h.host.startsWith('web-01')
    )
    expect(Object.keys(web01)).toEqual([
      'id',
      'application_name',
      'host',
      'language',
      'health_status',
      'application_summary',
      'end_user_summary',
      'links',
    ])
    const web = sums(sim, CHECKOUT, 'HttpDispatcher', END - 3 * MINUTE, END, { host: web01.host })
    const other = sums(sim, CHECKOUT, 'OtherTransaction/all', END - 3 * MINUTE, END, {
      host: web01.host,
    })
    expect(web01.application_summary).toMatchObject({
      throughput: r3((web.count + other.count) / 3),
      instance_count: 3,
    })
    expect(Object.keys(web01.application_summary)).toEqual([
      'response_time',
      'throughput',
      'error_rate',
      'apdex_score',
      'instance_count',
    ])
    expect(web01.links.application_instances).toHaveLength(3)
    const shown = await v2(sim, `applications/${CHECKOUT}/hosts/${web01.id}.json`)
    expect(shown.json.application_host).toEqual(web01)

    const instances = await v2(sim, `applications/${CHECKOUT}/instances.json`)
    expect(instances.json.application_instances).toHaveLength(7)
    const inst = instances.json.application_instances[0]
    expect(Object.keys(inst)).toEqual([
      'id',
      'application_name',
      'host',
      'port',
      'language',
      'health_status',
      'application_summary',
      ...(inst.end_user_summary ? ['end_user_summary'] : []),
      'links',
    ])
    expect(typeof inst.port).toBe('number')
    const filtered = await v2(
      sim,
      `applications/${CHECKOUT}/instances.json?filter[hostname]=web-01&filter[ids]=${web01.links.application_instances.join(',')}`
    )
    expect(filtered.json.application_instances).toHaveLength(3)
    const xml = await v2(sim, `applications/${CHECKOUT}/instances/${inst.id}.xml`)
    expect(xml.text).toContain('<application_instance_response>\n  <application_instance>')
    expect(xml.text).toContain(`<port>${inst.port}</port>`)
    expect(xml.text).toContain('<instance_count>1</instance_count>')
  })

  it('lists deployments newest first with null texts and ISO times', async () => {
    // New Relic docs "Record and view deployments"
    const res = await v2(sim, `applications/${CHECKOUT}/deployments.json`)
    const seeded = sim.dataset.deployments.of(sim.dataset.application(CHECKOUT)!.guid)
    expect(res.json.deployments).toHaveLength(seeded.length)
    const [d] = res.json.deployments
    expect(Object.keys(d)).toEqual([
      'id',
      'revision',
      'changelog',
      'description',
      'user',
      'timestamp',
      'links',
    ])
    expect(d).toMatchObject({
      revision: seeded[0]!.version,
      timestamp: iso(seeded[0]!.timestamp),
      links: { application: CHECKOUT },
    })
    expect(res.json.deployments.some((x: { description: null }) => x.description === null)).toBe(
      true
    )
    expect(res.json.links).toEqual({ 'deployment.agent': '/v2/applications/{application_id}' })
  })
})

describe('v2 stand-in: errors', () => {
  const sim = fixedSimulator()
  const cases: [string, number, string, string?][] = [
    ['applications/1.json', 404, 'No Application found with the given ID'],
    [`applications/${CHECKOUT}/hosts/1.json`, 404, 'No Application Host found with the given ID'],
    [
      `applications/${CHECKOUT}/instances/1/metrics.json`,
      404,
      'No Application Instance found with the given ID',
    ],
    [
      'applications/1/metrics/data.json?names[]=Apdex',
      404,
      'No Application found with the given ID',
    ],
    [`applications/${CHECKOUT}/metrics/data.json`, 400, 'missing parameter: names'],
    [
      `applications/${CHECKOUT}/metrics/data.json?names[]=Apdex&from=2025-04-15T12:00:00Z&to=2025-04-15T12:00:30Z`,
      422,
      'The time range must be at least 60 seconds',
    ],
    [
      `applications/${CHECKOUT}/metrics/data.json?names[]=Apdex&from=2025-04-15T12:00:00Z&to=2025-04-15T11:00:00Z`,
      422,
      "'from' must be before 'to'",
    ],
    [
      `applications/${CHECKOUT}/metrics/data.json?names[]=Apdex&from=soon`,
      422,
      "Invalid 'from' time",
    ],
    ['applications.json', 401, 'No API key specified', 'none'],
  ]
  it.each(cases)('GET %s → %i %s', async (path, status, title, key) => {
    const res = await v2(sim, path, { key: key === 'none' ? null : DEMO_KEYS.all })
    expect(res.status).toBe(status)
    expect(res.json).toEqual({ error: { title } })
    if (status === 400) expect(res.headers.get('cache-control')).toBe('no-cache') // DOC7091
  })

  it('answers an XML error in XML', async () => {
    const res = await v2(sim, 'applications/1.xml')
    expect(res.text).toContain('<error_response>\n  <error>\n    <title>No Application found')
  })
})

describe('v2 stand-in: perturbation and noise switches', () => {
  const path = `applications/${CHECKOUT}/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&from=${iso(END - 10 * MINUTE)}&to=${iso(END)}`

  it('changes one value, drops an item, changes a type, reorders a list or adds a field', async () => {
    const sim = fixedSimulator()
    const base = (await v2(sim, path)).json
    const first = (b: typeof base) => b.metric_data.metrics[0].timeslices[0].values
    const checks: Record<string, (b: typeof base) => void> = {
      value: (b) =>
        expect(first(b).average_response_time).toBeCloseTo(
          first(base).average_response_time * 1.1,
          6
        ),
      'missing-item': (b) => expect(b.metric_data.metrics).toHaveLength(1),
      type: (b) =>
        expect(first(b).average_response_time).toBe(String(first(base).average_response_time)),
      reorder: (b) =>
        expect(b.metric_data.metrics.map((m: { name: string }) => m.name)).toEqual([
          'Apdex',
          'HttpDispatcher',
        ]),
      'extra-field': (b) => expect(b.metric_data.perturbed_field).toBe('extra'),
    }
    for (const [kind, check] of Object.entries(checks)) {
      expect((await admin(sim, { perturb: kind })).status).toBe(200)
      const body = (await v2(sim, path)).json
      expect(body).not.toEqual(base)
      check(body)
    }
    await admin(sim, {})
    expect((await v2(sim, path)).json).toEqual(base)
  })

  it('changes bodies without numbers too (metric names)', async () => {
    const sim = fixedSimulator()
    const names = `applications/${CHECKOUT}/metrics.json?name=Apdex`
    const base = (await v2(sim, names)).json
    const seen = new Set<string>()
    for (const kind of ['value', 'missing-item', 'type', 'reorder', 'extra-field']) {
      await admin(sim, { perturb: kind })
      const body = (await v2(sim, names)).json
      expect(body).not.toEqual(base)
      seen.add(JSON.stringify(body))
    }
    expect(seen.size).toBe(5)
    expect((await v2(sim, names)).json.metrics[0].name).toBe('Apdex') // names are identities
  })

  it('perturbs list answers too, never an ID', async () => {
    const sim = fixedSimulator()
    const base = (await v2(sim, `applications/${CHECKOUT}/hosts.json`)).json
    await admin(sim, { perturb: 'value' })
    const body = (await v2(sim, `applications/${CHECKOUT}/hosts.json`)).json
    expect(body.application_hosts.map((h: { id: number }) => h.id)).toEqual(
      base.application_hosts.map((h: { id: number }) => h.id)
    )
    expect(body.application_hosts[0].application_summary.response_time).toBeCloseTo(
      base.application_hosts[0].application_summary.response_time * 1.1,
      6
    )
  })

  it('jitters values over windows ending now, so two identical calls differ slightly', async () => {
    const sim = fixedSimulator()
    const now = `applications/${CHECKOUT}/metrics/data.json?names[]=HttpDispatcher`
    expect((await v2(sim, now)).json).toEqual((await v2(sim, now)).json)
    const show = (await v2(sim, `applications/${CHECKOUT}.json`)).json.application
    const reported = Date.parse(show.last_reported_at)
    await admin(sim, { jitter: true })
    const [a, b] = [(await v2(sim, now)).json, (await v2(sim, now)).json]
    expect(a).not.toEqual(b)
    const x = a.metric_data.metrics[0].timeslices[5].values
    const y = b.metric_data.metrics[0].timeslices[5].values
    expect(Math.abs(x.average_response_time / y.average_response_time - 1)).toBeLessThan(0.02)
    expect(x.call_count).toBe(y.call_count) // counts stay exact
    // summaries are "the last 3-4 minutes": jittered as well; a window ending in the past is not
    const s1 = (await v2(sim, `applications/${CHECKOUT}.json`)).json.application
    const s2 = (await v2(sim, `applications/${CHECKOUT}.json`)).json.application
    expect(s1.application_summary).not.toEqual(s2.application_summary)
    expect(s1.application_summary.host_count).toBe(s2.application_summary.host_count)
    expect((await v2(sim, path)).json).toEqual((await v2(sim, path)).json)
    const times = new Set<string>()
    for (let i = 0; i < 20; i++)
      times.add((await v2(sim, `applications/${CHECKOUT}.json`)).json.application.last_reported_at)
    expect([...times].sort()).toEqual([iso(reported - MINUTE), iso(reported)])
  })

  it('takes the switches as a simulator option, kept by reset; rejects unknown kinds', async () => {
    const sim = createSimulator({ now: () => NOW, v2: { perturb: 'extra-field' } })
    const res = await v2(sim, `applications/${CHECKOUT}.json`)
    expect(res.json.application.perturbed_field).toBe('extra')
    await admin(sim, {})
    expect((await v2(sim, `applications/${CHECKOUT}.json`)).json.application).not.toHaveProperty(
      'perturbed_field'
    )
    sim.reset()
    const back = await sim.fetch(new Request('http://sim.test/_sim/v2'))
    expect(await back.json()).toEqual({ perturb: 'extra-field', jitter: false })
    expect((await admin(sim, { perturb: 'everything' })).status).toBe(400)
  })

  it('leaves error answers alone', async () => {
    const sim = createSimulator({ now: () => NOW, v2: { perturb: 'extra-field', jitter: true } })
    const res = await v2(sim, 'applications/1.json')
    expect(res.json).toEqual({ error: { title: 'No Application found with the given ID' } })
  })
})

/** issue 36 item 6: parameters as v2's framework reads them (Rails on Rack), value order as asked. */
describe('v2 stand-in: parameters as Rails reads them', () => {
  const sim = fixedSimulator()

  it('takes the last of repeated scalar parameters (Rack parse_nested_query)', async () => {
    const res = await v2(
      sim,
      'applications.json?filter[name]=nothing-matches&filter[name]=Checkout&exclude_links=true'
    )
    expect(res.json.applications.map((a: { id: number }) => a.id)).toContain(CHECKOUT)
  })

  it('answers asked values in the order asked, each once', async () => {
    const at = END - 20 * MINUTE
    const res = await v2(
      sim,
      `applications/${CHECKOUT}/metrics/data.json?names[]=HttpDispatcher&values[]=call_count` +
        `&values[]=average_response_time&values[]=call_count&from=${iso(at)}&to=${iso(at + MINUTE)}`
    )
    const values = res.json.metric_data.metrics[0].timeslices[0].values
    expect(Object.keys(values)).toEqual(['call_count', 'average_response_time'])
  })

  it('reads page and filter[ids] with to_i, and drops a trailing slash', async () => {
    const named = (q: string) =>
      v2(sim, `applications.json/?filter[name]=Checkout&${q}`).then((r) => ({
        status: r.status,
        ids: r.json.applications.map((a: { id: number }) => a.id) as number[],
      }))
    const first = await named('page=1')
    expect(first.status).toBe(200)
    expect(first.ids).toContain(CHECKOUT)
    for (const page of ['abc', '-1', '0']) expect(await named(`page=${page}`)).toEqual(first)
    expect((await named('page=2x')).ids).toEqual([])
    expect((await named('filter[ids]=abc')).ids).toEqual([])
    expect((await named(`filter[ids]=${CHECKOUT}abc`)).ids).toEqual([CHECKOUT])
  })
})

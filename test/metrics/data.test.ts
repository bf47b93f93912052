/**
 * GET /applications/:id/metrics/data (and its host and instance forms) through v2bridge and the
 * simulator: parameters in every spelling, defaults, validation, the v2 body, and the upstream cost.
 */
import { describe, expect, it } from 'vitest'
import { metricFamilies } from '../../mappings/metric-families'
import { DEMO_KEYS, harness } from '../helpers/harness'
import {
  cost,
  familiesOf,
  hostIdOf,
  iso,
  metricData,
  minute,
  minutesAgo,
  type V2MetricData,
} from './helpers'

const appId = 9045822
const { app, get, sim } = harness()
const base = `/v2/applications/${appId}/metrics/data.json`
const familyValues = (family: string) => [
  ...metricFamilies.find((f) => f.family === family)!.values,
]
const window = () => `from=${iso(minutesAgo(40))}&to=${iso(minutesAgo(10))}`

describe('GET /applications/:id/metrics/data', () => {
  it('answers metric_data in v2 key order with every value of each family, in order', async () => {
    const res = await get(
      `${base}?names[]=HttpDispatcher&names[]=Apdex&names[]=Errors/all&names[]=Memory/Physical&names[]=CPU/User Time&names[]=EndUser&summarize=true`
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const body = (await res.json()) as { metric_data: Record<string, unknown> }
    expect(Object.keys(body)).toEqual(['metric_data'])
    expect(Object.keys(body.metric_data)).toEqual([
      'from',
      'to',
      'metrics_not_found',
      'metrics_found',
      'metrics',
    ])
    const metrics = body.metric_data['metrics'] as {
      name: string
      timeslices: { values: object }[]
    }[]
    const keys = (name: string) =>
      Object.keys(metrics.find((m) => m.name === name)!.timeslices[0]!.values)
    expect(keys('HttpDispatcher')).toEqual(familyValues('timeslice'))
    expect(keys('HttpDispatcher')).toHaveLength(11) // D-extract, average_call_time last
    expect(keys('Apdex')).toEqual([
      's',
      't',
      'f',
      'count',
      'score',
      'value',
      'threshold',
      'threshold_min',
    ])
    expect(keys('Errors/all')).toEqual(['error_count', 'errors_per_minute'])
    expect(keys('Memory/Physical')).toEqual([
      'used_bytes_by_host',
      'used_mb_by_host',
      'total_used_mb',
    ])
    expect(keys('CPU/User Time')).toEqual(['percent', 'average_time', 'total_time'])
    expect(keys('EndUser')).toEqual(familyValues('endUser'))
  })

  it('keeps request order in metrics_found and metrics, and lists names without data as not found (200)', async () => {
    const body = await metricData(
      get,
      `${base}?names[]=Errors/all&names[]=No/Such/Metric&names[]=HttpDispatcher&${window()}`
    )
    expect(body.metrics_found).toEqual(['Errors/all', 'HttpDispatcher'])
    expect(body.metrics_not_found).toEqual(['No/Such/Metric'])
    expect(body.metrics.map((m) => m.name)).toEqual(['Errors/all', 'HttpDispatcher'])
  })

  it('answers 200 with empty lists when no name has data', async () => {
    const body = await metricData(get, `${base}?names[]=Nothing/Here&${window()}`)
    expect(body).toMatchObject({
      metrics_not_found: ['Nothing/Here'],
      metrics_found: [],
      metrics: [],
    })
  })

  describe('names in every spelling', () => {
    const expected = ['HttpDispatcher', 'CPU/User Time']
    const spellings = [
      'names[]=HttpDispatcher&names[]=CPU%2FUser+Time',
      'names%5B%5D=HttpDispatcher&names%5B%5D=CPU/User%20Time',
      'names=HttpDispatcher&names=CPU/User+Time',
      'names[1]=CPU/User+Time&names[0]=HttpDispatcher',
      'names[]=HttpDispatcher%0ACPU/User+Time', // newline-joined (reliquary)
      'name=HttpDispatcher&name=CPU/User+Time', // `name` as an alias of names[]
      'names[]=HttpDispatcher&name=CPU/User+Time',
    ]
    for (const query of spellings) {
      it(`reads ${query}`, async () => {
        const body = await metricData(get, `${base}?${query}&summarize=true`)
        expect(body.metrics_found).toEqual(expected)
      })
    }

    it('reads a form body on GET (curl -X GET -d), as the Node entry passes it', async () => {
      const res = await app.request(
        base,
        {
          headers: {
            'X-Api-Key': DEMO_KEYS.all,
            'content-type': 'application/x-www-form-urlencoded',
          },
        },
        {
          getBody: () =>
            new Response('names[]=HttpDispatcher&names[]=CPU/User+Time&values[]=call_count').body,
        }
      )
      const body = (await res.json()) as { metric_data: { metrics_found: string[] } }
      expect(body.metric_data.metrics_found).toEqual(expected)
    })

    it('answers POST with a form body as a read (CHROME)', async () => {
      const body = await metricData(get, base, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'names[]=HttpDispatcher&names[]=CPU%2FUser+Time&summarize=true',
      })
      expect(body.metrics_found).toEqual(expected)
    })

    it('answers POST with a JSON body as a read', async () => {
      const body = await metricData(get, base, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ names: expected, summarize: true }),
      })
      expect(body.metrics_found).toEqual(expected)
      expect(body.metrics[0]!.timeslices).toHaveLength(1)
    })

    it('never splits names on commas and keeps slashes and spaces', async () => {
      const body = await metricData(get, `${base}?names[]=Custom/a,b c/d&names[]=HttpDispatcher`)
      expect(body.metrics_not_found).toEqual(['Custom/a,b c/d'])
    })

    it('quotes names for NRQL (a quote or backslash in a name is not an NRQL error)', async () => {
      const body = await metricData(get, `${base}?names[]=${encodeURIComponent("O'Brien\\x")}`)
      expect(body.metrics_not_found).toEqual(["O'Brien\\x"])
      expect(sim.stats().queries.at(-1)).toContain("'O\\'Brien\\\\x'")
    })
  })

  describe('values', () => {
    it('splits comma-joined values and drops unknown or inapplicable ones silently', async () => {
      const body = await metricData(
        get,
        `${base}?names[]=HttpDispatcher&names[]=Apdex&values[]=score,call_count&values[]=bogus&summarize=true`
      )
      expect(Object.keys(body.metrics[0]!.timeslices[0]!.values)).toEqual(['call_count'])
      expect(Object.keys(body.metrics[1]!.timeslices[0]!.values)).toEqual(['score'])
    })

    it('answers the values in request order (docs: call_count, then average_response_time)', async () => {
      for (const format of ['json', 'xml']) {
        const res = await get(
          `/v2/applications/${appId}/metrics/data.${format}?names[]=HttpDispatcher&values[]=call_count&values[]=average_response_time&summarize=true`
        )
        const text = await res.text()
        const keys =
          format === 'json'
            ? Object.keys(
                (JSON.parse(text) as { metric_data: V2MetricData }).metric_data.metrics[0]!
                  .timeslices[0]!.values
              )
            : [...text.matchAll(/<(call_count|average_response_time)>/g)].map((m) => m[1])
        expect(keys, format).toEqual(['call_count', 'average_response_time'])
      }
    })

    it('leaves generic values out of transaction metrics and percent/score out of HttpDispatcher', async () => {
      const body = await metricData(
        get,
        `${base}?names[]=HttpDispatcher&names[]=WebTransaction&values[]=average_time&values[]=rate&values[]=as_percentage&values[]=utilization&values[]=percent&values[]=score&values[]=call_count&summarize=true`
      )
      for (const m of body.metrics) {
        expect(Object.keys(m.timeslices[0]!.values), m.name).toEqual(['call_count'])
      }
      const none = await metricData(get, `${base}?names[]=HttpDispatcher&values[]=percent`)
      expect(none.metrics_found).toEqual(['HttpDispatcher'])
      expect(none.metrics[0]!.timeslices.every((t) => Object.keys(t.values).length === 0)).toBe(
        true
      )
    })

    it('gives {} when no requested value applies, and still tells found from not found', async () => {
      const body = await metricData(
        get,
        `${base}?names[]=Memory/Physical&names[]=Nope&values[]=score`
      )
      expect(body.metrics_found).toEqual(['Memory/Physical'])
      expect(body.metrics[0]!.timeslices[0]!.values).toEqual({})
    })

    it('leaves percent out of Memory/Physical (no total memory to divide by)', async () => {
      const body = await metricData(
        get,
        `${base}?names[]=Memory/Physical&values[]=percent&values[]=used_mb_by_host`
      )
      expect(Object.keys(body.metrics[0]!.timeslices[0]!.values)).toEqual(['used_mb_by_host'])
    })
  })

  describe('time range', () => {
    it('defaults to the last 30 minutes as 30 one-minute slices, always shifted 3 minutes back', async () => {
      const before = Date.now()
      const body = await metricData(get, `${base}?names[]=HttpDispatcher&values[]=call_count`)
      const [from, to] = [Date.parse(body.from), Date.parse(body.to)]
      expect(to - from).toBe(30 * minute)
      expect(to).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
      const slices = body.metrics[0]!.timeslices
      expect(slices).toHaveLength(30)
      // The default window ends inside a minute that is not over, whatever second the call comes
      // in (in the first second of a minute `from` looks aligned): it always moves back by the lag.
      const first = Math.floor(from / minute) * minute - 3 * minute
      expect(slices[0]!.from).toBe(iso(first))
      expect(slices.at(-1)!.to).toBe(iso(first + 30 * minute))
      for (const s of slices) expect(Date.parse(s.to) - Date.parse(s.from)).toBe(minute)
      expect(body.from).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)
    })

    it('reads from with an unencoded + (a space) and answers in UTC', async () => {
      const from = new Date(minutesAgo(40) + 2 * 3_600_000).toISOString().slice(0, 19) // local +02:00
      const body = await metricData(
        get,
        `${base}?names[]=HttpDispatcher&from=${from}+02:00&summarize=true`
      )
      expect(body.from).toBe(iso(minutesAgo(40)))
    })

    it('uses period when coarser than the default and clamps a finer one', async () => {
      const [from, to] = [minutesAgo(70), minutesAgo(10)]
      const q = `${base}?names[]=HttpDispatcher&values[]=call_count&from=${iso(from)}&to=${iso(to)}`
      const coarse = await metricData(get, `${q}&period=300`)
      expect(coarse.metrics[0]!.timeslices.map((s) => s.from)).toEqual(
        Array.from({ length: 12 }, (_, i) => iso(from + i * 5 * minute))
      )
      const fine = await metricData(get, `${q}&period=10`)
      expect(fine.metrics[0]!.timeslices).toHaveLength(60)
    })

    it('summarizes: one slice, counts summed', async () => {
      const q = `${base}?names[]=HttpDispatcher&values[]=call_count&${window()}`
      const series = await metricData(get, q)
      const summary = await metricData(get, `${q}&summarize=true`)
      const slices = series.metrics[0]!.timeslices
      expect(summary.metrics[0]!.timeslices).toEqual([
        {
          from: slices[0]!.from,
          to: slices.at(-1)!.to,
          values: { call_count: slices.reduce((a, s) => a + s.values['call_count']!, 0) },
        },
      ])
    })

    const rejected: [string, string][] = [
      ['from=yesterday', "Invalid 'from' time"],
      ['to=2026-13-01T00:00:00Z', "Invalid 'to' time"],
      ['from=2026-01-01T00:10:00Z&to=2026-01-01T00:00:00Z', "'from' must be before 'to'"],
      [
        'from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:59Z',
        'The time range must be at least 60 seconds',
      ],
    ]
    for (const [query, title] of rejected) {
      it(`answers 422 "${title}" for ${query} without an upstream request`, async () => {
        const spent = await cost(sim, async () => {
          const res = await get(`${base}?names[]=HttpDispatcher&${query}`)
          expect(res.status).toBe(422)
          expect(await res.json()).toEqual({ error: { title } })
        })
        expect(spent.requests).toBe(0)
      })
    }
  })

  // v2's answer to a missing required parameter (docs-website issue #7091: `missing parameter:
  // policy_id`, 400); the stand-in answers the same (simulator/v2/apm-metrics.ts).
  it('answers 400 missing parameter: names without an upstream request when names are missing', async () => {
    const spent = await cost(sim, async () => {
      for (const query of ['', '?names[]=', '?values[]=call_count']) {
        const res = await get(`${base}${query}`)
        expect(res.status).toBe(400)
        expect(await res.json()).toEqual({ error: { title: 'missing parameter: names' } })
      }
    })
    expect(spent.requests).toBe(0)
  })

  it('answers 404 in v2 shape for an unknown application, host or instance', async () => {
    const cases: [string, string][] = [
      [
        '/v2/applications/1/metrics/data.json?names[]=Apdex',
        'No Application found with the given ID',
      ],
      [
        `/v2/applications/${appId}/hosts/123/metrics/data.json?names[]=Apdex`,
        'No Application Host found with the given ID',
      ],
      [
        `/v2/applications/${appId}/instances/123/metrics/data.json?names[]=Apdex`,
        'No Application Instance found with the given ID',
      ],
      [
        `/v2/applications/${appId}/hosts/x/metrics/data.json?names[]=Apdex`,
        'No Application Host found with the given ID',
      ],
    ]
    for (const [path, title] of cases) {
      const res = await get(path)
      expect(res.status, path).toBe(404)
      expect(await res.json()).toEqual({ error: { title } })
    }
  })

  describe('upstream cost', () => {
    it('costs one NerdGraph request, one NRQL query per metric family, for every name and value of an application', async () => {
      await get(`${base}?names[]=Apdex`) // warm the application resolution
      const names = sim.dataset.metricNames(appId)
      expect(names.length).toBeGreaterThan(15)
      const query = names.map((n) => `names[]=${encodeURIComponent(n)}`).join('&')
      const spent = await cost(sim, async () => {
        const body = await metricData(get, `${base}?${query}&${window()}`)
        expect(body.metrics_found).toEqual(names)
      })
      // A data query per family, the known-names query (the names cache is cold) and EndUser
      // error_percentage's query of EndUser/errors and Browser, in one request.
      expect(familiesOf(names)).toBeGreaterThan(3)
      expect(spent).toMatchObject({ requests: 1, nrql: familiesOf(names) + 2 })
      const data = spent.queries.filter((q) => q.includes('FACET metricTimesliceName'))
      expect(data).toHaveLength(familiesOf(names))
    })

    it('asks no known-names query once the metric names are cached', async () => {
      await get(`/v2/applications/${appId}/metrics.json`)
      const spent = await cost(sim, () => metricData(get, `${base}?names[]=HttpDispatcher`))
      expect(spent).toMatchObject({ requests: 1, nrql: 1 })
      expect(spent.queries[0]).toContain('FACET metricTimesliceName')
    })

    it('costs one request from the first call when the account is pinned', async () => {
      // A window of its own: the same NRQL of a closed window answers from the reused answer.
      const own = `from=${iso(minutesAgo(50))}&to=${iso(minutesAgo(20))}`
      const spent = await cost(sim, () =>
        metricData(get, `${base}?names[]=HttpDispatcher&${own}`, {
          headers: { 'X-Account-Id': '1000001' },
        })
      )
      expect(spent.requests).toBe(1)
    })

    it('costs one request at host scope once the application and its hosts are known', async () => {
      const hostId = await hostIdOf(get, appId, 'web-02.prod.example.com')
      const path = `/v2/applications/${appId}/hosts/${hostId}/metrics/data.json?names[]=HttpDispatcher&names[]=Memory/Physical`
      await get(`${path}&${window()}`) // another window: the same one would be reused
      const spent = await cost(sim, () => metricData(get, path))
      expect(spent).toMatchObject({ requests: 1, nrql: 3 }) // two families, known names
      for (const q of spent.queries) expect(q).toContain("host = 'web-02.prod.example.com'")
    })

    it('costs one request per alias-split call over 2000 names', async () => {
      const many = Array.from({ length: 2001 }, (_, i) => `names[]=Custom/${i}`).join('&')
      const spent = await cost(sim, async () => {
        const res = await get(base, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `${many}&names[]=HttpDispatcher&values[]=call_count`,
        })
        const body = (await res.json()) as {
          metric_data: { metrics_found: string[]; metrics_not_found: string[] }
        }
        expect(body.metric_data.metrics_found).toEqual(['HttpDispatcher'])
        expect(body.metric_data.metrics_not_found).toHaveLength(2001)
      })
      expect(spent.requests).toBe(1)
      expect(spent.queries.filter((q) => q.includes('FACET'))).toHaveLength(2)
    })
  })
})

/**
 * The comparison rules of src/compare/ on hand-made pairs of answers: each kind of difference is
 * found under its normalised path, lists are matched by identity, XML reads into the same tree as
 * JSON, and a band learned from two v2 answers keeps jitter out. Shapes follow v2's application and
 * metric-data answers (New Relic docs "Summary data examples (v2)", "Extract metric timeslice
 * data"); the XML form is v2's Rails `to_xml` (src/http/render/xml.ts).
 */
import { describe, expect, it } from 'vitest'
import { compareAnswers, compareTrees, type Difference } from '../../src/compare/diff'
import { answerOf, linksOf, parseXml, type Tree } from '../../src/compare/tree'
import { byPlace, learnNoise, sortDifferences, type Bands } from '../../src/compare/noise'
import { addOutcome, verificationLine, type Verification } from '../../src/compare/aggregate'
import { renderXml } from '../../src/http/render/xml'

const app = (over: Record<string, Tree> = {}, summary: Record<string, Tree> = {}) => ({
  id: 9045822,
  name: 'Checkout',
  health_status: 'green',
  application_summary: { response_time: 120.5, throughput: 300, apdex_score: 0.97, ...summary },
  ...over,
})
const kinds = (ds: Difference[]) => ds.map((d) => `${d.kind} ${d.path}`)

describe('compareTrees', () => {
  it('finds nothing in equal trees', () => {
    expect(compareTrees({ applications: [app()] }, { applications: [app()] })).toEqual([])
  })

  it('finds a changed value by its normalised path, with its size', () => {
    const [d] = compareTrees(
      { applications: [app()] },
      { applications: [app({}, { response_time: 121 })] }
    )
    expect(d).toMatchObject({
      path: 'applications[].application_summary.response_time',
      kind: 'value',
      v2: 120.5,
      bridge: 121,
    })
    expect(d!.rel).toBeCloseTo(0.5 / 121, 10)
  })

  it('finds a missing field, an extra field, a changed type and null against absent', () => {
    const v2 = { application: { id: 1, name: 'a', language: 'java', last_reported_at: null } }
    const bridge = { application: { id: '1', name: 'a', reporting: true } }
    expect(kinds(compareTrees(v2, bridge)).sort()).toEqual([
      'extra application.reporting',
      'missing application.language',
      'null application.last_reported_at',
      'type application.id',
    ])
  })

  it('matches list items by id, not by position: a reordered list differs in order only', () => {
    const a = app()
    const b = app({ id: 2, name: 'Billing' })
    expect(kinds(compareTrees({ applications: [a, b] }, { applications: [b, a] }))).toEqual([
      'order applications[]',
    ])
  })

  it('finds a missing and an extra item by identity', () => {
    const ds = compareTrees(
      { applications: [app(), app({ id: 2 })] },
      { applications: [app(), app({ id: 3 })] }
    )
    expect(ds).toEqual([
      { path: 'applications[]', at: 'applications[id:2]', kind: 'missing', v2: 'id:2' },
      { path: 'applications[]', at: 'applications[id:3]', kind: 'extra', bridge: 'id:3' },
    ])
  })

  it('matches metrics by name and timeslices by from/to', () => {
    const slice = (from: string, v: number) => ({
      from,
      to: from.replace(':00:', ':01:'),
      values: { average_response_time: v },
    })
    const v2 = {
      metric_data: {
        metrics: [
          { name: 'Apdex', timeslices: [slice('2026-01-01T00:00:00+00:00', 1)] },
          {
            name: 'HttpDispatcher',
            timeslices: [
              slice('2026-01-01T00:00:00+00:00', 10),
              slice('2026-01-01T01:00:00+00:00', 20),
            ],
          },
        ],
      },
    }
    const bridge = structuredClone(v2)
    bridge.metric_data.metrics.reverse()
    bridge.metric_data.metrics[0]!.timeslices[1]!.values.average_response_time = 20.5
    expect(kinds(compareTrees(v2, bridge))).toEqual([
      'value metric_data.metrics[].timeslices[].values.average_response_time',
      'order metric_data.metrics[]',
    ])
  })

  it('takes the ends of a window ending now as equal within seconds, not other times', () => {
    const at = (from: string) => ({ metric_data: { from, last_reported_at: from } })
    expect(
      kinds(compareTrees(at('2026-01-01T00:26:52+00:00'), at('2026-01-01T00:26:51+00:00')))
    ).toEqual(['value metric_data.last_reported_at'])
    expect(
      kinds(compareTrees(at('2026-01-01T00:26:52+00:00'), at('2026-01-01T00:27:52+00:00')))
    ).toEqual(['value metric_data.from', 'value metric_data.last_reported_at'])
  })

  it('names a key that is data, not a v2 field name, as * in paths', () => {
    const channel = (value: string) => ({
      configuration: { headers: { 'X-Secret-Header': value } },
    })
    expect(kinds(compareTrees(channel('a'), channel('b')))).toEqual([
      'value configuration.headers.*',
    ])
  })

  it('reports key order apart, as cosmetic, and list order as a difference', () => {
    const ds = compareTrees({ a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 } })
    expect(ds).toEqual([{ path: 'a', at: 'a', kind: 'keys' }])
    const reversed = compareTrees({ a: [{ id: 1 }, { id: 2 }] }, { a: [{ id: 2 }, { id: 1 }] })
    expect(sortDifferences(reversed, new Map()).differences).toEqual([
      { path: 'a[]', at: 'a[]', kind: 'order' },
    ])
    expect(sortDifferences(ds, new Map()).differences).toEqual([])
    expect(sortDifferences(ds, new Map()).cosmetic).toHaveLength(1)
  })

  it('compares lists of scalars by value and in order', () => {
    expect(kinds(compareTrees({ servers: [1, 2, 3] }, { servers: [3, 1, 2] }))).toEqual([
      'order servers[]',
    ])
    expect(kinds(compareTrees({ servers: [1, 2] }, { servers: [1, 2, 2] }))).toEqual([
      'extra servers[]',
    ])
  })
})

describe('compareAnswers', () => {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    answerOf(
      status,
      new Headers({ 'Content-Type': 'application/json', ...headers }),
      JSON.stringify(body)
    )

  it('compares status, error title, media type and Link relations', () => {
    const v2 = json(
      404,
      { error: { title: 'Application not found' } },
      { Link: '<https://api.newrelic.com/v2/applications.json?page=2>; rel="next"' }
    )
    const bridge = answerOf(
      400,
      new Headers({
        'Content-Type': 'text/plain',
        Link: '<http://localhost:8787/v2/applications.json?page=3>; rel="next", <http://localhost:8787/v2/applications.json?page=3>; rel="last"',
      }),
      JSON.stringify({ error: { title: 'Invalid parameter' } })
    )
    expect(kinds(compareAnswers(v2, bridge))).toEqual([
      'value (status)',
      'value (content-type)',
      'value (link).next',
      'extra (link).last',
      'value error.title',
    ])
  })

  it('ignores the charset of the media type and the host of links', () => {
    const v2 = json(
      200,
      {},
      {
        'Content-Type': 'application/json; charset=utf-8',
        Link: '<https://api.newrelic.com/v2/applications.json?page=2&x=1>; rel="next"',
      }
    )
    const bridge = json(
      200,
      {},
      {
        Link: '<http://127.0.0.1:8787/v2/applications.json?x=1&page=2>; rel="next"',
      }
    )
    expect(compareAnswers(v2, bridge)).toEqual([])
  })

  it('reads XML into the same tree as JSON', () => {
    const body = {
      application: {
        id: 9045822,
        name: 'A & B',
        last_reported_at: null,
        links: { servers: [1, 2] },
        summary: { apdex_score: 21 },
      },
    }
    const xml = renderXml(body)
    expect(parseXml(xml)).toEqual(body)
    const a = answerOf(200, new Headers({ 'Content-Type': 'application/xml' }), xml)
    const changed = structuredClone(body)
    changed.application.summary.apdex_score = 22
    const b = answerOf(200, new Headers({ 'Content-Type': 'application/xml' }), renderXml(changed))
    expect(kinds(compareAnswers(a, b))).toEqual(['value application.summary.apdex_score'])
  })

  it('parses Link headers into relations with sorted parameters', () => {
    expect(
      linksOf(
        '<https://api.newrelic.com/v2/users.json?page=2&b=1>; rel="next", <https://api.newrelic.com/v2/users.json?page=9>; rel="last"'
      )
    ).toEqual({ next: '/users.json?b=1&page=2', last: '/users.json?page=9' })
  })
})

describe('noise', () => {
  const body = (v: number, at: string) => ({
    application: {
      id: 1,
      last_reported_at: at,
      application_summary: { response_time: v, throughput: 50 },
    },
  })
  const t = (minute: number) => `2026-01-01T10:${String(minute).padStart(2, '0')}:00+00:00`

  it('learns a band per item path from v2 reads and keeps differences within it out', () => {
    const bands: Bands = new Map()
    learnNoise(bands, compareTrees(body(100, t(1)), body(100.4, t(0))))
    expect(bands.get('application.application_summary.response_time')!.abs).toBeCloseTo(0.4, 9)
    expect(bands.get('application.last_reported_at')).toMatchObject({ abs: 60_000 })
    const sorted = sortDifferences(compareTrees(body(100, t(1)), body(100.5, t(2))), bands)
    expect(sorted.differences).toEqual([])
    expect(sorted.noisy.map((d) => d.path).sort()).toEqual([
      'application.application_summary.response_time',
      'application.last_reported_at',
    ])
  })

  it('never bands a path across list items: the jitter of a large item hides nothing on a small one', () => {
    const bands: Bands = new Map()
    const v2 = (big: number) => ({
      applications: [
        { id: 1, application_summary: { throughput: big } },
        { id: 2, application_summary: { throughput: 50 } },
      ],
    })
    learnNoise(bands, compareTrees(v2(5000), v2(5040)))
    const bridge = {
      applications: [
        { id: 1, application_summary: { throughput: 5010 } },
        { id: 2, application_summary: { throughput: 75 } },
      ],
    }
    const sorted = sortDifferences(compareTrees(v2(5000), bridge), bands)
    expect(sorted.differences.map((d) => d.at)).toEqual([
      'applications[id:2].application_summary.throughput',
    ])
    expect(sorted.noisy.map((d) => d.at)).toEqual([
      'applications[id:1].application_summary.throughput',
    ])
  })

  it('bounds a time by what moved between v2 reads plus its granularity', () => {
    const bands: Bands = new Map()
    learnNoise(bands, compareTrees(body(100, t(1)), body(100, t(0))))
    // A minute moved: a minute plus the field's granularity (a minute) passes, three hours do not.
    expect(
      sortDifferences(compareTrees(body(100, t(2)), body(100, t(0))), bands).differences
    ).toEqual([])
    const hours = {
      ...body(100, t(1)),
      application: {
        ...body(100, t(1)).application,
        last_reported_at: '2026-01-01T07:01:00+00:00',
      },
    }
    expect(
      sortDifferences(compareTrees(body(100, t(1)), hours), bands).differences.map((d) => d.path)
    ).toEqual(['application.last_reported_at'])
  })

  it('takes a text that moved once as noise only when a v2 read of the call agrees with it', () => {
    const bands: Bands = new Map()
    const named = (name: string) => ({ application: { id: 1, name } })
    learnNoise(bands, compareTrees(named('a'), named('b')))
    const d = compareTrees(named('a'), named('c'))
    expect(sortDifferences(d, bands).differences).toHaveLength(1)
    const agreeing = [byPlace(compareTrees(named('c'), named('c')))]
    expect(sortDifferences(d, bands, agreeing).differences).toEqual([])
  })

  it('takes no text as noise from a v2 read that lacks its item', () => {
    const list = (...apps: [number, string][]) => ({
      applications: apps.map(([id, health_status]) => ({ id, health_status })),
    })
    const bridge = list([1, 'red'], [2, 'green'])
    const d = compareTrees(list([1, 'green'], [2, 'green']), bridge)
    const without = [byPlace(compareTrees(list([2, 'green']), bridge))]
    expect(sortDifferences(d, new Map(), without).differences.map((x) => x.at)).toEqual([
      'applications[id:1].health_status',
    ])
    const agreeing = [byPlace(compareTrees(list([1, 'red'], [2, 'green']), bridge))]
    expect(sortDifferences(d, new Map(), agreeing).differences).toEqual([])
  })

  it('still reports a difference beyond the band, and on a path without one', () => {
    const bands: Bands = new Map()
    learnNoise(bands, compareTrees(body(100, 't'), body(100.4, 't')))
    const beyond = compareTrees(body(100, 't'), { ...body(110, 't') })
    beyond.push(...compareTrees({ a: 50 }, { a: 50.01 }))
    expect(sortDifferences(beyond, bands).differences.map((d) => d.path)).toEqual([
      'application.application_summary.response_time',
      'a',
    ])
  })

  it('keeps ±0.5 % jitter out once learned from a few reads', () => {
    // Spread evenly over ±0.5 % (the golden-ratio sequence), the same draws on every run.
    let n = 0
    const jitter = (v: number) => v * (1 + (((++n * 0.6180339887) % 1) - 0.5) / 100)
    const bands: Bands = new Map()
    for (let i = 0; i < 5; i++) {
      const spreads = new Map()
      const first = body(jitter(200), 't')
      for (let r = 0; r < 5; r++)
        learnNoise(bands, compareTrees(first, body(jitter(200), 't')), Infinity, spreads)
    }
    for (let i = 0; i < 200; i++) {
      const d = compareTrees(body(jitter(200), 't'), body(200, 't'))
      expect(sortDifferences(d, bands).differences).toEqual([])
    }
  })
})

describe('aggregate', () => {
  const bounds = { entriesPerKey: 2, namesPerEntry: 2, nameLength: 20 }
  const outcome = (differences: Difference[] = []) => ({
    method: 'GET',
    path: '/v2/applications/{application_id}/metrics/data',
    result: differences.length ? ('differing' as const) : ('equal' as const),
    differences,
    noisy: [],
    cosmetic: [],
  })

  it('counts per operation, per path the count, the largest difference and three examples', () => {
    const into = new Map<string, Verification>()
    const path = 'metrics[].timeslices[].values.average_response_time'
    for (let i = 0; i < 1198; i++) addOutcome(into, outcome(), { ...bounds, nameLength: 255 })
    for (let i = 0; i < 6; i++)
      addOutcome(
        into,
        outcome([
          {
            path,
            at: path,
            kind: 'value',
            v2: 100 + i,
            bridge: 100.4 + i,
            abs: 0.4,
            rel: 0.4 / (100.4 + i),
          },
        ]),
        { ...bounds, nameLength: 255 }
      )
    const [v] = [...into.values()]
    expect(v).toMatchObject({ compared: 1204, equal: 1198, differing: 6 })
    expect(v!.paths[0]).toMatchObject({
      path,
      count: 6,
      examples: ['100 → 100.4', '101 → 101.4', '102 → 102.4'],
    })
    expect(verificationLine(v!)).toBe(
      'GET /v2/applications/{application_id}/metrics/data: 1,204 compared, 1,198 equal; `metrics[].timeslices[].values.average_response_time` differs in 6 (largest 0.4%)'
    )
  })

  it('stays within its bounds: operations, paths, path length and bytes', () => {
    const into = new Map<string, Verification>()
    const d = (path: string): Difference => ({ path, at: path, kind: 'missing', v2: 1 })
    addOutcome(into, outcome([d('a'), d('b'), d('c'), d('x'.repeat(40))]), bounds)
    expect(
      into.get('GET /v2/applications/{application_id}/metrics/data')!.paths.map((p) => p.path)
    ).toEqual(['a', 'b'])
    addOutcome(into, { ...outcome(), path: '/2' }, bounds)
    addOutcome(into, { ...outcome(), path: '/3' }, bounds)
    expect(into.size).toBe(2)
    expect(addOutcome(new Map(), outcome(), bounds, 10)).toBe(0)
  })
})

/**
 * Fidelity end to end: for every value type of every family the demo dataset reports (transaction and
 * segment timeslices, Apdex and EndUser/Apdex, Errors, Memory, CPU/User Time, EndUser), series and
 * summarized, application, host and instance scope, v2bridge's answer (raw=true) equals the v2 meaning
 * computed from the raw rows of /_sim/timeslices (test/metrics/reference.ts), not through NRQL.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { otherMetrics, valueTypes } from '../../mappings/value-types'
import { familyOf } from '../../src/resources/metrics/families'
import { harness } from '../helpers/harness'
import {
  cost,
  familiesOf,
  groundTruth,
  hostIdOf,
  instanceIdOf,
  iso,
  metricData,
  minute,
  minutesAgo,
  type V2MetricData,
} from './helpers'
import { close, expectedValues, type OtherRows } from './reference'

const appId = 9045822
const { get, sim, dataset } = harness()
const app = dataset.application(appId)!
const firstInstance = app.instances[0]! // the one that also carries EndUser and EndUser/Apdex
const names = [
  'HttpDispatcher',
  'WebTransaction',
  'OtherTransaction/all',
  app.transactions[0]!,
  'Datastore/statement/Postgres/orders/select',
  'External/payments.stripe.example.com/all',
  'WebFrontend/QueueTime',
  'Apdex',
  'EndUser/Apdex',
  'Errors/all',
  'Memory/Physical',
  'CPU/User Time',
  'EndUser',
]
const everyValue = Object.keys(valueTypes)
  .map((v) => `values[]=${v}`)
  .join('&')

interface Scope {
  label: string
  path: () => string
  host?: string
  instanceName?: string
}

const scopes: Scope[] = [
  { label: 'application', path: () => `/v2/applications/${appId}` },
  {
    label: 'host',
    path: () => `/v2/applications/${appId}/hosts/${ids.host}`,
    host: firstInstance.host,
  },
]
const ids = { host: 0 }

const windows = [
  {
    label: 'series of 1-minute slices',
    query: () => ({ from: minutesAgo(70), to: minutesAgo(10), summarize: false }),
    slices: (q: { from: number; to: number }) => grid(q.from, q.to, minute),
  },
  {
    label: 'series over 6 hours (2-minute slices)',
    query: () => ({ from: minutesAgo(370), to: minutesAgo(10), summarize: false }),
    slices: (q: { from: number; to: number }) => grid(q.from, q.to, 2 * minute),
  },
  {
    label: 'summarized over an unaligned range',
    query: () => ({ from: minutesAgo(40) + 17_000, to: minutesAgo(10) + 5_000, summarize: true }),
    // D-extract, GO samples: an unaligned window of N whole minutes → N minutes from floor(from) − 3 min.
    slices: (q: { from: number; to: number }) => {
      const from = Math.floor(q.from / minute) * minute - 3 * minute
      return [{ from, to: from + Math.floor((q.to - q.from) / minute) * minute }]
    },
  },
]

function grid(from: number, to: number, step: number) {
  const out: { from: number; to: number }[] = []
  for (let t = from; t < to; t += step) out.push({ from: t, to: t + step })
  return out
}

async function compare(
  body: V2MetricData,
  slices: { from: number; to: number }[],
  scope: Omit<Scope, 'path' | 'label'>
) {
  expect(body.metrics_found).toEqual(names)
  let compared = 0
  const truth = (name: string) =>
    groundTruth(sim, {
      appId,
      name,
      from: slices[0]!.from,
      to: slices.at(-1)!.to,
      ...(scope.host ? { host: scope.host } : {}),
      ...(scope.instanceName ? { instanceName: scope.instanceName } : {}),
    })
  // EndUser error_percentage reads EndUser/errors over Browser (D-nrql EndUser table).
  const errors = await truth(otherMetrics.endUserErrors)
  const views = await truth(otherMetrics.pageViews)
  for (const metric of body.metrics) {
    const family = familyOf(metric.name).family
    const all = await truth(metric.name)
    expect(metric.timeslices.map((t) => [t.from, t.to])).toEqual(
      slices.map((s) => [iso(s.from), iso(s.to)])
    )
    metric.timeslices.forEach((ts, i) => {
      const slice = slices[i]!
      const within = <T extends { timestamp: number }>(rows: T[]) =>
        rows.filter((r) => r.timestamp >= slice.from && r.timestamp < slice.to)
      const others: OtherRows = { endUserErrors: within(errors), pageViews: within(views) }
      const want = expectedValues(
        family,
        Object.keys(ts.values),
        within(all),
        (slice.to - slice.from) / 1000,
        others
      )
      for (const [value, expected] of Object.entries(want)) {
        const got = ts.values[value]!
        if (!close(got, expected))
          expect.fail(`${metric.name} ${value} slice ${ts.from}: got ${got}, want ${expected}`)
        compared++
      }
    })
  }
  return compared
}

beforeAll(async () => {
  ids.host = await hostIdOf(get, appId, firstInstance.host)
})

describe('fidelity of every value type against /_sim/timeslices', () => {
  for (const scope of scopes) {
    for (const w of windows) {
      it(`matches at ${scope.label} scope, ${w.label}`, async () => {
        const q = w.query()
        const path =
          `${scope.path()}/metrics/data.json?${names.map((n) => `names[]=${encodeURIComponent(n)}`).join('&')}` +
          `&${everyValue}&raw=true&summarize=${q.summarize}&from=${iso(q.from)}&to=${iso(q.to)}`
        let body: V2MetricData | undefined
        const spent = await cost(sim, async () => (body = await metricData(get, path)))
        // A data query per family, the known-names query and EndUser error_percentage's query of
        // EndUser/errors and Browser, all in one request.
        expect(spent).toMatchObject({ requests: 1, nrql: familiesOf(names) + 2 })
        expect(await compare(body!, w.slices(q), scope)).toBeGreaterThan(names.length * 5)
      })
    }
  }

  it('matches at instance scope (one agent instance of a host with several)', async () => {
    const instance = app.instances.find(
      (i) => i.host === firstInstance.host && i !== firstInstance
    )!
    const port = Number(instance.instanceName.split(':')[1])
    const instanceId = await instanceIdOf(get, appId, instance.host, port)
    const w = windows[2]!
    const q = w.query()
    const body = await metricData(
      get,
      `/v2/applications/${appId}/instances/${instanceId}/metrics/data.json?names[]=HttpDispatcher&names[]=Memory/Physical&names[]=CPU/User Time&names[]=Apdex&raw=true&summarize=true&from=${iso(q.from)}&to=${iso(q.to)}`
    )
    expect(app.instances.filter((i) => i.host === instance.host).length).toBeGreaterThan(1)
    expect(body.metrics_found).toEqual([
      'HttpDispatcher',
      'Memory/Physical',
      'CPU/User Time',
      'Apdex',
    ])
    const slices = w.slices(q)
    for (const metric of body.metrics) {
      const all = await groundTruth(sim, {
        appId,
        name: metric.name,
        host: instance.host,
        instanceName: instance.instanceName,
        from: slices[0]!.from,
        to: slices[0]!.to,
      })
      const values = metric.timeslices[0]!.values
      const seconds = (slices[0]!.to - slices[0]!.from) / 1000
      const want = expectedValues(familyOf(metric.name).family, Object.keys(values), all, seconds)
      for (const [k, v] of Object.entries(want))
        expect(close(values[k]!, v), `${metric.name} ${k}`).toBe(true)
    }
  })
})

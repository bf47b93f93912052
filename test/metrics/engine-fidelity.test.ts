/**
 * Every value type of every family, series and summarized, application and host scope: v2bridge's plan
 * run by the simulator's NRQL engine over synthetic rows, reshaped, and compared with the v2 meaning
 * computed from the same rows (test/metrics/reference.ts). This covers the families the demo dataset
 * has no data for (GC, CPU/User/Utilization, EndUser/RB, Mobile); test/metrics/fidelity.test.ts does
 * the same end to end over HTTP for the families it has.
 */
import { describe, expect, it } from 'vitest'
import { metricFamilies } from '../../mappings/metric-families'
import { otherMetrics, valueTypes } from '../../mappings/value-types'
import { planMetricData, type MetricScope } from '../../src/resources/metrics/plan'
import { toV2MetricData } from '../../src/resources/metrics/reshape'
import type { MetricDataData } from '../../src/resources/metrics/documents'
import { runNrql, type MetricRow } from '../../simulator'
import { resolveTimeRange, slicesOf } from '../../src/core/time-range'
import { close, expectedValues, type OtherRows, type RawRow } from './reference'

const minute = 60_000
const now = Date.UTC(2026, 0, 15, 12, 0, 0)
const accountId = 1
const guid = 'GUID-1'

/** One or two metric names per family, chosen to match each family row. */
const namesByFamily: Record<string, string[]> = {
  apdex: ['Apdex', 'EndUser/Apdex', 'Apdex/Controller/home'],
  errors: ['Errors/all', 'Errors/WebTransaction/Controller/home'],
  cpuUserTime: ['CPU/User Time'],
  cpuUtilization: ['CPU/User/Utilization'],
  gc: ['GC/PS Scavenge'],
  memory: ['Memory/Physical', 'Memory/Heap/Used'],
  endUser: ['EndUser', 'EndUser/RB'],
  mobile: ['Mobile/Crash/All', 'Session/Start'],
  timeslice: ['HttpDispatcher', 'Datastore/statement/MySQL/users/select', 'Custom/odd, name'],
}

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Rows for 5 hours before `now`, 3 hosts (one with two instances), with gaps. */
function syntheticRows(): MetricRow[] {
  const rnd = random(42)
  const instances = [
    ['h1.example.com', 'h1:8080'],
    ['h1.example.com', 'h1:8081'],
    ['h2.example.com', 'h2:8080'],
    ['h3.example.com', 'h3:8080'],
  ] as const
  const rows: MetricRow[] = []
  // The metrics EndUser error_percentage reads (D-nrql EndUser table) have rows too, unrequested.
  for (const names of [...Object.values(namesByFamily), Object.values(otherMetrics)]) {
    for (const name of names) {
      for (const [host, instanceName] of instances) {
        for (let t = now - 5 * 60 * minute; t < now; t += minute) {
          if (rnd() < 0.15) continue // a gap: no row this minute
          const count = 1 + Math.floor(rnd() * 50)
          const total = count * (0.01 + rnd())
          const min = (total / count) * rnd()
          const value = {
            count,
            total,
            totalExclusive: total * rnd(),
            min,
            max: (total / count) * (1 + 3 * rnd()),
            sumOfSquares: ((total * total) / count) * (1 + rnd()),
          }
          const base = { accountId, appId: 7, appName: 'App', entityGuid: guid, host, instanceName }
          rows.push({ ...base, timestamp: t, metricTimesliceName: name, scope: null, value })
          // A scoped copy that must not be counted (NRQL-timeslice: rows carry `scope`).
          if (name.startsWith('Datastore/')) {
            rows.push({
              ...base,
              timestamp: t,
              metricTimesliceName: name,
              scope: 'WebTransaction/x',
              value,
            })
          }
        }
      }
    }
  }
  // Another application's rows must not leak in.
  rows.push({ ...rows[0]!, entityGuid: 'OTHER', appId: 8 })
  return rows
}

const rows = syntheticRows()
const store = { scan: () => rows }
const everyValue = Object.keys(valueTypes)

function rawRows(name: string, scope: MetricScope): RawRow[] {
  return rows
    .filter(
      (r) =>
        r.metricTimesliceName === name &&
        r.entityGuid === guid &&
        r.scope === null &&
        (scope.host === undefined || r.host === scope.host)
    )
    .map((r) => ({
      timestamp: r.timestamp,
      host: r.host,
      instanceName: r.instanceName,
      ...r.value,
    }))
}

function run(
  scope: MetricScope,
  names: string[],
  time: { from: string; to: string; summarize: boolean; period?: string }
) {
  const range = resolveTimeRange(time, now)
  const plan = planMetricData({ now: 0, names, values: everyValue, range, raw: true }, scope)
  const account = Object.fromEntries(
    plan.nrql.map((q, i) => [`q${i}`, runNrql(q, { accountId, store, now })])
  )
  if (plan.othersNrql) account['others'] = runNrql(plan.othersNrql, { accountId, store, now })
  const body = toV2MetricData(plan, { actor: { account } } as MetricDataData)
  return { body: body['metric_data'] as MetricData, range }
}

interface MetricData {
  metrics_found: string[]
  metrics: {
    name: string
    timeslices: { from: string; to: string; values: Record<string, number> }[]
  }[]
}

const windows = [
  {
    label: 'series, 1-minute slices',
    time: { from: '2026-01-15T10:00:00Z', to: '2026-01-15T11:00:00Z', summarize: false },
  },
  {
    label: 'series, period=600',
    time: {
      from: '2026-01-15T08:00:00Z',
      to: '2026-01-15T11:00:00Z',
      summarize: false,
      period: '600',
    },
  },
  {
    label: 'summarized',
    time: { from: '2026-01-15T09:13:20Z', to: '2026-01-15T11:47:00Z', summarize: true },
  },
]
const scopes: [string, MetricScope][] = [
  ['application', { accountId, guid }],
  ['host', { accountId, guid, host: 'h1.example.com' }],
]

describe('value fidelity over the NRQL engine, every family', () => {
  for (const [scopeLabel, scope] of scopes) {
    for (const { label, time } of windows) {
      it(`matches the v2 definition of every value type (${scopeLabel} scope, ${label})`, () => {
        const names = Object.values(namesByFamily).flat()
        const { body, range } = run(scope, names, time)
        expect(body.metrics_found).toEqual(names)
        const slices = slicesOf(range)
        const errors = rawRows(otherMetrics.endUserErrors, scope)
        const views = rawRows(otherMetrics.pageViews, scope)
        let compared = 0
        for (const family of metricFamilies) {
          for (const name of namesByFamily[family.family]!) {
            const metric = body.metrics.find((m) => m.name === name)!
            // Asked for every value type: the family's own, in request order.
            const own = new Set<string>([
              ...family.values,
              ...('onlyAsked' in family ? family.onlyAsked : []),
            ])
            expect(Object.keys(metric.timeslices[0]!.values)).toEqual(
              everyValue.filter((v) => own.has(v))
            )
            const all = rawRows(name, scope)
            metric.timeslices.forEach((ts, i) => {
              const slice = slices[i]!
              expect(ts.from).toBe(new Date(slice.from).toISOString().replace('.000Z', '+00:00'))
              const within = (rows: RawRow[]) =>
                rows.filter((r) => r.timestamp >= slice.from && r.timestamp < slice.to)
              const seconds = (slice.to - slice.from) / 1000
              const others: OtherRows | undefined =
                family.family === 'endUser'
                  ? { endUserErrors: within(errors), pageViews: within(views) }
                  : undefined
              const expected = expectedValues(
                family.family,
                Object.keys(ts.values),
                within(all),
                seconds,
                others
              )
              for (const [value, want] of Object.entries(expected)) {
                const got = ts.values[value]!
                if (!close(got, want)) {
                  expect.fail(`${name} ${value} slice ${i}: got ${got}, expected ${want}`)
                }
                compared++
              }
            })
          }
        }
        expect(compared).toBeGreaterThan(100)
      })
    }
  }
})

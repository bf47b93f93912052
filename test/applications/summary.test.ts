/** v2 summary objects (D-summary; v2 explorer models): apdex figures with 2 decimals,
 * concurrent_instance_count for background applications only. */
import { describe, expect, it } from 'vitest'
import type { ApmApplication } from '../../src/resources/applications/documents'
import { toV2Application } from '../../src/resources/applications/reshape'
import { browserNrql, browserSummaryFrom } from '../../src/resources/applications/browser'
import { round2 } from '../../src/core/numbers'

const base: ApmApplication = {
  guid: 'G',
  name: 'Worker',
  accountId: 1,
  applicationId: 7,
  language: 'go',
  reporting: true,
  alertSeverity: 'NOT_ALERTING',
  apmSummary: {
    apdexScore: 0.84666,
    errorRate: 0,
    hostCount: 2,
    instanceCount: 3,
    responseTimeAverage: 0.2,
    throughput: 12,
    webThroughput: 0,
    nonWebThroughput: 12,
  },
  apmBrowserSummary: null,
  settings: { apdexTarget: 0.4567, serverSideConfig: false },
} as ApmApplication

const summary = (e: ApmApplication) =>
  toV2Application(e)['application_summary'] as Record<string, unknown>

describe('application_summary', () => {
  // Recorded v2 apdex scores have 2 decimals, not the 3 significant digits of other values: 0.78
  // (newrelic-client-go pkg/apm/applications_test.go), 0.87 and 0.95 beside `throughput: 3.67`
  // (ContaAzul/newrelic_exporter newrelic/testdata/key_transactions.json).
  it('rounds apdex_score and apdex_target to 2 decimals', () => {
    expect(summary(base)).toMatchObject({ apdex_score: 0.85, apdex_target: 0.46 })
    expect([round2(0.5), round2(7), round2(0.999), round2(Number.NaN)]).toEqual([0.5, 7, 1, 0])
  })

  // issue 37 item 3: newrelic-client-go's fixture (pkg/apm/applications_test.go) shows it last, on a
  // web application.
  it('adds concurrent_instance_count, last, for every reporting application', () => {
    const web = { ...base, apmSummary: { ...base.apmSummary!, webThroughput: 10 } }
    for (const e of [base, web]) {
      expect(Object.keys(summary(e)).at(-1)).toBe('concurrent_instance_count')
      expect(summary(e)['concurrent_instance_count']).toBe(3)
    }
  })

  // issue 37 item 2: web transactions' figures for a web application (New Relic docs "Get average
  // throughput for an app (v2)", "Get web transaction time data (v2)").
  it("answers a web application's response time and throughput from its web transactions", () => {
    const web = {
      ...base,
      apmSummary: { ...base.apmSummary!, webThroughput: 10, webResponseTimeAverage: 0.297 },
    }
    expect(summary(web)).toMatchObject({ response_time: 297, throughput: 10 })
    expect(summary(base)).toMatchObject({ response_time: 200, throughput: 12 })
  })
})

describe('application_summary.error_rate', () => {
  // D-errrate: 100 × Errors/all over the HttpDispatcher and OtherTransaction/all calls. Whether
  // `apmSummary.errorRate` is 0–100 or 0–1 no public answer shows, so the timeslices decide.
  const topology = { hosts: new Map(), instances: new Map(), lastReported: undefined }
  const rate = (errorRate: number, row: Record<string, unknown> | undefined) =>
    toV2Application(
      { ...base, apmSummary: { ...base.apmSummary!, errorRate } },
      topology,
      browserSummaryFrom(row)
    )['application_summary'] as Record<string, unknown>

  it('is the percent of calls the timeslices count, whatever unit apmSummary uses', () => {
    expect(rate(0.025, { calls: 400, errors: 10 })).toMatchObject({ error_rate: 2.5 })
    expect(rate(2.5, { calls: 400, errors: 10 })).toMatchObject({ error_rate: 2.5 })
    expect(rate(0.025, { calls: 0, errors: 0 })).toMatchObject({ error_rate: 0 })
  })

  it('falls back to apmSummary.errorRate only without a timeslice row', () => {
    expect(rate(2.5, undefined)).toMatchObject({ error_rate: 2.5 })
  })
})

describe("application_summary over v2's window (issue 37, round five)", () => {
  // v2's summaries are "a rolling three- to four-minute average" (New Relic docs "Summary data
  // examples (v2)"); `apmSummary` averages over a window NerdGraph does not document, so the
  // figures come from the timeslices of the last three whole minutes, in the same request.
  const row = {
    calls: 300,
    time: 60,
    webCalls: 240,
    webTime: 36,
    errors: 6,
    as: 200,
    at: 30,
    af: 10,
  }
  const figures = (e: ApmApplication, r: Record<string, unknown>) =>
    toV2Application(e, undefined, browserSummaryFrom(r))['application_summary']

  it("takes a web application's figures from its web transactions of the window", () => {
    expect(figures(base, row)).toMatchObject({
      response_time: 150, // 36 s over 240 web calls
      throughput: 80, // 240 web calls in 3 minutes
      error_rate: 2, // 6 errors in 300 calls
      apdex_score: 0.9, // (200 + 30 / 2) / 240
      host_count: 2,
      instance_count: 3,
    })
  })

  it("takes a background application's figures from all its transactions of the window", () => {
    expect(figures(base, { ...row, webCalls: 0, webTime: 0 })).toMatchObject({
      response_time: 200, // 60 s over 300 calls
      throughput: 100,
      error_rate: 2,
    })
  })

  it('answers zeros for a reporting application idle in the window, not apmSummary', () => {
    expect(figures(base, {})).toMatchObject({
      response_time: 0,
      throughput: 0,
      error_rate: 0,
      apdex_score: 0,
    })
  })

  it('asks for the sums in the query that already covers the window', () => {
    const nrql = browserNrql({ guid: 'G' }, [0, 180_000])
    for (const alias of ['time', 'webCalls', 'webTime', 'as', 'at', 'af'])
      expect(nrql).toContain(`AS '${alias}'`)
    expect(nrql).toContain("'Errors/all', 'Apdex')")
    expect(nrql).toMatch(/SINCE 0 UNTIL 180000 LIMIT MAX$/)
  })
})

/** v2 summary objects (D-summary; v2 explorer models): apdex figures with 2 decimals,
 * concurrent_instance_count for background applications only. */
import { describe, expect, it } from 'vitest'
import type { ApmApplication } from '../../src/resources/applications/documents'
import { toV2Application } from '../../src/resources/applications/reshape'
import { browserSummaryFrom } from '../../src/resources/applications/browser'
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

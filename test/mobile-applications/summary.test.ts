import { describe, expect, it } from 'vitest'
import { toV2MobileApplication } from '../../src/resources/mobile-applications/mobile-applications'

/** The outline NerdGraph would give for the app of ambitioninc/newrelic-api
 * `newrelic_api/tests/mobile_applications_tests.py` (9,792 sessions, 7.27 calls each). */
const outline = {
  guid: btoa('1000001|MOBILE|APPLICATION|123456').replace(/=+$/, ''),
  name: 'SampleApp',
  reporting: true,
  alertSeverity: 'NOT_ALERTING',
  mobileSummary: {
    appLaunchCount: 9792,
    crashCount: 0,
    crashRate: 0,
    httpErrorRate: 1.2271918170353238,
    httpRequestCount: 71190,
    httpResponseTimeAverage: 0.42817,
    mobileSessionCount: 9792,
    networkFailureRate: 0.10091960945281904,
  },
}

describe('mobile_summary as v2 answered it', () => {
  it('gives the requests of the 30 minutes as throughput, 3 significant digits, rates unrounded', () => {
    // ambitioninc/newrelic-api newrelic_api/tests/mobile_applications_tests.py: "throughput": 71200,
    // "response_time": 0.428, "calls_per_session": 7.27, "failed_call_rate": 1.2271918170353238,
    // "remote_error_rate": 0.10091960945281904; v2 explorer mobile_applications.json
    // MobileSummaryDataResponse: throughput "Http requests in the last 30 minutes"
    const record = toV2MobileApplication(outline)
    expect(record['mobile_summary']).toEqual({
      active_users: 9792,
      launch_count: 9792,
      throughput: 71200,
      response_time: 0.428,
      calls_per_session: 7.27,
      failed_call_rate: 1.2271918170353238,
      remote_error_rate: 0.10091960945281904,
    })
    expect(JSON.stringify(record['mobile_summary'])).toContain('"throughput":71200,')
  })

  it('reads failed_call_rate from http errors and remote_error_rate from network failures', () => {
    // v2 explorer MobileSummaryDataResponse: failed_call_rate "Percentage of http errors in the
    // last 30 minutes", remote_error_rate "Percentage of network failures in the last 30 minutes";
    // NerdGraph MobileAppSummaryData: httpErrorRate "percentage of http errors", networkFailureRate
    // "percentage of network failures"
    const summary = { ...outline.mobileSummary, httpErrorRate: 3.5, networkFailureRate: 0.25 }
    const record = toV2MobileApplication({ ...outline, mobileSummary: summary })
    expect(record['mobile_summary']).toMatchObject({
      failed_call_rate: 3.5,
      remote_error_rate: 0.25,
    })
  })

  it('leaves out interaction_time and unresolved_crash_count, which NerdGraph does not give', () => {
    // v2 explorer MobileSummaryDataResponse.interaction_time and
    // CrashSummaryResponse.unresolved_crash_count; NerdGraph MobileAppSummaryData has neither (a
    // documented difference): absent, never null or a made-up 0.
    const record = toV2MobileApplication(outline)
    expect(record['mobile_summary']).not.toHaveProperty('interaction_time')
    expect(record['crash_summary']).not.toHaveProperty('unresolved_crash_count')
  })

  it('keeps the crash figures unrounded and gives no summary for an app that is not reporting', () => {
    // ambitioninc fixture and docs "Mobile crash count and crash rate example (v2)":
    // "crash_rate": 28.155339805825243
    const summary = { ...outline.mobileSummary, crashCount: 29, crashRate: 28.155339805825243 }
    expect(toV2MobileApplication({ ...outline, mobileSummary: summary })['crash_summary']).toEqual({
      supports_crash_data: true,
      crash_count: 29,
      crash_rate: 28.155339805825243,
    })
    expect(toV2MobileApplication({ ...outline, reporting: false })).toEqual({
      id: 123456,
      name: 'SampleApp',
      health_status: 'gray',
      reporting: false,
    })
  })
})

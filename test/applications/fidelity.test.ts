/** Issue 23, item 21: what v2 answers for `links.alert_policy` and `concurrent_instance_count`. */
import { describe, expect, it } from 'vitest'
import type { ApmApplication } from '../../src/resources/applications/documents'
import { toV2Application } from '../../src/resources/applications/reshape'
import { servedByAccount, servedSearchQuery } from '../../src/resources/applications/members'
import { harness } from '../helpers/harness'

const web: ApmApplication = {
  guid: 'G',
  name: 'Checkout',
  accountId: 1,
  applicationId: 7,
  language: 'java',
  reporting: true,
  alertSeverity: 'NOT_ALERTING',
  apmSummary: {
    apdexScore: 0.9,
    errorRate: 0,
    hostCount: 1,
    instanceCount: 2,
    responseTimeAverage: 0.1,
    throughput: 30,
    webThroughput: 25,
    nonWebThroughput: 5,
  },
  apmBrowserSummary: null,
  settings: { apdexTarget: 0.5, serverSideConfig: false },
}

describe('application records (issue 23, item 21)', () => {
  // v2 explorer applications.json, ApplicationSummaryResponse: "Number of concurrent application
  // instances for background applications"; an application with web transactions has none.
  // newrelic-client-go pkg/apm/applications_test.go shows it on a web application (issue 37 item 3).
  it('gives concurrent_instance_count to web and background applications', () => {
    const summary = (e: ApmApplication) =>
      toV2Application(e)['application_summary'] as Record<string, unknown>
    expect(summary(web)['concurrent_instance_count']).toBe(2)
    const worker = { ...web, apmSummary: { ...web.apmSummary!, webThroughput: 0 } }
    expect(summary(worker)['concurrent_instance_count']).toBe(2)
  })

  // v2 explorer applications.json, ApplicationLinksResponse.alert_policy: "Alert policy in which this
  // application is a member" — a legacy alert policy (D-health); those are retired, and v2 answers
  // their path, GET /v2/alert_policies.json, with 410 (the operations table). No application can
  // be a member of one, so v2 lists the other three links, in D-health's order without it.
  it('lists application_instances, servers and application_hosts, with no alert_policy', async () => {
    expect(Object.keys(toV2Application(web)['links'] as object)).toEqual([
      'application_instances',
      'servers',
      'application_hosts',
    ])
    const h = harness()
    expect((await h.get('/v2/alert_policies.json')).status).toBe(410)
    const body = (await (await h.get('/v2/applications/9045822.json')).json()) as {
      application: { links: Record<string, unknown> }
    }
    expect(Object.keys(body.application.links)).toEqual([
      'application_instances',
      'servers',
      'application_hosts',
    ])
  })
})

describe('application settings without browser data', () => {
  // v2 explorer applications.json AppSettingsResponse: `enable_real_user_monitoring` "Whether end
  // user monitoring is enabled", `end_user_apdex_threshold` "End user Apdex threshold": settings,
  // which the gray app of the contract's §2.1 example keeps (`enable_real_user_monitoring: true`).
  const stopped: ApmApplication = { ...web, reporting: false, apmSummary: null }
  const settings = (e: ApmApplication, served?: { apdexT: number | undefined }) =>
    toV2Application(e, undefined, undefined, served)['settings']

  it('takes them from the browser application a non-reporting application serves', () => {
    expect(settings(stopped, { apdexT: 5 })).toMatchObject({
      enable_real_user_monitoring: true,
      end_user_apdex_threshold: 5,
    })
    expect(settings(stopped)).toMatchObject({
      enable_real_user_monitoring: false,
      end_user_apdex_threshold: 7,
    })
  })

  it('keeps browser data as the sign of RUM for a reporting application (a PUT may turn it off)', () => {
    expect(settings(web, { apdexT: 5 })).toMatchObject({
      enable_real_user_monitoring: false,
      end_user_apdex_threshold: 5,
    })
  })

  it('finds the browser applications that do not report, per account and application served', () => {
    expect(servedSearchQuery([1, 2])).toBe(
      "domain = 'BROWSER' AND type = 'APPLICATION' AND accountId IN ('1', '2') AND reporting = 'false'"
    )
    const served = servedByAccount([
      { accountId: 1, servingApmApplicationId: 7, settings: { apdexTarget: 5 } },
      { accountId: 1, servingApmApplicationId: null, settings: { apdexTarget: 3 } }, // a Lite app
      { accountId: 2, servingApmApplicationId: 8, settings: null },
    ])
    expect([...served.get(1)!]).toEqual([[7, { apdexT: 5 }]])
    expect([...served.get(2)!]).toEqual([[8, { apdexT: undefined }]])
  })
})

/** Issues 23 (item 21) and 37: what v2 answers for `links.alert_policy` and `concurrent_instance_count`. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ApmApplication } from '../../src/resources/applications/documents'
import { toV2Application } from '../../src/resources/applications/reshape'
import { servedByAccount, servedSearchQuery } from '../../src/resources/applications/members'
import { DEMO_KEYS, harness } from '../helpers/harness'
import {
  alertPolicies,
  alertPolicyOf,
  conditionsFrom,
  namedTargets,
  policyOf,
} from '../../src/resources/applications/alert-policy'

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
})

describe('links.alert_policy (issue 37)', () => {
  // v2 explorer applications.json, ApplicationLinksResponse.alert_policy: "Alert policy in which this
  // application is a member"; D-health's example shows it between application_instances and servers,
  // newrelic-client-go's fixture (pkg/apm/applications_test.go) on a 2019 application. The policy
  // whose conditions target the application: NRQL conditions name it in their WHERE clause.
  const c = (id: number, policyId: number, query: string) => ({ id, policyId, query })
  const checkout = { applicationId: 7, name: "Joe's Checkout", guid: 'MXxBUE18QVBQTElDQVRJT058Nw' }

  it('reads the applications a condition names by appName, appId or entity.guid', () => {
    const t = namedTargets(
      "SELECT count(*) FROM Transaction WHERE appName IN ('a', 'Joe\\'s Checkout') AND appId = 7 " +
        "AND entity.guid = 'G' AND appName != 'x' AND appId NOT IN (8)"
    )
    expect([...t]).toEqual([
      ['appname', new Set(['a', "Joe's Checkout"])],
      ['appid', new Set(['7'])],
      ['entity.guid', new Set(['G'])],
    ])
  })

  it('is the policy of the oldest condition that names the application, else absent', () => {
    const account = c(1, 10, 'SELECT count(*) FROM TransactionError')
    const byName = c(
      5,
      20,
      "SELECT average(duration) FROM Transaction WHERE appName = 'Joe\\'s Checkout'"
    )
    const byId = c(3, 30, 'SELECT count(*) FROM Transaction WHERE appId IN (6, 7)')
    const other = c(2, 40, "SELECT count(*) FROM Transaction WHERE appName != 'Joe\\'s Checkout'")
    expect(alertPolicyOf([account, byName, other], checkout)).toBe(20)
    expect(alertPolicyOf([byName, byId], checkout)).toBe(30)
    expect(alertPolicyOf([account, other], checkout)).toBeUndefined()
    expect(
      conditionsFrom({
        nrqlConditionsSearch: {
          nextCursor: null,
          nrqlConditions: [
            { id: '3', policyId: '30', nrql: { query: 'SELECT 1 FROM T' } },
            { id: 'x', policyId: '1', nrql: null },
          ],
        },
      })
    ).toEqual([{ id: 3, policyId: 30, query: 'SELECT 1 FROM T' }])
  })

  it('looks each application of a page up in one index of the conditions, as reading them in order would', () => {
    // The definition the index stands for: the oldest condition whose WHERE clause names the app.
    const byReading = (
      conditions: { id: number; policyId: number; query: string }[],
      app: typeof checkout
    ) =>
      [...conditions]
        .sort((a, b) => a.id - b.id)
        .find((c) => {
          const t = namedTargets(c.query)
          return (
            t.get('appname')?.has(app.name) ||
            t.get('appid')?.has(String(app.applicationId)) ||
            t.get('entity.guid')?.has(app.guid)
          )
        })?.policyId
    const apps = [1, 2, 3].map((n) => ({ applicationId: n, name: `App ${n}`, guid: `G${n}` }))
    const naming = fc.constantFrom(
      ...apps.flatMap((a) => [
        `appName = '${a.name}'`,
        `appId = ${a.applicationId}`,
        `entity.guid = '${a.guid}'`,
        `appName != '${a.name}'`,
        `appId IN (${a.applicationId}, 9)`,
        `appId NOT IN (${a.applicationId})`,
      ])
    )
    const condition = fc.record({
      id: fc.integer({ min: 1, max: 40 }),
      policyId: fc.integer({ min: 100, max: 110 }),
      query: fc
        .array(naming, { maxLength: 3 })
        .map(
          (w) => `SELECT count(*) FROM Transaction${w.length ? ` WHERE ${w.join(' AND ')}` : ''}`
        ),
    })
    fc.assert(
      fc.property(
        fc.uniqueArray(condition, { selector: (c) => c.id, maxLength: 8 }),
        (conditions) => {
          const index = alertPolicies(conditions)
          for (const app of apps) expect(policyOf(index, app)).toBe(byReading(conditions, app))
        }
      ),
      { numRuns: 500 }
    )
  })

  it('sits between application_instances and servers, only when a policy targets the app', () => {
    const links = (policy?: number) =>
      Object.keys(toV2Application(web, undefined, undefined, undefined, policy)['links'] as object)
    expect(links(5)).toEqual([
      'application_instances',
      'alert_policy',
      'servers',
      'application_hosts',
    ])
    expect(links()).toEqual(['application_instances', 'servers', 'application_hosts'])
  })

  // The simulator's condition 7101201 ("Checkout Apdex", policy 5101102) names Checkout Service
  // (java); no condition names the Inventory API. The stand-in reads the conditions' own targets.
  it('answers it on show and list, JSON and XML, as the v2 stand-in, in one NerdGraph request', async () => {
    const h = harness()
    const policyOf = async (path: string, key: 'application' | 'applications') => {
      const body = (await (await h.get(path)).json()) as Record<string, unknown>
      const item = (key === 'application' ? body[key] : (body[key] as unknown[])[0]) as {
        links: Record<string, unknown>
      }
      return item.links['alert_policy']
    }
    const before = h.sim.stats().graphqlRequests
    expect(await policyOf('/v2/applications/9045822.json', 'application')).toBe(5101102)
    expect(h.sim.stats().graphqlRequests - before).toBe(2) // the ID's lookup, then the show
    expect(await policyOf('/v2/applications.json?filter[ids]=9045822', 'applications')).toBe(
      5101102
    )
    expect(await policyOf('/v2/applications/9045837.json', 'application')).toBeUndefined()
    const xml = await (await h.get('/v2/applications/9045822.xml')).text()
    expect(xml).toMatch(
      /<\/application_instances>\s*<alert_policy>5101102<\/alert_policy>\s*<servers\/>/
    )
    const standIn = await h.sim.fetch(
      new Request('http://sim.test/v2/applications/9045822.json', {
        headers: { 'X-Api-Key': DEMO_KEYS.all },
      })
    )
    const links = ((await standIn.json()) as { application: { links: object } }).application.links
    expect(
      Object.entries(links)
        .slice(0, 3)
        .map(([k, v]) => (k === 'alert_policy' ? v : k))
    ).toEqual(['application_instances', 5101102, 'servers'])
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

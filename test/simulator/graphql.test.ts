import { describe, expect, it } from 'vitest'
import { ACCESS_DENIED, createSimulator, DEMO_KEYS } from '../../simulator'
import { at, fixedSimulator, gql, MINUTE, NOW, post } from './graphql-client'

const sim = fixedSimulator()
const guidOf = (appId: number) => sim.dataset.application(appId)!.guid
const ENTITY = `guid name accountId domain type entityType reporting alertSeverity permalink lastReportingChangeAt
  tags { key values }
  ... on ApmApplicationEntity {
    applicationId language
    apmSummary { apdexScore errorRate hostCount instanceCount responseTimeAverage throughput
      webResponseTimeAverage webThroughput nonWebResponseTimeAverage nonWebThroughput }
    apmBrowserSummary { ajaxRequestThroughput ajaxResponseTimeAverage jsErrorRate pageLoadThroughput pageLoadTimeAverage }
    settings { apdexTarget serverSideConfig }
    apmSettings { alias originalName apmConfig { apdexTarget useServerSideConfig } }
    runningAgentVersions { minVersion maxVersion }
  }`

describe('POST /graphql: keys', () => {
  it('answers 401 BAD_API_KEY for a missing or unknown key', async () => {
    for (const key of [null, 'NRAK-NOTAKEY']) {
      const response = await post(sim, '{ actor { accounts { id } } }', {}, key)
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({
        errors: [
          {
            extensions: { error_code: 'BAD_API_KEY' },
            message: 'Bad API Key or no API Key provided',
          },
        ],
      })
    }
  })

  it('reads the API-Key header case-insensitively', async () => {
    const response = await sim.fetch(
      new Request('http://simulator.test/graphql', {
        method: 'POST',
        headers: { 'api-key': DEMO_KEYS.one, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ actor { accounts { id name } } }' }),
      })
    )
    expect(await response.json()).toEqual({
      data: { actor: { accounts: [{ id: 1000002, name: 'Demo Staging' }] } },
    })
  })

  it('lists the accounts each key can see and masks the key in requestContext', async () => {
    const { body } = await gql(
      sim,
      '{ actor { user { id email name } accounts { id name } } requestContext { userId apiKey } }'
    )
    expect(at(body.data, 'actor', 'accounts')).toEqual([
      { id: 1000001, name: 'Demo Production' },
      { id: 1000002, name: 'Demo Staging' },
    ])
    const apiKey = String(at(body.data, 'requestContext', 'apiKey'))
    expect(apiKey).not.toContain(DEMO_KEYS.all)
    expect(apiKey.startsWith('NRAK-DEMO…')).toBe(true)
    expect(at(body.data, 'requestContext', 'userId')).toBe(
      String(at(body.data, 'actor', 'user', 'id'))
    )
  })

  it('refuses NRQL on an account the key cannot see with "Access denied." and no class, as live', async () => {
    // terraform-provider-newrelic issues #755 ("Access Denied., null") and #833 ("Access denied.")
    const query =
      '{ actor { account(id: 1000001) { nrql(query: "SELECT count(*) FROM Metric") { results } } } }'
    const { status, body } = await gql(sim, query, {}, DEMO_KEYS.one)
    expect(status).toBe(200)
    expect(body.data).toEqual({ actor: { account: null } })
    expect(body.errors).toEqual([
      { message: 'Access denied.', path: ['actor', 'account'], locations: expect.any(Array) },
    ])
    expect(ACCESS_DENIED).toBe('Access denied.')
    // The lenient switch forbiddenErrorClass brings back the FORBIDDEN class the simulator used before.
    const lenient = createSimulator({ now: () => NOW, access: { forbiddenErrorClass: true } })
    const old = await gql(lenient, query, {}, DEMO_KEYS.one)
    expect(old.body.errors?.[0]).toMatchObject({
      path: ['actor', 'account'],
      extensions: { errorClass: 'FORBIDDEN' },
    })
  })
})

describe('actor.entity / actor.entities', () => {
  it('returns an APM application with its settings and summaries', async () => {
    const { body } = await gql(
      sim,
      `query($g: EntityGuid!) { actor { entity(guid: $g) { ${ENTITY} } } }`,
      {
        g: guidOf(9045822),
      }
    )
    expect(body.errors).toBeUndefined()
    expect(at(body.data, 'actor', 'entity')).toMatchObject({
      name: 'Checkout Service (java)',
      accountId: 1000001,
      domain: 'APM',
      type: 'APPLICATION',
      entityType: 'APM_APPLICATION_ENTITY',
      reporting: true,
      alertSeverity: 'CRITICAL',
      applicationId: 9045822,
      language: 'java',
      settings: { apdexTarget: 0.5 },
      apmSettings: { originalName: 'Checkout Service (java)', apmConfig: { apdexTarget: 0.5 } },
      apmSummary: { hostCount: 3, instanceCount: 7 },
    })
    expect(
      at(body.data, 'actor', 'entity', 'apmBrowserSummary', 'pageLoadThroughput')
    ).toBeGreaterThan(0)
  })

  it('returns null summaries for a stopped app and no browser summary without browser', async () => {
    const { body } = await gql(
      sim,
      `query($g: EntityGuid!) { actor { entity(guid: $g) { ${ENTITY} } } }`,
      {
        g: guidOf(9045874),
      }
    )
    const entity = at(body.data, 'actor', 'entity')
    expect(entity).toMatchObject({ reporting: false, apmSummary: null, apmBrowserSummary: null })
    expect(at(entity, 'lastReportingChangeAt')).toBe(sim.dataset.application(9045874)!.stoppedAt)
  })

  it('returns null for unknown GUIDs and for GUIDs the key cannot see', async () => {
    const query = 'query($g: EntityGuid!) { actor { entity(guid: $g) { guid } } }'
    for (const [g, key] of [
      [btoa('1000001|APM|APPLICATION|1'), DEMO_KEYS.all],
      ['not-a-guid', DEMO_KEYS.all],
      [guidOf(9045822), DEMO_KEYS.one],
    ] as const) {
      const { body } = await gql(sim, query, { g }, key)
      expect(body).toEqual({ data: { actor: { entity: null } } })
    }
  })

  it('returns only the visible, known entities of a batch', async () => {
    const guids = [guidOf(9045822), guidOf(9702201), btoa('1000002|APM|APPLICATION|5')]
    const { body } = await gql(
      sim,
      'query($g: [EntityGuid]!) { actor { entities(guids: $g) { guid } } }',
      { g: guids },
      DEMO_KEYS.one
    )
    expect(at(body.data, 'actor', 'entities')).toEqual([{ guid: guidOf(9702201) }])
  })

  it('rejects more than 25 GUIDs with an error and null for that field', async () => {
    const guids = sim.dataset
      .applications(1000001)
      .slice(0, 26)
      .map((a) => a.guid)
    const query = 'query($g: [EntityGuid]!) { actor { entities(guids: $g) { guid } user { id } } }'
    const { body } = await gql(sim, query, { g: guids })
    expect(at(body.data, 'actor', 'entities')).toBeNull()
    expect(at(body.data, 'actor', 'user', 'id')).toBe(4100001)
    expect(body.errors?.[0]?.message).toBe('Too many guids, max 25')
    const ok = await gql(sim, query, { g: guids.slice(0, 25) })
    expect(at(ok.body.data, 'actor', 'entities')).toHaveLength(25)
  })
})

describe('apmSummary', () => {
  it('matches the app timeslices of the last 3 complete minutes', async () => {
    const app = sim.dataset.application(9045837)!
    const { body } = await gql(
      sim,
      `query($g: EntityGuid!) { actor { entity(guid: $g) { ${ENTITY} } } }`,
      { g: app.guid }
    )
    const summary = at(body.data, 'actor', 'entity', 'apmSummary') as Record<string, number>
    const end = Math.floor(NOW / MINUTE) * MINUTE
    const rows = (name: string) =>
      sim.dataset.timeslices({ appId: app.id, name, from: end - 3 * MINUTE, to: end })
    const total = (name: string, k: 'count' | 'total' | 'totalExclusive') =>
      rows(name).reduce((s, r) => s + r.value[k], 0)
    const web = total('HttpDispatcher', 'count')
    const other = total('OtherTransaction/all', 'count')
    expect(summary.webThroughput).toBeCloseTo(web / 3, 9)
    expect(summary.nonWebThroughput).toBeCloseTo(other / 3, 9)
    expect(summary.throughput).toBeCloseTo((web + other) / 3, 9)
    expect(summary.webResponseTimeAverage).toBeCloseTo(total('HttpDispatcher', 'total') / web, 9)
    expect(summary.responseTimeAverage).toBeCloseTo(
      (total('HttpDispatcher', 'total') + total('OtherTransaction/all', 'total')) / (web + other),
      9
    )
    expect(summary.errorRate).toBeCloseTo((100 * total('Errors/all', 'count')) / (web + other), 9)
    const [s, t, f] = [
      total('Apdex', 'count'),
      total('Apdex', 'total'),
      total('Apdex', 'totalExclusive'),
    ]
    expect(summary.apdexScore).toBeCloseTo((s + t / 2) / (s + t + f), 9)
    expect(summary.hostCount).toBe(3)
  })
})

describe('applicationInstances', () => {
  const query = `query($g: EntityGuid!, $c: String, $s: EpochMilliseconds, $e: EpochMilliseconds, $h: String) { actor { entity(guid: $g) {
    ... on ApmApplicationEntity {
      applicationInstancesV2(cursor: $c) { nextCursor applicationInstances { details { id host hostDisplayName instanceName language name } } }
      applicationInstances(startTime: $s, endTime: $e, host: $h) { details { instanceName } }
    } } } }`

  it('pages applicationInstancesV2 with cursors and lists every instance once', async () => {
    const app = sim.dataset.application(9045893)!
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const { body } = await gql(sim, query, { g: app.guid, c: cursor })
      const page = at(body.data, 'actor', 'entity', 'applicationInstancesV2') as {
        nextCursor: string | null
        applicationInstances: { details: { id: string; language: string; name: string } }[]
      }
      for (const { details } of page.applicationInstances) {
        expect(details).toMatchObject({ language: 'dotnet', name: app.name })
        seen.push(details.id)
      }
      cursor = page.nextCursor
    } while (cursor)
    expect(seen.sort()).toEqual(app.instances.map((i) => i.id).sort())
  })

  it('filters applicationInstances by host and by reporting window', async () => {
    const app = sim.dataset.application(9045837)!
    const late = app.instances.find((i) => i.activeFrom !== null)!
    const byHost = await gql(sim, query, { g: app.guid, h: late.host })
    expect(at(byHost.body.data, 'actor', 'entity', 'applicationInstances')).toEqual([
      { details: { instanceName: late.instanceName } },
    ])
    const before = await gql(sim, query, {
      g: app.guid,
      s: late.activeFrom! - 60 * MINUTE,
      e: late.activeFrom! - MINUTE,
    })
    expect(at(before.body.data, 'actor', 'entity', 'applicationInstances')).toHaveLength(
      app.instances.length - 1
    )
  })
})

describe('GraphQL request errors', () => {
  it('answers 400 for a body that is not JSON', async () => {
    const response = await sim.fetch(
      new Request('http://simulator.test/graphql', {
        method: 'POST',
        headers: { 'API-Key': DEMO_KEYS.all },
        body: '{',
      })
    )
    expect(response.status).toBe(400)
  })

  it('reports a field outside the subset as a validation error', async () => {
    const { status, body } = await gql(sim, '{ actor { dashboard { id } } }')
    expect(status).toBe(200)
    expect(body.errors?.[0]?.message).toMatch(/dashboard/)
  })
})

describe('account.alerts.nrqlConditionsSearch', () => {
  // schema AlertsAccountStitchedFields.nrqlConditionsSearch: the account's NRQL conditions with
  // their query and policy, narrowed by AlertsNrqlConditionsSearchCriteriaInput.
  const query = `query($a: Int!, $c: AlertsNrqlConditionsSearchCriteriaInput) { actor { account(id: $a) {
    alerts { nrqlConditionsSearch(searchCriteria: $c) {
      totalCount nextCursor nrqlConditions { __typename id policyId nrql { query } } } } } } }`
  const search = async (c?: Record<string, unknown>) => {
    const { body } = await gql(fixedSimulator(), query, { a: 1000001, ...(c ? { c } : {}) })
    return at(body.data, 'actor', 'account', 'alerts', 'nrqlConditionsSearch') as {
      totalCount: number
      nrqlConditions: { __typename: string; id: string; policyId: string }[]
    }
  }

  it("lists the account's conditions by ID, each with its policy", async () => {
    const all = await search()
    expect(all.totalCount).toBe(4)
    expect(all.nrqlConditions.map((c) => [c.id, c.policyId])).toEqual([
      ['7101101', '5101101'],
      ['7101102', '5101101'],
      ['7101201', '5101102'],
      ['7101301', '5101103'],
    ])
    expect(all.nrqlConditions[0]!.__typename).toBe('AlertsNrqlStaticCondition')
  })

  it('narrows by policy and by a part of the query', async () => {
    expect((await search({ policyId: '5101101' })).totalCount).toBe(2)
    const named = await search({ queryLike: 'checkout service' })
    expect(named.nrqlConditions.map((c) => c.id)).toEqual(['7101201'])
  })
})

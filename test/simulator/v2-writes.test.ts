/**
 * The v2 stand-in's writes (simulator/v2/app-writes.ts, servers.ts, label-writes.ts,
 * alerts-writes.ts): every write v2bridge serves, answered as v2 answers it and applied where the
 * simulated NerdGraph sees it, so compare mode's `v2` setting (writes go to v2 only) works against
 * the stand-in. Each case checks the answer, a stand-in read and a NerdGraph read afterwards, and
 * v2's errors. Sources are named beside each expectation: the v2 API explorer (its operations'
 * errorResponses), the contract's v2-more-endpoints proposals, and the newrelic-client-go fixtures
 * (pkg/apm applications_test.go, deployments_test.go, labels_test.go; pkg/alerts channels_test.go,
 * policy_channels_test.go, incidents.go).
 */
import { describe, expect, it } from 'vitest'
import { alertsOf, apmGuid, DEMO_KEYS, STAGING_APPS, type Simulator } from '../../simulator'
import { entityGuid } from '../../simulator/data/resources/catalog'
import { v2IncidentId } from '../../simulator/v2/alerts'
import { at, fixedSimulator, writesShowAtOnce, gql, NOW } from './graphql-client'

const PROD = 1000001
const CHECKOUT = 9045822 // java, CRITICAL, reporting
const STOREFRONT = 9045837 // WARNING, reporting
const INVENTORY = 9045874 // not reporting
const DAY = 86_400_000
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00')

type Row = Record<string, unknown>
type Answer = { status: number; type: string | null; text: string; json: unknown }

async function v2(
  sim: Simulator,
  method: string,
  path: string,
  body?: string | object,
  key: string = DEMO_KEYS.all
): Promise<Answer> {
  const headers: Record<string, string> = { 'X-Api-Key': key }
  let text: string | undefined
  if (body !== undefined) {
    text = typeof body === 'string' ? body : JSON.stringify(body)
    headers['Content-Type'] =
      typeof body !== 'string'
        ? 'application/json'
        : body.startsWith('<')
          ? 'application/xml'
          : 'application/x-www-form-urlencoded'
  }
  const res = await sim.fetch(
    new Request(`http://sim.test${path}`, { method, headers, ...(text ? { body: text } : {}) })
  )
  const out = await res.text()
  const type = res.headers.get('content-type')
  return {
    status: res.status,
    type,
    text: out,
    json: type?.includes('json') ? JSON.parse(out) : undefined,
  }
}

const error = (title: string, messages?: string[]) => ({
  error: { title, ...(messages ? { messages } : {}) },
})

const entity = async (sim: Simulator, guid: string, fields: string) =>
  at(
    (await gql(sim, `{ actor { entity(guid: "${guid}") { ${fields} } } }`)).body,
    'data',
    'actor',
    'entity'
  )

describe('PUT /v2/applications/{id} on the stand-in', () => {
  it('renames and sets the settings, answers 200 with the application, and NerdGraph shows them', async () => {
    const sim = fixedSimulator(undefined, writesShowAtOnce)
    // Body: docs-website change-alias-your-application-v2.mdx (all three settings sent); 200 with
    // `{"application"}`: client-go TestUpdateApplication.
    const res = await v2(sim, 'PUT', `/v2/applications/${CHECKOUT}.json`, {
      application: {
        name: 'Checkout Service v2',
        settings: {
          app_apdex_threshold: 0.8,
          end_user_apdex_threshold: 3,
          enable_real_user_monitoring: true,
        },
      },
    })
    expect(res.status).toBe(200)
    expect(at(res.json, 'application')).toMatchObject({
      id: CHECKOUT,
      name: 'Checkout Service v2',
      settings: {
        app_apdex_threshold: 0.8,
        end_user_apdex_threshold: 3,
        enable_real_user_monitoring: true,
        use_server_side_config: true,
      },
    })
    expect(at(res.json, 'application', 'application_summary', 'apdex_target')).toBe(0.8)
    expect(at(res.json, 'application', 'end_user_summary', 'apdex_target')).toBe(3)
    expect(at(res.json, 'links', 'application.servers')).toBe('/v2/servers?ids={server_ids}')
    const shown = await v2(sim, 'GET', `/v2/applications/${CHECKOUT}.json`)
    expect(shown.json).toEqual(res.json)
    const ng = await entity(
      sim,
      apmGuid(PROD, CHECKOUT),
      'name ... on ApmApplicationEntity { settings { apdexTarget } apmBrowserSummary { pageLoadThroughput } }'
    )
    expect(ng).toMatchObject({ name: 'Checkout Service v2', settings: { apdexTarget: 0.8 } })
    expect(at(ng, 'apmBrowserSummary')).not.toBeNull()
    // NerdGraph's entity shows no browser Apdex T: the dataset's, which its settings mutation reads
    expect(sim.dataset.application(CHECKOUT)).toMatchObject({ apdexT: 0.8, browserApdexT: 3 })
  })

  it('turns real user monitoring off from a form body, and from an XML body as v2 took it', async () => {
    const sim = fixedSimulator(undefined, writesShowAtOnce)
    const form = await v2(
      sim,
      'PUT',
      `/v2/applications/${CHECKOUT}.json`,
      'application[settings][enable_real_user_monitoring]=false'
    )
    expect(form.status).toBe(200)
    expect(at(form.json, 'application', 'settings', 'enable_real_user_monitoring')).toBe(false)
    expect(at(form.json, 'application')).not.toHaveProperty('end_user_summary')
    expect(
      await entity(
        sim,
        apmGuid(PROD, CHECKOUT),
        '... on ApmApplicationEntity { apmBrowserSummary { pageLoadThroughput } }'
      )
    ).toEqual({ apmBrowserSummary: null })
    // v2 explorer applications PUT notes: "The input is expected to be in JSON or XML format"
    const xml = await v2(
      sim,
      'PUT',
      `/v2/applications/${CHECKOUT}.xml`,
      '<?xml version="1.0" encoding="UTF-8"?>\n<application><name>Checkout &amp; Co</name>' +
        '<settings><app-apdex-threshold>0.25</app-apdex-threshold></settings></application>'
    )
    expect(xml.status).toBe(200)
    expect(xml.type).toBe('application/xml')
    expect(xml.text).toContain('<application_response>\n  <application>\n    <id>9045822</id>')
    expect(xml.text).toContain('<name>Checkout &amp; Co</name>')
    expect(xml.text).toContain('<app_apdex_threshold>0.25</app_apdex_threshold>')
    expect(sim.dataset.application(CHECKOUT)).toMatchObject({ name: 'Checkout & Co', apdexT: 0.25 })
  })

  it("answers v2's 404, 400 and 422 and changes nothing", async () => {
    const sim = fixedSimulator()
    const path = `/v2/applications/${CHECKOUT}.json`
    // v2 explorer applications PUT errorResponses: 404 and 422 titles
    expect(
      (await v2(sim, 'PUT', '/v2/applications/1.json', { application: { name: 'x' } })).json
    ).toEqual(error('No Application found with the given ID'))
    const other = await v2(sim, 'PUT', `/v2/applications/${STAGING_APPS[0]!.id}.json`, {
      application: { name: 'x' },
    })
    expect(other.status).toBe(404) // a key acts for its home account (production)
    const missing = await v2(sim, 'PUT', path, {})
    expect([missing.status, missing.json]).toEqual([400, error('missing parameter: application')])
    const invalid = await v2(sim, 'PUT', path, {
      application: {
        name: ' ',
        settings: { app_apdex_threshold: -1, enable_real_user_monitoring: 'maybe' },
      },
    })
    expect(invalid.status).toBe(422)
    expect(invalid.json).toEqual(
      error('Validation error occurred when updating the application', [
        "Name can't be blank",
        'App apdex threshold must be greater than 0',
        'Enable real user monitoring must be true or false',
      ])
    )
    expect(sim.dataset.application(CHECKOUT)).toMatchObject({
      name: 'Checkout Service (java)',
      apdexT: 0.5,
    })
  })
})

describe('DELETE /v2/applications/{id} on the stand-in', () => {
  it('deletes an application that stopped reporting: 200 with it, gone from v2 and NerdGraph', async () => {
    const sim = fixedSimulator()
    const before = await v2(sim, 'GET', `/v2/applications/${INVENTORY}.json`)
    const res = await v2(sim, 'DELETE', `/v2/applications/${INVENTORY}.json`)
    expect(res.status).toBe(200) // client-go TestDeleteApplication: `{"application"}` as shown
    expect(res.json).toEqual(before.json)
    expect(at(res.json, 'application')).toMatchObject({
      id: INVENTORY,
      reporting: false,
      health_status: 'gray',
    })
    expect((await v2(sim, 'GET', `/v2/applications/${INVENTORY}.json`)).status).toBe(404)
    const list = await v2(sim, 'GET', '/v2/applications.json?filter[ids]=9045874')
    expect(at(list.json, 'applications')).toEqual([])
    expect(await entity(sim, apmGuid(PROD, INVENTORY), 'name')).toBeNull()
    const again = await v2(sim, 'DELETE', `/v2/applications/${INVENTORY}.json`)
    expect([again.status, again.json]).toEqual([
      404,
      error('No Application found with the given ID'),
    ])
  })

  it('answers 409 for an application still reporting and keeps it', async () => {
    const sim = fixedSimulator()
    const res = await v2(sim, 'DELETE', `/v2/applications/${CHECKOUT}.json`)
    // v2 explorer applications DELETE errorResponses
    expect([res.status, res.json]).toEqual([
      409,
      error('Cannot delete an application that is still reporting data.'),
    ])
    expect(await entity(sim, apmGuid(PROD, CHECKOUT), 'name')).toEqual({
      name: 'Checkout Service (java)',
    })
  })
})

describe('DELETE /v2/applications/{application_id}/deployments/{id} on the stand-in', () => {
  const listed = async (sim: Simulator) =>
    at(
      (await v2(sim, 'GET', `/v2/applications/${CHECKOUT}/deployments.json`)).json,
      'deployments'
    ) as Row[]
  const search = `query($g: EntityGuid!, $f: ChangeTrackingSearchFilter) { actor { entity(guid: $g) {
    ... on ApmApplicationEntity { deploymentSearch(filter: $f) { results { timestamp version } } } } } }`
  const ngTimes = async (sim: Simulator) =>
    (
      at(
        (
          await gql(sim, search, {
            g: apmGuid(PROD, CHECKOUT),
            f: { timeWindow: { startTime: NOW - 30 * DAY, endTime: NOW } },
          })
        ).body,
        'data',
        'actor',
        'entity',
        'deploymentSearch',
        'results'
      ) as { timestamp: number }[]
    ).map((d) => iso(d.timestamp))

  it('answers 200 with the deployment removed, which neither list shows any more', async () => {
    const sim = fixedSimulator()
    const [first, ...rest] = await listed(sim)
    if (!first) throw new Error('the seed has deployments')
    expect(await ngTimes(sim)).toContain(first['timestamp'])
    const res = await v2(
      sim,
      'DELETE',
      `/v2/applications/${CHECKOUT}/deployments/${String(first['id'])}.json`
    )
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ deployment: first }) // client-go TestDeleteDeployment
    expect(await listed(sim)).toEqual(rest)
    expect(await ngTimes(sim)).toEqual(rest.map((d) => d['timestamp']))
  })

  it('answers 404 for an unknown deployment or application', async () => {
    const sim = fixedSimulator()
    const res = await v2(sim, 'DELETE', `/v2/applications/${CHECKOUT}/deployments/1.json`)
    // v2 explorer application_deployments DELETE errorResponses
    expect([res.status, res.json]).toEqual([404, error('No Deployment found with the given ID')])
    const app = await v2(sim, 'DELETE', '/v2/applications/1/deployments/1.json')
    expect(app.json).toEqual(error('No Application found with the given ID'))
  })
})

describe('POST /v2/browser_applications and /v2/mobile_applications on the stand-in', () => {
  it('creates a browser application: 201 with it as the list shows it, and its NerdGraph entity', async () => {
    const sim = fixedSimulator()
    // docs-website add-or-list-browser-apps-api-v2.mdx: body and answer keys; 201 (contract proposal)
    const res = await v2(sim, 'POST', '/v2/browser_applications.json', {
      browser_application: { name: 'Docs Site' },
    })
    expect(res.status).toBe(201)
    const created = at(res.json, 'browser_application') as Row
    expect(Object.keys(created)).toEqual(['id', 'name', 'browser_monitoring_key', 'loader_script'])
    expect(created['name']).toBe('Docs Site')
    expect(created['loader_script']).toContain(
      `licenseKey:"${String(created['browser_monitoring_key'])}"`
    )
    const list = await v2(
      sim,
      'GET',
      `/v2/browser_applications.json?filter[ids]=${String(created['id'])}`
    )
    expect(at(list.json, 'browser_applications')).toEqual([created])
    const ng = await entity(
      sim,
      entityGuid(PROD, 'BROWSER', 'APPLICATION', created['id'] as number),
      'name ... on BrowserApplicationEntity { browserProperties { jsLoaderScript } }'
    )
    expect(ng).toEqual({
      name: 'Docs Site',
      browserProperties: { jsLoaderScript: created['loader_script'] },
    })
  })

  it('creates a mobile application from either wrapper: 201 `{"application"}`, not reporting', async () => {
    const sim = fixedSimulator()
    // contract v2-more-endpoints §7 proposal: `mobile_application` or `application`, 201
    const res = await v2(
      sim,
      'POST',
      '/v2/mobile_applications.json',
      'mobile_application[name]=Phone+App'
    )
    expect(res.status).toBe(201)
    const app = at(res.json, 'application') as Row
    expect(Object.keys(app)).toEqual(['id', 'name', 'application_token'])
    expect(app).toMatchObject({
      name: 'Phone App',
      application_token: expect.stringMatching(/-NRMA$/),
    })
    const shown = await v2(sim, 'GET', `/v2/mobile_applications/${String(app['id'])}.json`)
    expect(shown.json).toEqual({
      application: { id: app['id'], name: 'Phone App', health_status: 'gray', reporting: false },
    })
    expect(
      await entity(sim, entityGuid(PROD, 'MOBILE', 'APPLICATION', app['id'] as number), 'name')
    ).toEqual({
      name: 'Phone App',
    })
    const other = await v2(sim, 'POST', '/v2/mobile_applications.json', {
      application: { name: 'Tablet' },
    })
    expect([other.status, at(other.json, 'application', 'name')]).toEqual([201, 'Tablet'])
  })

  it("answers v2's 400 and 422 and creates nothing", async () => {
    const sim = fixedSimulator()
    const count = sim.dataset.resources.browser().length
    const missing = await v2(sim, 'POST', '/v2/browser_applications.json', { name: 'x' })
    expect([missing.status, missing.json]).toEqual([
      400,
      error('missing parameter: browser_application'),
    ])
    const blank = await v2(sim, 'POST', '/v2/browser_applications.json', {
      browser_application: { name: '' },
    })
    expect([blank.status, blank.json]).toEqual([
      422,
      error('Validation failed', ["Name can't be blank"]),
    ])
    const long = await v2(sim, 'POST', '/v2/mobile_applications.json', {
      application: { name: 'n'.repeat(256) },
    })
    expect(long.json).toEqual(
      error('Validation failed', ['Name is too long (maximum is 255 characters)'])
    )
    const none = await v2(sim, 'POST', '/v2/mobile_applications.json', {})
    expect([none.status, none.json]).toEqual([400, error('missing parameter: mobile_application')])
    expect(sim.dataset.resources.browser().length).toBe(count)
    expect(sim.dataset.resources.state.createdMobile).toEqual([])
  })
})

describe('servers on the stand-in (product retired 15 May 2018)', () => {
  it('lists none, in JSON and XML, for GET and for the POST pollers send', async () => {
    const sim = fixedSimulator()
    // contract v2-more-endpoints §4 proposal: 200 {"servers":[]}, <servers_response><servers/>
    const json = await v2(sim, 'GET', '/v2/servers.json?filter[name]=web')
    expect([json.status, json.text]).toEqual([200, '{"servers":[]}'])
    const xml = await v2(sim, 'GET', '/v2/servers.xml')
    expect(xml.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<servers_response>\n  <servers/>\n</servers_response>\n'
    )
    expect((await v2(sim, 'POST', '/v2/servers.json', 'filter[name]=web')).text).toBe(
      '{"servers":[]}'
    )
  })

  it('answers 404 for every server, its rename, delete and metrics, and 401 for a bad key', async () => {
    const sim = fixedSimulator()
    const title = error('No Server found with the given ID') // v2 explorer servers errorResponses
    for (const [method, path] of [
      ['GET', '/v2/servers/123.json'],
      ['PUT', '/v2/servers/123.json'],
      ['DELETE', '/v2/servers/123.json'],
      ['GET', '/v2/servers/123/metrics.json'],
      ['GET', '/v2/servers/123/metrics/data.json?names[]=System/CPU/User/percent'],
    ] as const) {
      const res = await v2(
        sim,
        method,
        path,
        method === 'PUT' ? { server: { name: 'x' } } : undefined
      )
      expect([method, path, res.status, res.json]).toEqual([method, path, 404, title])
    }
    const bad = await v2(sim, 'GET', '/v2/servers.json', undefined, 'NRAK-NOPE')
    expect([bad.status, bad.json]).toEqual([401, error('Invalid API Key')])
  })
})

describe('PUT /v2/labels and DELETE /v2/labels/{key} on the stand-in', () => {
  const tagsOf = async (sim: Simulator, id: number) =>
    at(await entity(sim, apmGuid(PROD, id), 'tags { key values }'), 'tags')
  const labelled = async (sim: Simulator, key: string) =>
    (at((await v2(sim, 'GET', '/v2/labels.json')).json, 'labels') as Row[]).find(
      (l) => l['key'] === key
    )

  it('creates a label: 201, then 304 with nothing to change; the list and the tags show it', async () => {
    const sim = fixedSimulator(undefined, writesShowAtOnce)
    // docs-website create-labels-apps-v2.mdx: body, 201 created, 304 already there
    const body = {
      label: {
        category: 'Tier',
        name: 'Gold',
        links: { applications: [CHECKOUT, STOREFRONT], servers: [] },
      },
    }
    const res = await v2(sim, 'PUT', '/v2/labels.json', body)
    expect(res.status).toBe(201)
    expect(res.json).toEqual({
      label: {
        key: 'Tier:Gold',
        category: 'Tier',
        name: 'Gold',
        application_health_status: { green: [], orange: [STOREFRONT], red: [CHECKOUT], gray: [] },
        server_health_status: { green: [], orange: [], red: [], gray: [] },
        origins: { apm: [CHECKOUT, STOREFRONT], synthetics: [], agents: [] },
        links: { applications: [CHECKOUT, STOREFRONT], servers: [] },
      },
    })
    expect(await labelled(sim, 'Tier:Gold')).toEqual(at(res.json, 'label'))
    expect(await tagsOf(sim, STOREFRONT)).toContainEqual({ key: 'Tier', values: ['Gold'] })
    const again = await v2(sim, 'PUT', '/v2/labels.json', body)
    expect([again.status, again.text]).toEqual([304, ''])
  })

  it('removes it from the applications named, then from all: 200 with the label', async () => {
    const sim = fixedSimulator()
    const links = { applications: [CHECKOUT, STOREFRONT] }
    await v2(sim, 'PUT', '/v2/labels.json', { label: { category: 'Tier', name: 'Gold', links } })
    // explorer labels DELETE notes: "When applications are provided, this endpoint will remove
    // those applications from the label"
    const some = await v2(sim, 'DELETE', '/v2/labels/Tier%3AGold.json', {
      label: { links: { applications: [STOREFRONT] } },
    })
    expect(some.status).toBe(200)
    expect(at(some.json, 'label', 'links')).toEqual({ applications: [CHECKOUT], servers: [] })
    expect(await tagsOf(sim, STOREFRONT)).not.toContainEqual(
      expect.objectContaining({ key: 'Tier' })
    )
    const all = await v2(sim, 'DELETE', '/v2/labels/Tier:Gold.json')
    expect(at(all.json, 'label')).toMatchObject({
      key: 'Tier:Gold',
      links: { applications: [CHECKOUT] },
    })
    expect(await labelled(sim, 'Tier:Gold')).toBeUndefined()
    expect(await tagsOf(sim, CHECKOUT)).not.toContainEqual(expect.objectContaining({ key: 'Tier' }))
    const gone = await v2(sim, 'DELETE', '/v2/labels/Tier:Gold.json')
    expect([gone.status, gone.json]).toEqual([404, error('No Label found with the given ID')])
  })

  it('takes form fields and Rails XML arrays, and no parameter reaches a prototype', async () => {
    const sim = fixedSimulator()
    const form = await v2(
      sim,
      'PUT',
      '/v2/labels.json',
      `label[category]=Tier&label[name]=Gold&label[links][applications][]=${CHECKOUT}` +
        '&__proto__[polluted]=1&label[constructor][prototype][polluted]=1'
    )
    expect([form.status, at(form.json, 'label', 'links', 'applications')]).toEqual([
      201,
      [CHECKOUT],
    ])
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    // v2 explorer labels.json consumes application/xml; Rails Hash.from_xml reads type="array"
    const xml = await v2(
      sim,
      'PUT',
      '/v2/labels.xml',
      '<label><category>Tier</category><name>Silver</name><links>' +
        `<applications type="array"><application>${STOREFRONT}</application></applications>` +
        '<servers type="array"/></links></label>'
    )
    expect(xml.status).toBe(201)
    expect(xml.text).toContain('<applications>\n        <application>9045837</application>')
    expect(at(await labelled(sim, 'Tier:Silver'), 'links')).toEqual({
      applications: [STOREFRONT],
      servers: [],
    })
  })

  it("answers v2's 400, 422 and 404 and tags nothing", async () => {
    const sim = fixedSimulator()
    const missing = await v2(sim, 'PUT', '/v2/labels.json', {})
    expect([missing.status, missing.json]).toEqual([400, error('missing parameter: label')])
    const blank = await v2(sim, 'PUT', '/v2/labels.json', { label: { category: '', name: 'x' } })
    expect([blank.status, blank.json]).toEqual([
      422,
      error('Validation failed', ["Category can't be blank"]),
    ])
    const unknown = await v2(sim, 'PUT', '/v2/labels.json', {
      label: { category: 'Tier', name: 'Gold', links: { applications: [CHECKOUT, 1] } },
    })
    expect([unknown.status, unknown.json]).toEqual([
      404,
      error('No Application found with the given ID'),
    ])
    expect(await labelled(sim, 'Tier:Gold')).toBeUndefined()
  })
})

describe('PUT /v2/alerts_incidents/{id}/acknowledge and /close on the stand-in', () => {
  const openIssue = (sim: Simulator) =>
    alertsOf(sim.dataset).issues.find((i) => i.accountId === PROD && i.closedAt === null)!
  const issueQuery = `query($ids: [ID!]) { actor { account(id: ${PROD}) { aiIssues {
    issues(filter: { ids: $ids }, timeWindow: { startTime: ${NOW - 60 * DAY}, endTime: ${NOW} }) {
      issues { issueId acknowledgedAt acknowledgedBy closedAt closedBy } } } } } }`
  const ngIssue = async (sim: Simulator, id: string) =>
    (
      at(
        (await gql(sim, issueQuery, { ids: [id] })).body,
        'data',
        'actor',
        'account',
        'aiIssues',
        'issues',
        'issues'
      ) as Row[]
    )[0]

  it('acknowledges: 200 with the incident, and NerdGraph shows who and when', async () => {
    const sim = fixedSimulator()
    const issue = openIssue(sim)
    const id = v2IncidentId(issue.issueId)
    const res = await v2(sim, 'PUT', `/v2/alerts_incidents/${id}/acknowledge.json`)
    expect(res.status).toBe(200)
    // client-go pkg/alerts/incidents.go reads `{"incident"}`; incidents fixture keys
    expect(res.json).toEqual({
      incident: {
        id,
        opened_at: issue.createdAt,
        incident_preference: alertsOf(sim.dataset).policies.find((p) => p.id === issue.policyId)!
          .incidentPreference,
        links: { violations: issue.incidentIds.map(Number), policy_id: issue.policyId },
      },
    })
    expect(await ngIssue(sim, issue.issueId)).toMatchObject({
      acknowledgedAt: NOW,
      acknowledgedBy: 'demo.admin@example.com',
      closedAt: null,
    })
  })

  it('closes: 200 with `closed_at`, the v2 list and NerdGraph show it closed; a closed one is 422', async () => {
    const sim = fixedSimulator()
    const issue = openIssue(sim)
    const id = v2IncidentId(issue.issueId)
    const res = await v2(sim, 'PUT', `/v2/alerts_incidents/${id}/close.json`)
    expect([res.status, at(res.json, 'incident', 'closed_at')]).toEqual([200, NOW])
    const open = await v2(sim, 'GET', '/v2/alerts_incidents.json?only_open=true')
    expect((at(open.json, 'incidents') as Row[]).map((i) => i['id'])).not.toContain(id)
    expect(await ngIssue(sim, issue.issueId)).toMatchObject({
      closedAt: NOW,
      closedBy: 'demo.admin@example.com',
    })
    // v2 explorer alerts_incidents 422 reason (its spelling)
    const again = await v2(sim, 'PUT', `/v2/alerts_incidents/${id}/acknowledge.json`)
    expect([again.status, again.json]).toEqual([422, error('Validation exception occured')])
    const unknown = await v2(sim, 'PUT', '/v2/alerts_incidents/1/close.json')
    expect([unknown.status, unknown.json]).toEqual([
      404,
      error('No Incident found with the given ID'),
    ])
  })
})

describe('alerts channels and policy channels on the stand-in', () => {
  const channelQuery = (
    id: number
  ) => `{ actor { account(id: ${PROD}) { alerts { notificationChannel(id: "${id}") {
    id name type associatedPolicies { policies { id } }
    ... on AlertsEmailNotificationChannel { config { emails includeJson } }
    ... on AlertsWebhookNotificationChannel { config { baseUrl customHttpHeaders { name value } customPayloadBody customPayloadType } } } } } } }`
  const ngChannel = async (sim: Simulator, id: number) =>
    at(
      (await gql(sim, channelQuery(id))).body,
      'data',
      'actor',
      'account',
      'alerts',
      'notificationChannel'
    )
  const listed = async (sim: Simulator, id: number) =>
    (at((await v2(sim, 'GET', '/v2/alerts_channels.json')).json, 'channels') as Row[]).find(
      (c) => c['id'] === id
    )

  it('creates an email channel on a policy: 201 `{"channels"}`, listed, and a NerdGraph channel', async () => {
    const sim = fixedSimulator()
    const res = await v2(sim, 'POST', '/v2/alerts_channels.json?policy_ids[]=5101101', {
      channel: {
        name: 'Ops mail',
        type: 'email',
        configuration: { recipients: 'a@example.com,b@example.com', include_json_attachment: true },
      },
    })
    expect(res.status).toBe(201)
    const created = (at(res.json, 'channels') as Row[])[0]!
    const id = created['id'] as number
    // client-go testCreateChannelResponseJSON: keys, string configuration values, links
    expect(res.json).toEqual({
      channels: [
        {
          id,
          name: 'Ops mail',
          type: 'email',
          configuration: {
            include_json_attachment: 'true',
            recipients: 'a@example.com,b@example.com',
          },
          links: { policy_ids: [5101101] },
        },
      ],
      links: { 'channel.policy_ids': '/v2/policies/{policy_id}' },
    })
    expect(await listed(sim, id)).toEqual(created)
    expect(await ngChannel(sim, id)).toEqual({
      id: String(id),
      name: 'Ops mail',
      type: 'EMAIL',
      associatedPolicies: { policies: [{ id: '5101101' }] },
      config: { emails: ['a@example.com', 'b@example.com'], includeJson: true },
    })
  })

  it('creates a webhook from form fields, headers and payload as objects', async () => {
    const sim = fixedSimulator()
    const res = await v2(
      sim,
      'POST',
      '/v2/alerts_channels.json',
      'channel[name]=Hook&channel[type]=webhook&channel[configuration][base_url]=https://hooks.example.com/x' +
        '&channel[configuration][headers][X-Team]=ops&channel[configuration][payload][account_id]=$ACCOUNT_ID'
    )
    expect(res.status).toBe(201)
    const created = (at(res.json, 'channels') as Row[])[0]!
    const id = created['id'] as number
    // v2 explorer alerts_channels POST notes (webhook keys); client-go COMPLEX fixture (objects)
    expect(created['configuration']).toEqual({
      base_url: 'https://hooks.example.com/x',
      headers: { 'X-Team': 'ops' },
      payload: { account_id: '$ACCOUNT_ID' },
      payload_type: 'application/json',
    })
    expect(at(await ngChannel(sim, id), 'config')).toEqual({
      baseUrl: 'https://hooks.example.com/x',
      customHttpHeaders: [{ name: 'X-Team', value: 'ops' }],
      customPayloadBody: '{"account_id":"$ACCOUNT_ID"}',
      customPayloadType: 'JSON',
    })
  })

  it("answers v2's 400 and 422 for a bad create and creates nothing", async () => {
    const sim = fixedSimulator()
    const count = alertsOf(sim.dataset).channels.length
    const post = (body: object | string, query = '') =>
      v2(sim, 'POST', `/v2/alerts_channels.json${query}`, body)
    const missing = await post({})
    expect([missing.status, missing.json]).toEqual([400, error('missing parameter: channel')])
    // client-go TestCreateChannelInvalidChannelType
    const type = await post({ channel: { name: 'x', type: 'string', configuration: {} } })
    expect([type.status, type.json]).toEqual([422, error('Invalid channel type')])
    // v2 explorer alerts_channels POST 422 reason
    const invalid = error('Validation or internal error occurred')
    expect((await post({ channel: { name: 'x', type: 'email', configuration: {} } })).json).toEqual(
      invalid
    )
    const policy = await post(
      { channel: { name: 'x', type: 'slack', configuration: { url: 'https://s' } } },
      '?policy_ids=1'
    )
    expect([policy.status, policy.json]).toEqual([422, invalid])
    expect(alertsOf(sim.dataset).channels.length).toBe(count)
  })

  it('deletes a channel: 200 `{"channel", "links"}`, gone from both; 404 and 406 as v2', async () => {
    const sim = fixedSimulator()
    const before = await listed(sim, 2932514)
    const res = await v2(sim, 'DELETE', '/v2/alerts_channels/2932514.json')
    // client-go testDeleteChannelResponseJSON
    expect([res.status, res.json]).toEqual([
      200,
      { channel: before, links: { 'channel.policy_ids': '/v2/policies/{policy_id}' } },
    ])
    expect(await listed(sim, 2932514)).toBeUndefined()
    expect(await ngChannel(sim, 2932514)).toBeNull()
    // v2 explorer alerts_channels DELETE errorResponses
    const again = await v2(sim, 'DELETE', '/v2/alerts_channels/2932514.json')
    expect([again.status, again.json]).toEqual([
      404,
      error('No channel was found with the given ID'),
    ])
    const user = await v2(sim, 'DELETE', '/v2/alerts_channels/2803426.json')
    expect([user.status, user.json]).toEqual([406, error('Cannot delete USER channels')])
  })

  it('adds channels to a policy and removes one, as client-go policy_channels_test shows', async () => {
    const sim = fixedSimulator()
    const put = await v2(
      sim,
      'PUT',
      '/v2/alerts_policy_channels.json?policy_id=5101103&channel_ids=2932511,2932512'
    )
    expect([put.status, put.json]).toEqual([
      200,
      { policy: { id: 5101103, channel_ids: [2932511, 2932512] } },
    ])
    expect(at(await listed(sim, 2932512), 'links', 'policy_ids')).toEqual([5101102, 5101103])
    expect(at(await ngChannel(sim, 2932511), 'associatedPolicies', 'policies')).toContainEqual({
      id: '5101103',
    })
    // testDeletePolicyChannelResponseJSON: the channel as it was, with the policy removed
    const del = await v2(
      sim,
      'DELETE',
      '/v2/alerts_policy_channels.json?policy_id=5101103&channel_id=2932512'
    )
    expect(del.status).toBe(200)
    expect(at(del.json, 'channel')).toMatchObject({
      id: 2932512,
      links: { policy_ids: [5101102, 5101103] },
    })
    expect(at(del.json, 'links')).toEqual({ 'channel.policy_ids': '/v2/policies/{policy_id}' })
    expect(at(await listed(sim, 2932512), 'links', 'policy_ids')).toEqual([5101102])
    expect(at(await ngChannel(sim, 2932512), 'associatedPolicies', 'policies')).toEqual([
      { id: '5101102' },
    ])
  })

  it("answers v2's 400 for a missing parameter and 404 for what is not there", async () => {
    const sim = fixedSimulator()
    const call = (method: string, query: string) =>
      v2(sim, method, `/v2/alerts_policy_channels.json${query}`)
    // docs-website issue #7091 recorded `missing parameter: policy_id` with 400
    expect((await call('PUT', '?channel_ids=2932511')).json).toEqual(
      error('missing parameter: policy_id')
    )
    const noIds = await call('PUT', '?policy_id=5101103')
    expect([noIds.status, noIds.json]).toEqual([400, error('missing parameter: channel_ids')])
    expect((await call('DELETE', '?policy_id=5101103')).json).toEqual(
      error('missing parameter: channel_id')
    )
    // v2 explorer alerts_policy_channels errorResponses
    const notFound = error('No policy channel found with the given ID')
    expect((await call('PUT', '?policy_id=5101103&channel_ids=1')).json).toEqual(notFound)
    expect((await call('PUT', '?policy_id=1&channel_ids=2932511')).json).toEqual(notFound)
    const unlinked = await call('DELETE', '?policy_id=5101103&channel_id=2932511')
    expect([unlinked.status, unlinked.json]).toEqual([404, notFound])
    expect(at(await listed(sim, 2932511), 'links', 'policy_ids')).toEqual([5101101])
  })
})

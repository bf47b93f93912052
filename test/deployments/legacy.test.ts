import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { apmGuid } from '../../simulator'
import { keyFingerprint } from '../../src/core/identity'

const now = Date.parse('2026-11-20T12:00:30.000Z')
beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now }))
afterAll(() => void vi.useRealTimers())

const restKey = '00000000000000000000000000000000000000000000d3a'
const licenseKey = '00000000000000000000000000000000000001ce'
const guid = apmGuid(1000001, 9045822)

async function keyMap() {
  return JSON.stringify({
    [await keyFingerprint(restKey)]: DEMO_KEYS.all,
    [await keyFingerprint(licenseKey)]: DEMO_KEYS.all,
  })
}

function post(
  h: ReturnType<typeof harness>,
  path: string,
  body: string,
  headers: Record<string, string>
) {
  return h.app.request(path, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  })
}

describe('POST /deployments.xml (legacy deployments API v0)', () => {
  it('records a form post by app name with a license key and answers 201 with v0 typed XML', async () => {
    // Written with the license key, listed with the user key: read-your-writes is per key, so the
    // list reads NerdGraph, here showing writes at once (writeVisibilityMs 0).
    const h = harness({ KEY_MAP: await keyMap() }, { limits: { writeVisibilityMs: 0 } })
    const res = await post(
      h,
      '/deployments.xml',
      'deployment[app_name]=Checkout+Service+(java)&deployment[description]=sent+by+curl&deployment[user]=Joe+User&deployment[revision]=abc123',
      { 'x-license-key': licenseKey }
    )
    expect(res.status).toBe(201)
    expect(res.headers.get('content-type')).toBe('application/xml')
    const xml = await res.text()
    const recorded = h.dataset.deployments.of(guid)[0]!
    expect(recorded).toMatchObject({
      version: 'abc123',
      description: 'sent by curl',
      user: 'Joe User',
    })
    const id = /<id type="integer">(\d+)<\/id>/.exec(xml)![1]
    const list = (await (await h.get('/v2/applications/9045822/deployments.json')).json()) as {
      deployments: { id: number }[]
    }
    expect(list.deployments[0]!.id).toBe(Number(id))
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<deployment>',
        '  <account-id type="integer">1000001</account-id>',
        '  <agent-id type="integer">9045822</agent-id>',
        '  <avg-apdex-f type="integer" nil="true"></avg-apdex-f>',
        '  <avg-apdex-s type="integer" nil="true"></avg-apdex-s>',
        '  <avg-apdex-t type="integer" nil="true"></avg-apdex-t>',
        '  <avg-apdex-threshold type="float" nil="true"></avg-apdex-threshold>',
        '  <avg-cpu type="float" nil="true"></avg-cpu>',
        '  <avg-db type="float" nil="true"></avg-db>',
        '  <avg-enduser-apdex-f type="integer" nil="true"></avg-enduser-apdex-f>',
        '  <avg-enduser-apdex-s type="integer" nil="true"></avg-enduser-apdex-s>',
        '  <avg-enduser-apdex-t type="integer" nil="true"></avg-enduser-apdex-t>',
        // integer, as recorded in the pyrelic fork fixture (tests/fixtures/sample_responses.py
        // NOTIFY_DEPLOYMENT_SUCCESS), where avg-apdex-threshold is a float
        '  <avg-enduser-apdex-threshold type="integer" nil="true"></avg-enduser-apdex-threshold>',
        '  <avg-enduser-rt type="float" nil="true"></avg-enduser-rt>',
        '  <avg-enduser-throughput type="float" nil="true"></avg-enduser-throughput>',
        '  <avg-errors type="float" nil="true"></avg-errors>',
        '  <avg-memory type="float" nil="true"></avg-memory>',
        '  <avg-rt type="float" nil="true"></avg-rt>',
        '  <avg-throughput type="float" nil="true"></avg-throughput>',
        '  <changelog nil="true"></changelog>',
        '  <description>sent by curl</description>',
        '  <end-time type="datetime" nil="true"></end-time>',
        `  <id type="integer">${id}</id>`,
        '  <revision>abc123</revision>',
        '  <timestamp type="datetime">2026-11-20T12:00:30+00:00</timestamp>',
        '  <user>Joe User</user>',
        '</deployment>',
        '',
      ].join('\n')
    )
  })

  it('takes an id (or a name) in application_id, appname, bare fields, XML and JSON bodies, and a REST key', async () => {
    const h = harness({ KEY_MAP: await keyMap() })
    const key = { 'x-api-key': restKey }
    const cases: [string, string, Record<string, string>][] = [
      ['deployment[application_id]=9045822&deployment[revision]=r1', '', {}],
      ['deployment[application_id]=Checkout Service (java)&deployment[revision]=r2', '', {}], // Ruby agent
      ['deployment[appname]=Checkout Service (java)&deployment[timestamp]=1795172430000', '', {}], // Java agent
      ['app_name=Checkout Service (java)&revision=r4', '', {}], // old ansible: bare fields
      [
        '<deployment><app-name>Checkout Service (java)</app-name><revision>r5</revision></deployment>',
        'application/xml',
        {},
      ],
      ['{"deployment":{"application_id":9045822,"revision":"r6"}}', 'application/json', {}],
    ]
    for (const [body, type, headers] of cases) {
      const res = await post(h, '/deployments.xml', body, {
        ...key,
        ...headers,
        ...(type ? { 'Content-Type': type } : {}),
      })
      expect(res.status, body).toBe(201)
    }
    const recorded = h.dataset.deployments.of(guid).slice(0, 6)
    // newest first: the Java agent's deployment is an hour old
    expect(recorded.map((d) => d.version)).toEqual(['r6', 'r5', 'r4', 'r2', 'r1', 'Unknown'])
    expect(recorded[5]!.timestamp).toBe(1795172430000)
    const json = await post(
      h,
      '/deployments.json',
      'deployment[app_name]=Checkout Service (java)',
      key
    )
    expect(json.status).toBe(201)
    const body = (await json.json()) as { deployment: Record<string, unknown> }
    expect(body.deployment).toMatchObject({
      account_id: 1000001,
      agent_id: 9045822,
      revision: 'Unknown',
      avg_cpu: null,
    })
  })

  it('answers 422 <errors> for an unknown application, and for no application at all', async () => {
    const h = harness()
    const key = { 'x-api-key': DEMO_KEYS.all }
    const unknown = await post(h, '/deployments.xml', 'deployment[app_name]=Danbooru', key)
    expect(unknown.status).toBe(422)
    expect(await unknown.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<errors>\n  <error>Application Danbooru does not exist.</error>\n</errors>\n'
    )
    const byId = await post(h, '/deployments.xml', 'deployment[application_id]=12345', key)
    expect(byId.status).toBe(422)
    expect(await byId.text()).toContain('<error>Application 12345 does not exist.</error>')
    const none = await post(h, '/deployments.xml', 'deployment[revision]=r', key)
    expect(none.status).toBe(422)
    const json = await post(h, '/deployments.json', 'deployment[app_name]=Nope', key)
    expect(await json.json()).toEqual({ errors: ['Application Nope does not exist.'] })
  })

  it('answers 401 <errors> without a key, and for a legacy key KEY_MAP does not map', async () => {
    const h = harness()
    const none = await post(h, '/deployments.xml', 'deployment[app_name]=x', {})
    expect(none.status).toBe(401)
    expect(await none.text()).toContain('<error>No API key specified</error>')
    const unmapped = await post(h, '/deployments.xml', 'deployment[app_name]=x', {
      'x-license-key': licenseKey,
    })
    expect(unmapped.status).toBe(401)
    // v2's title for a refused key (v2 explorer errorResponses; recorded body "Invalid API Key")
    expect(await unmapped.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<errors>\n  <error>Invalid API Key</error>\n</errors>\n'
    )
    expect(h.sim.stats().graphqlRequests).toBe(0)
  })

  it('costs one NerdGraph request by ID with a pinned account, and one by name once the name is known', async () => {
    const pinned = harness({ ACCOUNT_ID: '1000001' })
    const key = { 'x-api-key': DEMO_KEYS.all }
    expect(
      (await post(pinned, '/deployments.xml', 'deployment[application_id]=9045822', key)).status
    ).toBe(201)
    expect(pinned.sim.stats().graphqlRequests).toBe(1)
    const h = harness()
    const body = 'deployment[app_name]=Checkout Service (java)'
    expect((await post(h, '/deployments.xml', body, key)).status).toBe(201)
    expect(h.sim.stats().graphqlRequests).toBe(2)
    expect((await post(h, '/deployments.xml', body, key)).status).toBe(201)
    expect(h.sim.stats().graphqlRequests).toBe(3)
  })

  it('answers 405 for GET, and 301 over plain HTTP unless ALLOW_HTTP', async () => {
    const h = harness()
    const get = await h.app.request('/deployments.xml', { headers: { 'x-api-key': DEMO_KEYS.all } })
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    const strict = harness({ ALLOW_HTTP: 'false' })
    const res = await post(strict, 'http://localhost/deployments.xml', 'deployment[app_name]=x', {
      'x-api-key': DEMO_KEYS.all,
    })
    expect(res.status).toBe(301)
  })
})

describe('v0 field limits (issue 22, item 13)', () => {
  it('answers 422 in v0 XML for a revision past v2’s 127 characters, before NerdGraph is asked', async () => {
    const h = harness({ KEY_MAP: await keyMap() })
    const before = h.sim.stats().graphqlRequests
    const res = await post(
      h,
      '/deployments.xml',
      `deployment[app_name]=Checkout+Service+(java)&deployment[revision]=${'r'.repeat(128)}`,
      { 'x-license-key': licenseKey }
    )
    expect(res.status).toBe(422)
    expect(await res.text()).toContain(
      '<error>Revision is too long (maximum is 127 characters)</error>'
    )
    expect(h.sim.stats().graphqlRequests).toBe(before)
  })
})

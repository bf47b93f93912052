/**
 * The v2 stand-in's deployment writes (simulator/v2/deployment-writes.ts): v2's
 * `POST /v2/applications/{id}/deployments` and the legacy v0 `POST /deployments.xml`, so compare
 * mode's `v2` setting records deployments against the stand-in as against New Relic. Sources: New
 * Relic docs "Record and view deployments (v2)" (body, field limits, timestamp rule),
 * newrelic-client-go pkg/apm deployments test (201), deployphp PR #175 (`missing parameter:
 * deployment`), the swagger 1.1 errorResponses (`Revision parameter required`), the pyrelic v0
 * fixture (typed XML), the Ruby agent changelog and ekino (v0 unknown app, 422).
 */
import { describe, expect, it } from 'vitest'
import {
  DEMO_KEYS,
  DEMO_LEGACY_KEYS,
  SHOWCASE,
  STAGING_APPS,
  type Simulator,
} from '../../simulator'
import { fixedSimulator, NOW } from './graphql-client'

const CHECKOUT = 9045822 // production
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00')

async function call(
  sim: Simulator,
  path: string,
  body: string,
  headers: Record<string, string> = { 'X-Api-Key': DEMO_KEYS.all }
) {
  const json = body.startsWith('{')
  const res = await sim.fetch(
    new Request(`http://sim.test${path}`, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      },
      body,
    })
  )
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
}

const listed = async (sim: Simulator, id: number) => {
  const res = await sim.fetch(
    new Request(`http://sim.test/v2/applications/${id}/deployments.json`, {
      headers: { 'X-Api-Key': DEMO_KEYS.all },
    })
  )
  return ((await res.json()) as { deployments: Record<string, unknown>[] }).deployments
}

describe('v2 POST /v2/applications/{id}/deployments on the stand-in', () => {
  it('records the deployment, answers 201 with it as the list shows it', async () => {
    const sim = fixedSimulator()
    const res = await call(
      sim,
      `/v2/applications/${CHECKOUT}/deployments.json`,
      JSON.stringify({ deployment: { revision: 'v9.9.9', user: 'ci-bot', changelog: 'Fix' } })
    )
    expect(res.status).toBe(201)
    const body = JSON.parse(res.text) as { deployment: Record<string, unknown>; links: unknown }
    expect(Object.keys(body.deployment)).toEqual([
      'id',
      'revision',
      'changelog',
      'description',
      'user',
      'timestamp',
      'links',
    ])
    expect(body.deployment).toMatchObject({
      revision: 'v9.9.9',
      changelog: 'Fix',
      description: null, // optional text fields are null, not absent (contract, PGN fixture)
      user: 'ci-bot',
      timestamp: iso(Math.floor(NOW / 1000) * 1000),
      links: { application: CHECKOUT },
    })
    expect(body.links).toEqual({ 'deployment.agent': '/v2/applications/{application_id}' })
    expect((await listed(sim, CHECKOUT))[0]).toEqual(body.deployment)
  })

  it("answers v2's errors and records nothing on them", async () => {
    const sim = fixedSimulator()
    const before = (await listed(sim, CHECKOUT)).length
    const path = `/v2/applications/${CHECKOUT}/deployments.json`
    expect(await call(sim, path, '{}')).toMatchObject({
      status: 400,
      text: '{"error":{"title":"missing parameter: deployment"}}',
    })
    expect(await call(sim, path, '{"deployment":{"user":"x"}}')).toMatchObject({
      status: 400,
      text: '{"error":{"title":"Revision parameter required"}}',
    })
    const long = await call(
      sim,
      path,
      JSON.stringify({ deployment: { revision: 'r'.repeat(128) } })
    )
    expect(long.status).toBe(422)
    expect(JSON.parse(long.text)).toEqual({
      error: {
        title: 'Validation failed',
        messages: ['Revision is too long (maximum is 127 characters)'],
      },
    })
    const past = await call(
      sim,
      path,
      JSON.stringify({ deployment: { revision: 'old', timestamp: '2001-01-01T00:00:00Z' } })
    )
    expect(JSON.parse(past.text).error.messages).toEqual([
      'Timestamp must be after the latest deployment',
    ])
    const other = await call(
      sim,
      `/v2/applications/${STAGING_APPS[0]!.id}/deployments.json`,
      '{"deployment":{"revision":"r"}}'
    )
    expect(other).toMatchObject({
      status: 404, // a key answers for its own account (production)
      text: '{"error":{"title":"No Application found with the given ID"}}',
    })
    expect((await listed(sim, CHECKOUT)).length).toBe(before)
  })
})

describe('v0 POST /deployments.xml on the stand-in', () => {
  it('takes a license key, an app name, answers 201 with typed XML and records it', async () => {
    const sim = fixedSimulator()
    const name = SHOWCASE.find((a) => a.id === CHECKOUT)!.name
    const res = await call(
      sim,
      '/deployments.xml',
      `deployment[app_name]=${encodeURIComponent(name)}&deployment[revision]=abc&deployment[user]=bob`,
      { 'x-license-key': DEMO_LEGACY_KEYS.license }
    )
    expect(res.status).toBe(201)
    expect(res.type).toBe('application/xml; charset=utf-8')
    expect(res.text).toContain(`<agent-id type="integer">${CHECKOUT}</agent-id>`)
    expect(res.text).toContain(
      '<avg-enduser-apdex-threshold type="integer" nil="true"></avg-enduser-apdex-threshold>'
    )
    expect(res.text).toContain('<changelog nil="true"></changelog>')
    expect(res.text).toContain('<revision>abc</revision>')
    const id = Number(/<id type="integer">(\d+)<\/id>/.exec(res.text)![1])
    expect((await listed(sim, CHECKOUT))[0]).toMatchObject({ id, revision: 'abc', user: 'bob' })
  })

  it('answers 422 for an unknown app and 401 for a key v0 does not take', async () => {
    const sim = fixedSimulator()
    const unknown = await call(sim, '/deployments.xml', 'deployment[app_name]=Nope', {
      'X-Api-Key': DEMO_LEGACY_KEYS.rest,
    })
    expect(unknown.status).toBe(422)
    expect(unknown.text).toContain('<error>Application Nope does not exist.</error>')
    const bad = await call(sim, '/deployments.xml', `deployment[application_id]=${CHECKOUT}`, {
      'x-license-key': 'f'.repeat(40),
    })
    expect(bad.status).toBe(401)
  })
})

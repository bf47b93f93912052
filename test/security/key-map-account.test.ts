/**
 * A KEY_MAP account confines its legacy key (issue 40, item 1): with one organisation-wide user key
 * behind a REST or license key of account 1000002, `X-Account-Id: 1000001` from the caller must not
 * reach 1000001. v2 answered a key for another account's resource 404 on a read and refused a
 * write; every path answers so, before any NerdGraph call, and lists show the key's account only.
 */
import { describe, expect, it } from 'vitest'
import { STAGING_APPS } from '../../simulator'
import { errorClassStatus } from '../../mappings/upstream-errors'
import { keyFingerprint } from '../../src/core/identity'
import { DEMO_KEYS, harness } from '../helpers/harness'

const restKey = '00000000000000000000000000000000000000000000d3a'
const licenseKey = '00000000000000000000000000000000000001ce'
const mine = 1000002 // the legacy keys' account
const foreign = 1000001 // also seen by the user key behind them
const foreignApp = 9045822 // Checkout Service, in 1000001

async function setup() {
  const entry = (scope: string) => ({ key: DEMO_KEYS.all, scope, account: mine })
  const h = harness({
    KEY_MAP: JSON.stringify({
      [await keyFingerprint(restKey)]: entry('rest'),
      [await keyFingerprint(licenseKey)]: entry('license'),
    }),
  })
  const upstream = () => h.sim.stats().graphqlRequests
  const send = (path: string, headers: Record<string, string>, init: RequestInit = {}) =>
    h.app.request(path, { ...init, headers: { ...headers, ...(init.headers ?? {}) } })
  const pinned = { 'X-Api-Key': restKey, 'X-Account-Id': String(foreign) }
  return { h, upstream, send, pinned }
}

const forbidden = { error: { title: errorClassStatus.FORBIDDEN.title } }
const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
})

describe('a KEY_MAP account confines its legacy key', () => {
  it('refuses a v0 deployment pinned to another account with 403, recording nothing', async () => {
    const { h, upstream, send } = await setup()
    const before = h.dataset.deployments.of(h.dataset.applications(foreign)[0]!.guid).length
    const res = await send(
      '/deployments.xml',
      {
        'x-license-key': licenseKey,
        'X-Account-Id': String(foreign),
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      { method: 'POST', body: `deployment[application_id]=${foreignApp}&deployment[revision]=r1` }
    )
    expect(res.status).toBe(403)
    expect(await res.text()).toContain(errorClassStatus.FORBIDDEN.title)
    expect(upstream()).toBe(0)
    expect(h.dataset.deployments.of(h.dataset.applications(foreign)[0]!.guid)).toHaveLength(before)
  })

  it('answers an application read pinned to another account 404, as v2 did', async () => {
    const { upstream, send, pinned } = await setup()
    const res = await send(`/v2/applications/${foreignApp}.json`, pinned)
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: { title: 'No Application found with the given ID' } })
    expect(upstream()).toBe(0)
    // its own account, named or not, still answers
    const own = await send(`/v2/applications/${STAGING_APPS[0]!.id}.json`, {
      ...pinned,
      'X-Account-Id': String(mine),
    })
    expect(own.status).toBe(200)
  })

  it('answers an incidents read pinned to another account 404', async () => {
    const { upstream, send, pinned } = await setup()
    const res = await send('/v2/alerts_incidents.json', pinned)
    expect(res.status).toBe(404)
    expect(upstream()).toBe(0)
    expect((await send('/v2/alerts_incidents.json', { 'X-Api-Key': restKey })).status).toBe(200)
  })

  it('refuses a deployment write pinned to another account with 403, recording nothing', async () => {
    const { h, upstream, send, pinned } = await setup()
    const guid = h.dataset.applications(foreign).find((a) => a.id === foreignApp)!.guid
    const before = h.dataset.deployments.of(guid).length
    const res = await send(
      `/v2/applications/${foreignApp}/deployments.json`,
      pinned,
      json({ deployment: { revision: 'r1' } })
    )
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual(forbidden)
    expect(upstream()).toBe(0)
    expect(h.dataset.deployments.of(guid)).toHaveLength(before)
  })

  it('lists only its own account through the mapped key', async () => {
    const { send } = await setup()
    const res = await send('/v2/applications.json', { 'X-Api-Key': restKey })
    expect(res.status).toBe(200)
    const ids = ((await res.json()) as { applications: { id: number }[] }).applications.map(
      (a) => a.id
    )
    expect(ids.sort()).toEqual(STAGING_APPS.map((a) => a.id).sort())
  })
})

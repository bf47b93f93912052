import { describe, expect, it } from 'vitest'
import { harness } from '../helpers/harness'
import { toV2User } from '../../src/resources/users/users'

describe('GET /v2/users/{id} for an unknown user', () => {
  it('answers 404 with the explorer’s title, in JSON and XML', async () => {
    // v2 explorer users.json, GET /v2/users/{id}.{format} errorResponses:
    // 404 "No user found with the given ID"
    const h = harness()
    const res = await h.get('/v2/users/42.json')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: { title: 'No user found with the given ID' } })
    const xml = await h.get('/v2/users/42.xml')
    expect(xml.status).toBe(404)
    expect(await xml.text()).toContain('<title>No user found with the given ID</title>')
  })
})

describe('user role', () => {
  it('is one of v2’s roles; no NerdGraph group names the account owner', () => {
    // v2 explorer users.json UserResponseType.role: "User's role (user, admin, or owner)".
    // NerdGraph user management has groups, no owner: `owner` is never answered (a documented
    // difference), the Admin group is `admin` (mappings/user-roles.ts), every other user `user`.
    const user = (groups: string[]) =>
      toV2User({
        id: '1000123456',
        name: 'Dana Owner',
        email: 'dana.owner@example.com',
        groups: { groups: groups.map((displayName) => ({ displayName })) },
      })
    expect(user(['Admin'])).toEqual({
      id: 1000123456,
      first_name: 'Dana',
      last_name: 'Owner',
      email: 'dana.owner@example.com',
      role: 'admin',
    })
    expect(user(['User', 'Read Only'])['role']).toBe('user')
    expect(user([])['role']).toBe('user')
  })
})

describe('GET /v2/alert_policies (the pre-2016 alerts API)', () => {
  it('answers v2’s recorded 410 on the list and the show', async () => {
    // ambitioninc/newrelic-api issue #31 records v2's answer to GET /v2/alert_policies.json:
    // 410 {"error":{"title":"The alert policies API is deprecated. Please see
    // 'alerts.newrelic.com' for the new alerting infrastructure."}}
    const h = harness()
    const title =
      "The alert policies API is deprecated. Please see 'alerts.newrelic.com' for the new alerting infrastructure."
    for (const path of ['/v2/alert_policies.json', '/v2/alert_policies/123.json']) {
      const res = await h.get(path)
      expect(res.status, path).toBe(410)
      expect(await res.json()).toEqual({ error: { title } })
    }
    expect((await h.get('/v2/alert_policies.xml')).status).toBe(410)
  })
})

import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { fakeFetch } from '../helpers/fake-fetch'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { expectStrictV2 } from '../helpers/strict-client'

interface User {
  id: number
  first_name: string
  last_name: string
  email: string
  role: string
}

async function users(h: ReturnType<typeof harness>, path: string, init = {}) {
  const res = await h.get(path, init)
  expect(res.status).toBe(200)
  return { res, body: (await res.json()) as { users: User[] } }
}

describe('GET /v2/users', () => {
  it('lists the organization’s users in v2 shape, by ID, with the role their groups give', async () => {
    const h = harness()
    const { res, body } = await users(h, '/v2/users.json')
    expectStrictV2(body as unknown as Record<string, unknown>, 'users')
    expect(body.users).toHaveLength(200) // of 256: v2's page
    expect(res.headers.get('link')).toContain('page=2>; rel="next"')
    expect(body.users.slice(0, 3)).toEqual([
      {
        id: 1000123456,
        first_name: 'Dana',
        last_name: 'Owner',
        email: 'dana.owner@example.com',
        role: 'admin',
      },
      {
        id: 1000123457,
        first_name: 'Adam',
        last_name: 'Admin',
        email: 'adam.admin@example.com',
        role: 'admin',
      },
      {
        id: 1000123458,
        first_name: 'Any',
        last_name: 'User',
        email: 'any.user@example.com',
        role: 'user',
      },
    ])
    expect(body.users.find((u) => u.id === 1000123460)).toMatchObject({
      first_name: 'Sam',
      last_name: '',
    })
    expect(body.users.find((u) => u.id === 1000123461)).toMatchObject({
      first_name: 'Oscar',
      last_name: 'de la Vega',
    })
  })

  it('walks every page by Link: one request per NerdGraph page for the first v2 page, none after', async () => {
    const h = harness()
    const all = h.dataset.resources.users.map((u) => Number(u.id)).sort((a, b) => a - b)
    expect(all.length).toBeGreaterThan(200) // more than one v2 page and one NerdGraph page (100)
    const seen: number[] = []
    let path: string | null = '/v2/users.json'
    const requests: number[] = []
    while (path) {
      const before = h.sim.stats().graphqlRequests
      const { res, body } = await users(h, path)
      requests.push(h.sim.stats().graphqlRequests - before)
      seen.push(...body.users.map((u) => u.id))
      const next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
      path = next ? new URL(next, 'http://x').pathname + new URL(next, 'http://x').search : null
    }
    expect(seen).toEqual(all)
    // the first page: every domain's first page, then the contractors' two more; page 2 is cached
    expect(requests).toEqual([3, 0])
    const xml = await h.get('/v2/users.xml?page=2')
    const text = await xml.text()
    expect(text.match(/<user>/g)).toHaveLength(all.length - 200)
    expect(text).toContain(`<id>${all.at(-1)}</id>`)
    expect(xml.headers.get('link')).toContain('page=1>; rel="first"')
  })

  it('filters by an email substring and by ids, and reads a POST form body (hubot)', async () => {
    const h = harness()
    const byEmail = await users(h, '/v2/users.json?filter[email]=EXAMPLE.COM')
    expect(byEmail.body.users.map((u) => u.id)).toEqual([
      1000123456, 1000123457, 1000123458, 1000123460, 1000123461,
    ])
    const byIds = await users(h, '/v2/users.json?filter[ids]=1000123459,1000123458')
    expect(byIds.body.users.map((u) => u.email)).toEqual([
      'any.user@example.com',
      'rita@example.org',
    ])
    const posted = await h.get('/v2/users.json', {
      method: 'POST',
      body: 'filter[email]=rita',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(((await posted.json()) as { users: User[] }).users.map((u) => u.id)).toEqual([
      1000123459,
    ])
    expect((await users(h, '/v2/users.json?filter[email]=nobody')).body).toEqual({ users: [] })
  })

  it('answers a key-validation probe: 200 for a valid key, 401 for a bad one, in JSON and XML', async () => {
    const h = harness()
    expect((await h.get('/v2/users.json', { key: DEMO_KEYS.one })).status).toBe(200)
    const bad = await h.get('/v2/users.json', { key: 'NRAK-NOTAKEY0000000000000000000' })
    expect(bad.status).toBe(401)
    expect(await bad.json()).toEqual({ error: { title: 'Invalid API Key' } })
    const xml = await h.get('/v2/users.xml?filter[ids]=1000123458')
    expect(await xml.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<users_response>\n  <users>\n    <user>\n' +
        '      <id>1000123458</id>\n      <first_name>Any</first_name>\n      <last_name>User</last_name>\n' +
        '      <email>any.user@example.com</email>\n      <role>user</role>\n    </user>\n  </users>\n</users_response>\n'
    )
  })

  it('sends the filters to user management, not a search of its own', async () => {
    const h = harness()
    const requests: unknown[] = []
    const original = h.sim.fetch
    h.sim.fetch = async (req) => {
      requests.push(await req.clone().json())
      return original(req)
    }
    await users(h, '/v2/users.json?filter[email]=rita&filter[ids]=1000123459')
    expect(requests).toHaveLength(1)
    expect((requests[0] as { variables: unknown }).variables).toEqual({
      filter: { email: { contains: 'rita' }, id: { in: ['1000123459'] } },
      domains: null,
      cursor: null,
    })
  })
})

describe('GET /v2/users/{id}', () => {
  it('shows one user, and 404 in v2 shape for unknown or malformed IDs', async () => {
    const h = harness()
    const res = await h.get('/v2/users/1000123457.json')
    expect(await res.json()).toEqual({
      user: {
        id: 1000123457,
        first_name: 'Adam',
        last_name: 'Admin',
        email: 'adam.admin@example.com',
        role: 'admin',
      },
    })
    for (const id of ['42', 'abc']) {
      const missing = await h.get(`/v2/users/${id}.json`)
      expect(missing.status).toBe(404)
      // v2 explorer users.json: 404 "No user found with the given ID"
      expect(await missing.json()).toEqual({ error: { title: 'No user found with the given ID' } })
    }
  })
})

describe('GET /v2/users for a key that may not read users', () => {
  it('answers 200 with an empty list when NerdGraph refuses the organization field', async () => {
    const forbidden = {
      data: { actor: { organization: null } },
      errors: [
        {
          message: 'Not authorized to view users',
          path: ['actor', 'organization'],
          extensions: { errorClass: 'FORBIDDEN' },
        },
      ],
    }
    const upstream = fakeFetch({ body: forbidden })
    const app = createApp({
      config: parseConfig({ NERDGRAPH_URL: 'http://ng.test/graphql', ALLOW_HTTP: 'true' }),
      fetch: upstream.fetch,
    })
    const res = await app.request('/v2/users.json', { headers: { 'X-Api-Key': 'NRAK-VALID' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ users: [] })
    expect(upstream.sent).toHaveLength(1)
  })
})

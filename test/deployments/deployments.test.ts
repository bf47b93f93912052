import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEMO_KEYS, harness, nrqlRows } from '../helpers/harness'
import { expectGolden, pretty } from '../helpers/golden'
import { expectStrictV2 } from '../helpers/strict-client'
import { apmGuid } from '../../simulator'

const now = Date.parse('2026-11-20T12:00:30.000Z')
beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now }))
afterAll(() => void vi.useRealTimers())

interface Deployment {
  id: number
  revision: string
  changelog: string | null
  description: string | null
  user: string | null
  timestamp: string
  links: { application: number }
}
type List = { deployments: Deployment[]; links: Record<string, string> }

const base = '/v2/applications/9045822/deployments'
const guid = apmGuid(1000001, 9045822)
const upstream = (h: ReturnType<typeof harness>) =>
  h.log.reduce((n, line) => n + Number(line['upstreamRequests'] ?? 0), 0)

function post(h: ReturnType<typeof harness>, path: string, body: string, type: string) {
  return h.get(path, { method: 'POST', body, headers: { 'Content-Type': type } })
}

describe('GET /v2/applications/:id/deployments', () => {
  it('matches the golden JSON and XML bodies: newest first, null text fields, +00:00 times', async () => {
    const h = harness()
    const text = await (await h.get(`${base}.json`)).text()
    const body = JSON.parse(text) as List
    expectStrictV2(body, 'deployments')
    expectGolden('deployments-9045822.json', pretty(text))
    expectGolden('deployments-9045822.xml', await (await h.get(`${base}.xml`)).text())
    const truth = h.dataset.deployments.of(guid)
    expect(body.deployments.map((d) => d.revision)).toEqual(truth.map((d) => d.version))
    expect(body.deployments.map((d) => Date.parse(d.timestamp))).toEqual(
      truth.map((d) => Math.floor(d.timestamp / 1000) * 1000)
    )
    expect(body.deployments.some((d) => d.description === null)).toBe(true)
    for (const d of body.deployments) {
      expect(Object.keys(d)).toEqual([
        'id',
        'revision',
        'changelog',
        'description',
        'user',
        'timestamp',
        'links',
      ])
      expect(d.id).toBeGreaterThan(0)
      expect(d.id).toBeLessThanOrEqual(0x7fffffff)
      expect(d.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/)
      expect(d.links).toEqual({ application: 9045822 })
    }
    expect(body.links).toEqual({ 'deployment.agent': '/v2/applications/{application_id}' })
  })

  it('gives the same IDs on another instance (minted from the NerdGraph deployment IDs)', async () => {
    const ids = async () =>
      ((await (await harness().get(`${base}.json`)).json()) as List).deployments.map((d) => d.id)
    const first = await ids()
    expect(new Set(first).size).toBe(first.length)
    expect(await ids()).toEqual(first)
  })

  it('pages 200 per page with Link headers, and answers an empty list past the end', async () => {
    // Seeded straight into NerdGraph's store as history: shown at once (writeVisibilityMs 0).
    const h = harness({}, { limits: { writeVisibilityMs: 0 } })
    for (let n = 0; n < 205; n++) {
      h.dataset.deployments.add({
        deploymentId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        entityGuid: guid,
        version: `r${n}`,
        changelog: null,
        commit: null,
        description: null,
        user: null,
        timestamp: now - 1000 * (n + 1),
        deploymentType: 'BASIC',
        groupId: null,
        deepLink: null,
      })
    }
    const first = await h.get(`${base}.json`)
    const page1 = (await first.json()) as List
    expect(page1.deployments).toHaveLength(200)
    expect(page1.deployments[0]!.revision).toBe('r0')
    expect(first.headers.get('link')).toBe(
      `<http://localhost${base}.json?page=2>; rel="next", <http://localhost${base}.json?page=2>; rel="last"`
    )
    const page2 = (await (await h.get(`${base}.json?page=2`)).json()) as List
    expect(page2.deployments).toHaveLength(5 + h.dataset.deployments.of(guid).length - 205)
    expect(page2.deployments.map((d) => d.id)).not.toContain(page1.deployments[0]!.id)
    const past = await h.get(`${base}.json?page=3`)
    expect(((await past.json()) as List).deployments).toEqual([])
  })

  // Issue 23, item 22: deploymentSearch answers at most 2,000 (schema ChangeTrackingSearchFilter.limit);
  // v2 listed every deployment (D-deploy "Record and view deployments"), 200 a page with Link headers.
  it('pages past 2,000 deployments in time windows, one request a page, ties at page edges kept', async () => {
    // Seeded straight into NerdGraph's store as history: shown at once (writeVisibilityMs 0).
    const h = harness({ ACCOUNT_ID: '1000001' }, { limits: { writeVisibilityMs: 0 } })
    const extra = 2250
    for (let n = 0; n < extra; n++) {
      h.dataset.deployments.add({
        deploymentId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        entityGuid: guid,
        version: `r${n}`,
        changelog: null,
        commit: null,
        description: null,
        user: null,
        timestamp: now - 1000 * (Math.floor(n / 3) + 1), // three a second: ties straddle pages
        deploymentType: 'BASIC',
        groupId: null,
        deepLink: null,
      })
    }
    const total = h.dataset.deployments.of(guid).length
    const last = Math.ceil(total / 200)
    const seen: string[] = []
    const ids = new Set<number>()
    for (let page = 1; page <= last; page++) {
      const before = upstream(h)
      const res = await h.get(`${base}.json?page=${page}`)
      expect(upstream(h) - before).toBe(1)
      const body = (await res.json()) as List
      expect(body.deployments).toHaveLength(page < last ? 200 : total - 200 * (last - 1))
      for (const d of body.deployments) {
        seen.push(d.revision)
        ids.add(d.id)
      }
      const link = res.headers.get('link') ?? ''
      if (page < last) {
        expect(link).toContain(`?page=${page + 1}>; rel="next"`)
        expect(link).toContain(`?page=${last}>; rel="last"`)
      } else expect(link).not.toContain('rel="next"')
    }
    expect(seen).toEqual(h.dataset.deployments.of(guid).map((d) => d.version))
    expect(ids.size).toBe(total)
    // a fresh instance jumping to the last page walks the windows before it, once
    const fresh = harness({ ACCOUNT_ID: '1000001' }, { limits: { writeVisibilityMs: 0 } })
    for (const d of h.dataset.deployments.of(guid).slice(0, extra).reverse())
      fresh.dataset.deployments.add(d) // oldest first: the store puts a newer tie first
    const jump = (await (await fresh.get(`${base}.json?page=${last}`)).json()) as List
    expect(jump.deployments.map((d) => d.revision)).toEqual(seen.slice(200 * (last - 1)))
    expect(upstream(fresh)).toBe(last)
    const again = upstream(fresh)
    await fresh.get(`${base}.json?page=${last}`)
    expect(upstream(fresh) - again).toBe(1)
  })

  it('costs one NerdGraph request once the account is known', async () => {
    const h = harness({ ACCOUNT_ID: '1000001' })
    expect((await h.get(`${base}.json`)).status).toBe(200)
    expect(upstream(h)).toBe(1)
  })

  it('answers 404 in v2 shape for an unknown or invisible application', async () => {
    const h = harness()
    for (const [path, key, headers] of [
      ['/v2/applications/12345/deployments.json', DEMO_KEYS.all, {}],
      [`${base}.json`, DEMO_KEYS.one, {}],
      [`${base}.json`, DEMO_KEYS.one, { 'X-Account-Id': '1000001' }],
    ] as const) {
      const res = await h.get(path, { key, headers })
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({
        error: { title: 'No Application found with the given ID' },
      })
    }
    const xml = await h.get('/v2/applications/12345/deployments.xml')
    expect(xml.status).toBe(404)
    expect(await xml.text()).toContain('<title>No Application found with the given ID</title>')
  })
})

describe('POST /v2/applications/:id/deployments', () => {
  it('records a JSON deployment (201), which the next list shows first with the same ID', async () => {
    const h = harness()
    const res = await post(
      h,
      `${base}.json`,
      JSON.stringify({
        deployment: {
          revision: 'a1b2c3',
          changelog: 'Fixed the bugs',
          description: 'Release 42',
          user: 'datanerd@example.com',
        },
      }),
      'application/json'
    )
    expect(res.status).toBe(201)
    const created = (await res.json()) as { deployment: Deployment; links: object }
    expect(Object.keys(created)).toEqual(['deployment', 'links'])
    expect(created.deployment).toMatchObject({
      revision: 'a1b2c3',
      changelog: 'Fixed the bugs',
      description: 'Release 42',
      user: 'datanerd@example.com',
      timestamp: '2026-11-20T12:00:30+00:00',
      links: { application: 9045822 },
    })
    expect(created.links).toEqual({ 'deployment.agent': '/v2/applications/{application_id}' })
    // what NerdGraph recorded
    expect(h.dataset.deployments.of(guid)[0]).toMatchObject({
      version: 'a1b2c3',
      changelog: 'Fixed the bugs',
      description: 'Release 42',
      user: 'datanerd@example.com',
      timestamp: now,
    })
    const list = (await (await h.get(`${base}.json`)).json()) as List
    expect(list.deployments[0]).toEqual(created.deployment)
  })

  it('reads XML bodies, form fields and the query string, and answers XML on .xml', async () => {
    const h = harness()
    const xml = await post(
      h,
      `${base}.xml`,
      '<?xml version="1.0"?><deployment><revision>x&amp;1</revision><user>ci</user></deployment>',
      'application/xml'
    )
    expect(xml.status).toBe(201)
    const text = await xml.text()
    expect(text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<deployment_response>\n/)
    expect(text).toContain('<revision>x&amp;1</revision>')
    expect(text).toContain('<changelog nil="true"/>')
    const form = await post(
      h,
      `${base}.json`,
      'deployment[revision]=f+1&deployment[description]=from%20a%20form',
      'application/x-www-form-urlencoded'
    )
    expect(form.status).toBe(201)
    expect(((await form.json()) as { deployment: Deployment }).deployment).toMatchObject({
      revision: 'f 1',
      description: 'from a form',
      changelog: null,
    })
    const query = await h.get(`${base}.json?deployment[revision]=q1&deployment[user]=deployer`, {
      method: 'POST',
    })
    expect(query.status).toBe(201)
    expect(
      h.dataset.deployments
        .of(guid)
        .slice(0, 3)
        .map((d) => d.version)
    ).toEqual(['q1', 'f 1', 'x&1'])
  })

  it('takes a timestamp to the second and refuses one in the future or older than a day', async () => {
    const h = harness()
    const at = (timestamp: string) =>
      post(
        h,
        `${base}.json`,
        JSON.stringify({ deployment: { revision: 'r', timestamp } }),
        'application/json'
      )
    const ok = await at('2026-11-20T10:15:36.789Z')
    expect(ok.status).toBe(201)
    expect(((await ok.json()) as { deployment: Deployment }).deployment.timestamp).toBe(
      '2026-11-20T10:15:36+00:00'
    )
    for (const [timestamp, message] of [
      ['2026-11-20T12:05:00Z', 'Timestamp must not be in the future'],
      [
        '2026-11-18T12:00:00Z',
        'Timestamp must be within the last 24 hours (NerdGraph change tracking limit)',
      ],
      ['yesterday', 'Timestamp is not an ISO 8601 time'],
    ]) {
      const res = await at(timestamp!)
      expect(res.status).toBe(422)
      expect(await res.json()).toEqual({
        error: { title: 'Validation failed', messages: [message] },
      })
    }
  })

  // v2: "It must be after the latest existing deployment" (New Relic docs "Record and view
  // deployments", timestamp field); NerdGraph records older ones, so v2bridge asks first.
  it('refuses a timestamp not after the latest deployment, at one extra request only when sent', async () => {
    const h = harness({ ACCOUNT_ID: '1000001' })
    const at = (timestamp?: string) =>
      post(
        h,
        `${base}.json`,
        JSON.stringify({ deployment: { revision: 'r', ...(timestamp ? { timestamp } : {}) } }),
        'application/json'
      )
    expect((await at('2026-11-20T11:00:00Z')).status).toBe(201)
    expect(upstream(h)).toBe(2) // the search, then the mutation
    const recorded = h.dataset.deployments.of(guid).length
    for (const timestamp of ['2026-11-20T11:00:00Z', '2026-11-20T10:59:59Z']) {
      const res = await at(timestamp)
      expect(res.status).toBe(422)
      expect(await res.json()).toEqual({
        error: {
          title: 'Validation failed',
          messages: ['Timestamp must be after the latest deployment'],
        },
      })
    }
    expect(h.dataset.deployments.of(guid)).toHaveLength(recorded)
    expect((await at('2026-11-20T11:00:01Z')).status).toBe(201)
    const before = upstream(h)
    expect((await at()).status).toBe(201)
    expect(upstream(h) - before).toBe(1)
    // explain mode makes the check (a read) and shows the mutation, never sending it
    const fresh = harness({ ACCOUNT_ID: '1000001' }, { limits: { writeVisibilityMs: 0 } })
    const seeded = fresh.dataset.deployments.of(guid).length
    const explained = await fresh.get(`${base}.json`, {
      method: 'POST',
      headers: { 'X-V2bridge-Explain': '1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ deployment: { revision: 'e', timestamp: '2026-11-20T11:30:00Z' } }),
    })
    expect(explained.status).toBe(200)
    const { explain } = (await explained.json()) as { explain: { nerdgraph: { kind: string }[] } }
    expect(explain.nerdgraph.map((d) => d.kind)).toEqual(['mutation'])
    expect(fresh.dataset.deployments.of(guid)).toHaveLength(seeded)
  })

  it('answers 400 without a deployment or a revision, and 422 with every field limit broken', async () => {
    const h = harness()
    const send = (body: unknown) =>
      post(h, `${base}.json`, JSON.stringify(body), 'application/json')
    for (const body of [{}, { revision: 'r' }, { deployment: {} }]) {
      const res = await send(body)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ error: { title: 'missing parameter: deployment' } })
    }
    for (const body of [{ deployment: { user: 'u' } }, { deployment: { revision: '  ' } }]) {
      const res = await send(body)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ error: { title: 'Revision parameter required' } })
    }
    const res = await send({
      deployment: {
        revision: 'r'.repeat(128),
        changelog: 'c'.repeat(65536),
        description: 'ship it 🚀',
        user: 'u'.repeat(32),
      },
    })
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({
      error: {
        title: 'Validation failed',
        messages: [
          'Revision is too long (maximum is 127 characters)',
          'Changelog is too long (maximum is 65535 characters)',
          'Description contains 4-byte UTF-8 characters (such as emoji), which are not allowed',
          'User is too long (maximum is 31 characters)',
        ],
      },
    })
    const limits = await send({
      deployment: { revision: 'r'.repeat(127), changelog: 'é'.repeat(65535), user: 'u'.repeat(31) },
    })
    expect(limits.status).toBe(201)
    expect(upstream(h)).toBe(2) // only the valid one reached NerdGraph (after one search)
    const xml = await post(
      h,
      `${base}.xml`,
      '<deployment><user>u</user></deployment>',
      'application/xml'
    )
    expect(xml.status).toBe(400)
    expect(await xml.text()).toContain('<title>Revision parameter required</title>')
  })

  it('answers 404 for an unknown application, with a pinned account too', async () => {
    const body = JSON.stringify({ deployment: { revision: 'r' } })
    for (const settings of [{}, { ACCOUNT_ID: '1000001' }]) {
      const h = harness(settings)
      const res = await post(h, '/v2/applications/12345/deployments.json', body, 'application/json')
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({
        error: { title: 'No Application found with the given ID' },
      })
    }
  })

  it('costs one NerdGraph request once the account is known', async () => {
    const h = harness({ ACCOUNT_ID: '1000001' })
    const body = JSON.stringify({ deployment: { revision: 'r' } })
    expect((await post(h, `${base}.json`, body, 'application/json')).status).toBe(201)
    expect(upstream(h)).toBe(1)
    expect(h.sim.stats().graphqlRequests).toBe(1)
  })

  it('is undone by the simulator reset', async () => {
    const h = harness()
    const before = h.dataset.deployments.of(guid).length
    await post(
      h,
      `${base}.json`,
      JSON.stringify({ deployment: { revision: 'r' } }),
      'application/json'
    )
    expect(h.dataset.deployments.of(guid)).toHaveLength(before + 1)
    const reset = await h.sim.fetch(new Request('http://sim/_sim/reset', { method: 'POST' }))
    expect(reset.status).toBe(200)
    expect(h.dataset.deployments.of(guid)).toHaveLength(before)
  })
})

describe('DELETE /v2/applications/:id/deployments/:deployment_id', () => {
  it('answers 409 saying NerdGraph deployments are immutable, and changes nothing', async () => {
    const h = harness()
    const list = (await (await h.get(`${base}.json`)).json()) as List
    const before = h.dataset.deployments.of(guid).length
    for (const format of ['json', 'xml'] as const) {
      const res = await h.get(`${base}/${list.deployments[1]!.id}.${format}`, { method: 'DELETE' })
      expect(res.status).toBe(409)
      const title =
        'Deployments cannot be deleted: NerdGraph keeps them as immutable change tracking events'
      if (format === 'json') expect(await res.json()).toEqual({ error: { title } })
      else expect(await res.text()).toContain(`<title>${title}</title>`)
    }
    expect(h.dataset.deployments.of(guid)).toHaveLength(before)
  })

  it('answers 404 for a deployment ID the application does not have', async () => {
    const h = harness()
    for (const id of ['12345', 'abc']) {
      const res = await h.get(`${base}/${id}.json`, { method: 'DELETE' })
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({
        error: { title: 'No Deployment found with the given ID' },
      })
    }
    const app = await h.get('/v2/applications/12345/deployments/1.json', { method: 'DELETE' })
    expect(app.status).toBe(404)
    expect(await app.json()).toEqual({ error: { title: 'No Application found with the given ID' } })
  })
})

describe('deployments and NRQL', () => {
  it('a deployment created through v2 is in the next NRQL FROM Deployment (the simulator holds one store)', async () => {
    // NRQL read straight from the simulator, not by the writing key through v2bridge: the write
    // shows at once (writeVisibilityMs 0; read-your-writes: test/own-writes.test.ts).
    const h = harness({}, { limits: { writeVisibilityMs: 0 } })
    const res = await h.get('/v2/applications/9045822/deployments.json', {
      method: 'POST',
      body: JSON.stringify({ deployment: { revision: 'nrql-1', user: 'ci-bot', changelog: 'c' } }),
      headers: { 'Content-Type': 'application/json' },
    })
    expect(res.status).toBe(201)
    const q = `SELECT version, user, changelog, entity.name FROM Deployment WHERE version = 'nrql-1'`
    expect(await nrqlRows(h.sim, q)).toEqual([
      {
        version: 'nrql-1',
        user: 'ci-bot',
        changelog: 'c',
        'entity.name': 'Checkout Service (java)',
      },
    ])
  })
})

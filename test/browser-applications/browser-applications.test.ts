import { describe, expect, it } from 'vitest'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { expectStrictV2 } from '../helpers/strict-client'

interface BrowserApp {
  id: number
  name: string
  browser_monitoring_key: string
  loader_script: string
}

type H = ReturnType<typeof harness>

async function list(h: H, path: string, init = {}) {
  const res = await h.get(path, init)
  expect(res.status).toBe(200)
  return { res, body: (await res.json()) as { browser_applications: BrowserApp[] } }
}

const post = (h: H, body: unknown, headers: Record<string, string> = {}) =>
  h.get('/v2/browser_applications.json', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  })

describe('GET /v2/browser_applications', () => {
  it('lists browser apps with the key and loader script of each', async () => {
    const h = harness()
    const { res, body } = await list(h, '/v2/browser_applications.json?filter[name]=Marketing')
    expect(res.headers.get('link')).toBeNull()
    expectStrictV2(body as unknown as Record<string, unknown>, 'browser_applications')
    expect(body.browser_applications).toHaveLength(1)
    const [app] = body.browser_applications
    expect(Object.keys(app!)).toEqual(['id', 'name', 'browser_monitoring_key', 'loader_script'])
    expect(app).toMatchObject({ id: 204261001, name: 'Marketing Site' })
    expect(app!.browser_monitoring_key).toMatch(/^[0-9a-f]{10}$/)
    expect(app!.loader_script).toContain(`licenseKey:"${app!.browser_monitoring_key}"`)
    expect(app!.loader_script.startsWith('<script type="text/javascript">')).toBe(true)
    const xml = await (await h.get('/v2/browser_applications.xml?filter[ids]=204261001')).text()
    expect(xml).toContain(
      '<browser_applications_response>\n  <browser_applications>\n    <browser_application>\n      <id>204261001</id>'
    )
    expect(xml).toContain('&lt;script type=&quot;text/javascript&quot;&gt;')
  })

  it('filters by ids and sees only the key’s accounts', async () => {
    const h = harness()
    const all = (await list(h, '/v2/browser_applications.json')).body.browser_applications
    // by ID, as v2's ID lists (New Relic docs "List an app's host IDs and instance IDs")
    expect(all.length).toBeGreaterThan(2)
    expect(all.map((a) => a.id)).toEqual(all.map((a) => a.id).sort((a, b) => a - b))
    const ids = all.slice(0, 2).map((a) => a.id)
    const picked = await list(h, `/v2/browser_applications.json?filter[ids]=${ids.join(',')}`)
    expect(picked.body.browser_applications.map((a) => a.id).sort()).toEqual([...ids].sort())
    const staging = await list(h, '/v2/browser_applications.json', { key: DEMO_KEYS.one })
    const names = staging.body.browser_applications.map((a) => a.name)
    expect(names).toContain('Docs Portal (staging)')
    expect(names).not.toContain('Marketing Site')
  })

  it('walks every page of the key’s own account by Link, one request a page once warm', async () => {
    const h = harness()
    for (let i = 0; i < 230; i++) {
      h.dataset.resources.state.createBrowser(1000001, `Site ${String(i).padStart(3, '0')}`, 'LITE')
      h.dataset.resources.state.createBrowser(1000002, `Staging ${i}`, 'LITE')
    }
    // the demo key was created in 1000001: the list is that account's (src/entities/accounts.ts)
    const total = h.dataset
      .entities()
      .filter((e) => e.domain === 'BROWSER' && e.accountId === 1000001).length
    const walk = async () => {
      const perPage: number[] = []
      let seen = 0
      let url: string | undefined = 'https://v2bridge.test/v2/browser_applications.json'
      while (url) {
        const before = h.sim.stats().graphqlRequests
        const { res, body } = await list(h, url)
        perPage.push(h.sim.stats().graphqlRequests - before)
        seen += body.browser_applications.length
        url = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
      }
      return { seen, perPage }
    }
    const cold = await walk()
    expect(cold.seen).toBe(total)
    // a page is its search and the details it lacks; page 1 also learns the key's own account (its
    // user, then two pages of that user's keys)
    expect(cold.perPage).toEqual([5, 2])
    expect((await walk()).perPage).toEqual([1, 1])
  })
})

describe('POST /v2/browser_applications', () => {
  it('creates a Lite browser app in the pinned account: 201 with its key and loader', async () => {
    const h = harness()
    const res = await post(
      h,
      { browser_application: { name: 'My Browser App' } },
      { 'X-Account-Id': '1000002' }
    )
    expect(res.status).toBe(201)
    const body = (await res.json()) as { browser_application: BrowserApp }
    expect(Object.keys(body)).toEqual(['browser_application'])
    const created = h.dataset.resources.state.createdBrowser[0]!
    expect(created).toMatchObject({
      accountId: 1000002,
      name: 'My Browser App',
      loaderType: 'LITE',
    })
    expect(body.browser_application).toEqual({
      id: created.id,
      name: 'My Browser App',
      browser_monitoring_key: created.licenseKey,
      loader_script: body.browser_application.loader_script,
    })
    const listed = await list(h, `/v2/browser_applications.json?filter[ids]=${created.id}`, {
      headers: { 'X-Account-Id': '1000002' },
    })
    expect(listed.body.browser_applications).toEqual([body.browser_application])
  })

  it('creates in the account the key was created in, also when the key sees several (issue 23)', async () => {
    const h = harness()
    const one = await post(
      h,
      { browser_application: { name: 'Staging Site' } },
      { 'X-Api-Key': DEMO_KEYS.one }
    )
    expect(one.status).toBe(201)
    expect(h.dataset.resources.state.createdBrowser[0]?.accountId).toBe(1000002)
    // DEMO_KEYS.all sees 1000001 and 1000002 and was created in 1000001 (an unmodified client cannot
    // send X-Account-Id; v2 created in the key's own account).
    const several = await post(h, { browser_application: { name: 'Where?' } })
    expect(several.status).toBe(201)
    expect(h.dataset.resources.state.createdBrowser[1]?.accountId).toBe(1000001)
  })

  it('answers 400 for a POST without a create body and 422 for a blank name, creating nothing', async () => {
    const h = harness()
    const missing = await post(h, { name: 'x' }, { 'X-Account-Id': '1000002' })
    // A POST here is a create, never a list read (issue 23, item 1; explorer: browser_application
    // is required).
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({
      error: { title: 'missing parameter: browser_application' },
    })
    const blank = await post(
      h,
      { browser_application: { name: ' ' } },
      { 'X-Account-Id': '1000002' }
    )
    expect(blank.status).toBe(422)
    expect(await blank.json()).toEqual({
      error: { title: 'Validation failed', messages: ["Name can't be blank"] },
    })
    expect(h.dataset.resources.state.createdBrowser).toHaveLength(0)
  })
})

describe('a create when NerdGraph fails', () => {
  it('sends the mutation once on a 5xx, answers 502 and creates nothing', async () => {
    const h = harness()
    await h.sim.fetch(
      new Request('http://simulator.test/_sim/faults', {
        method: 'POST',
        body: JSON.stringify({ status: 503, count: 1 }),
      })
    )
    const before = h.sim.stats().graphqlRequests
    const res = await post(
      h,
      { browser_application: { name: 'Once' } },
      { 'X-Account-Id': '1000002' }
    )
    expect(res.status).toBe(502)
    expect(h.sim.stats().graphqlRequests - before).toBe(1)
    expect(h.dataset.resources.state.createdBrowser).toHaveLength(0)
  })
})

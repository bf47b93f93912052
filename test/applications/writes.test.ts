import { describe, expect, it } from 'vitest'
import { DEMO_KEYS, harness } from '../helpers/harness'

type App = {
  application: { id: number; name: string; reporting: boolean; settings: Record<string, unknown> }
}

function put(h: ReturnType<typeof harness>, path: string, body: string, type = 'application/json') {
  return h.get(path, { method: 'PUT', body, headers: { 'Content-Type': type } })
}

describe('PUT /v2/applications/:id', () => {
  it('updates name and apdex thresholds (200, the full application), which the next GET shows', async () => {
    // A list filtered by the new name searches NerdGraph's index, which shows a rename after the live
    // delay: turned off here (writeVisibilityMs 0); the key's own reads are in test/own-writes.test.ts.
    const h = harness({}, { limits: { writeVisibilityMs: 0 } })
    const res = await put(
      h,
      '/v2/applications/9045851.json',
      JSON.stringify({
        application: {
          name: 'Recommendations (renamed)',
          settings: {
            app_apdex_threshold: 0.7,
            end_user_apdex_threshold: 5,
            enable_real_user_monitoring: true,
          },
          extra: 'ignored',
        },
      })
    )
    expect(res.status).toBe(200)
    const body = (await res.json()) as App & { links: object }
    expect(Object.keys(body)).toEqual(['application', 'links'])
    expect(body.application).toMatchObject({ id: 9045851, name: 'Recommendations (renamed)' })
    expect(body.application.settings).toMatchObject({
      app_apdex_threshold: 0.7,
      end_user_apdex_threshold: 5,
    })
    const next = (await (await h.get('/v2/applications/9045851.json')).json()) as App
    expect(next.application.name).toBe('Recommendations (renamed)')
    expect(next.application.settings['app_apdex_threshold']).toBe(0.7)
    const listed = (await (await h.get('/v2/applications.json?filter[name]=renamed')).json()) as {
      applications: { id: number }[]
    }
    expect(listed.applications.map((a) => a.id)).toEqual([9045851])
  })

  // v2's GET showed the setting a PUT changed (v2 explorer applications.json: the same
  // `settings.end_user_apdex_threshold` PUT takes); NerdGraph keeps it on the browser application the
  // APM application SERVES (schema EntityRelationshipEdgeType.SERVES, BrowserApplicationSettings),
  // while the browser timeslices recorded before the PUT keep the old T.
  it('shows a new end_user_apdex_threshold on the next GET, before new timeslices carry it', async () => {
    const h = harness()
    const path = '/v2/applications/9045822.json'
    const before = (await (await h.get(path)).json()) as App
    expect(before.application.settings['end_user_apdex_threshold']).toBe(7)
    const res = await put(
      h,
      path,
      JSON.stringify({ application: { settings: { end_user_apdex_threshold: 5 } } })
    )
    expect(res.status).toBe(200)
    const next = (await (await h.get(path)).json()) as App & {
      application: { end_user_summary: { apdex_target: number } }
    }
    expect(next.application.settings['end_user_apdex_threshold']).toBe(5)
    expect(next.application.end_user_summary.apdex_target).toBe(5)
    // the timeslices of the summary window still say 7 (recorded before the PUT)
    const data = (await (
      await h.get(
        '/v2/applications/9045822/metrics/data.json?names[]=EndUser/Apdex&values[]=threshold&summarize=true'
      )
    ).json()) as { metric_data: { metrics: { timeslices: { values: { threshold: number } }[] }[] } }
    expect(data.metric_data.metrics[0]!.timeslices[0]!.values.threshold).toBe(7)
  })

  // issue 37 item 4: a PUT changes exactly the fields it names (v2 explorer applications PUT; NerdGraph
  // agentApplicationSettingsUpdate: unspecified settings keep their values).
  it('leaves real user monitoring off when a PUT sends the shown end_user_apdex_threshold back', async () => {
    const h = harness()
    const path = '/v2/applications/9045851.json' // no browser monitoring
    const shown = (await (await h.get(path)).json()) as App
    expect(shown.application.settings['enable_real_user_monitoring']).toBe(false)
    const threshold = shown.application.settings['end_user_apdex_threshold']
    for (const settings of [
      { end_user_apdex_threshold: threshold },
      shown.application.settings,
      { end_user_apdex_threshold: 5 },
    ]) {
      const res = await put(h, path, JSON.stringify({ application: { settings } }))
      expect(res.status).toBe(200)
      const answered = (await res.json()) as App
      expect(answered.application.settings['enable_real_user_monitoring']).toBe(false)
      const next = (await (await h.get(path)).json()) as App
      expect(next.application.settings['enable_real_user_monitoring']).toBe(false)
      expect(next.application).not.toHaveProperty('end_user_summary')
    }
    // turning it on later takes the T sent while it was off
    const on = await put(
      h,
      path,
      JSON.stringify({ application: { settings: { enable_real_user_monitoring: true } } })
    )
    const want = { enable_real_user_monitoring: true, end_user_apdex_threshold: 5 }
    expect(((await on.json()) as App).application.settings).toMatchObject(want)
    const after = (await (await h.get(path)).json()) as App
    expect(after.application.settings['enable_real_user_monitoring']).toBe(true)
  })

  it('reads an XML body and answers XML', async () => {
    const h = harness()
    const res = await put(
      h,
      '/v2/applications/9045851.xml',
      '<application><settings><app_apdex_threshold>0.25</app_apdex_threshold></settings></application>',
      'application/xml'
    )
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain('<application_response>')
    expect(text).toContain('<app_apdex_threshold>0.25</app_apdex_threshold>')
  })

  it('answers 422 with messages for bad values and 400 without an application, before NerdGraph', async () => {
    const h = harness()
    const bad = await put(
      h,
      '/v2/applications/9045851.json',
      JSON.stringify({
        application: {
          name: ' ',
          settings: { app_apdex_threshold: -1, enable_real_user_monitoring: 'maybe' },
        },
      })
    )
    expect(bad.status).toBe(422)
    expect(await bad.json()).toEqual({
      error: {
        title: 'Validation error occurred when updating the application',
        messages: [
          "name can't be blank",
          'app_apdex_threshold must be a number greater than 0',
          'enable_real_user_monitoring must be true or false',
        ],
      },
    })
    const missing = await put(h, '/v2/applications/9045851.json', JSON.stringify({ name: 'x' }))
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({ error: { title: 'missing parameter: application' } })
    expect(h.sim.stats().graphqlRequests).toBe(0)
  })

  it('answers 404 for an unknown application, with a pinned account too', async () => {
    for (const settings of [{}, { ACCOUNT_ID: '1000001' }]) {
      const h = harness(settings)
      const body = JSON.stringify({ application: { settings: { app_apdex_threshold: 1 } } })
      const res = await put(h, '/v2/applications/12345.json', body)
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({
        error: { title: 'No Application found with the given ID' },
      })
    }
  })

  it('costs one NerdGraph request, the mutation, once GET or a list page has shown the application', async () => {
    const h = harness({ ACCOUNT_ID: '1000001' })
    const shown = (await (await h.get('/v2/applications/9045851.json')).json()) as App
    const before = h.sim.stats().graphqlRequests
    const body = JSON.stringify({ application: { settings: { app_apdex_threshold: 1.5 } } })
    const res = await put(h, '/v2/applications/9045851.json', body)
    expect(res.status).toBe(200)
    expect(h.sim.stats().graphqlRequests - before).toBe(1)
    const answered = (await res.json()) as App & {
      application: { application_summary: Record<string, unknown> }
    }
    // GET's record, in GET's key order, with what the mutation answered
    expect(Object.keys(answered.application)).toEqual(Object.keys(shown.application))
    expect(answered.application.settings['app_apdex_threshold']).toBe(1.5)
    expect(answered.application.application_summary['apdex_target']).toBe(1.5)
    expect(answered.application.name).toBe(shown.application.name)
    // a list page remembers its records as well (XML too)
    await h.get('/v2/applications.json?filter[ids]=9045866')
    const listedBefore = h.sim.stats().graphqlRequests
    const xml = await put(
      h,
      '/v2/applications/9045866.xml',
      '<application><name>Cart Gateway (renamed)</name></application>',
      'application/xml'
    )
    expect(xml.status).toBe(200)
    expect(h.sim.stats().graphqlRequests - listedBefore).toBe(1)
    expect(await xml.text()).toContain('<name>Cart Gateway (renamed)</name>')
    // the next PUT starts from the answer just given: still one request, both changes shown
    const again = await put(
      h,
      '/v2/applications/9045851.json',
      JSON.stringify({ application: { name: 'Reco' } })
    )
    const both = (await again.json()) as App
    expect(both.application).toMatchObject({ name: 'Reco', settings: { app_apdex_threshold: 1.5 } })
    expect(h.sim.stats().graphqlRequests - listedBefore).toBe(2)
  })

  it('reads the application first when nothing has shown it yet (two requests)', async () => {
    const h = harness({ ACCOUNT_ID: '1000001' })
    const body = JSON.stringify({ application: { settings: { app_apdex_threshold: 1 } } })
    const res = await put(h, '/v2/applications/9045851.json', body)
    expect(res.status).toBe(200)
    expect(((await res.json()) as App).application.settings['app_apdex_threshold']).toBe(1)
    expect(h.sim.stats().graphqlRequests).toBe(2)
  })

  it('applies enable_real_user_monitoring as the browser loader, which the next GET shows', async () => {
    const h = harness()
    type Shown = App & { application: { end_user_summary?: object } }
    const path = '/v2/applications/9045822.json'
    const first = (await (await h.get(path)).json()) as Shown
    expect(first.application.settings['enable_real_user_monitoring']).toBe(true)
    expect(first.application.end_user_summary).toBeDefined()
    const off = { application: { settings: { enable_real_user_monitoring: false } } }
    const res = await put(h, path, JSON.stringify(off))
    expect(res.status).toBe(200)
    const answered = (await res.json()) as Shown
    expect(answered.application.settings['enable_real_user_monitoring']).toBe(false)
    expect(answered.application.end_user_summary).toBeUndefined()
    const next = (await (await h.get(path)).json()) as Shown
    expect(next.application.settings['enable_real_user_monitoring']).toBe(false)
    expect(next.application.end_user_summary).toBeUndefined()
    const on = { application: { settings: { enable_real_user_monitoring: 'true' } } }
    expect((await put(h, path, JSON.stringify(on))).status).toBe(200)
    const back = (await (await h.get(path)).json()) as Shown
    expect(back.application.settings['enable_real_user_monitoring']).toBe(true)
  })
})

describe('DELETE /v2/applications/:id', () => {
  it('answers 409 for a reporting application and leaves it in place', async () => {
    const h = harness()
    const res = await h.get('/v2/applications/9045822.json', { method: 'DELETE' })
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({
      error: { title: 'Cannot delete an application that is still reporting data.' },
    })
    expect((await h.get('/v2/applications/9045822.json')).status).toBe(200)
  })

  it('costs one NerdGraph request once GET has shown the application', async () => {
    const h = harness({ ACCOUNT_ID: '1000001' })
    const shown = await (await h.get('/v2/applications/9045874.json')).json()
    const before = h.sim.stats().graphqlRequests
    const res = await h.get('/v2/applications/9045874.json', { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual(shown)
    expect(h.sim.stats().graphqlRequests - before).toBe(1)
    // forgotten with the application: a second DELETE reads, finds nothing, answers 404
    expect((await h.get('/v2/applications/9045874.json', { method: 'DELETE' })).status).toBe(404)
  })

  it('deletes a stopped application (200 with it), which then leaves list and show', async () => {
    const h = harness()
    const res = await h.get('/v2/applications/9045874.xml', { method: 'DELETE' })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain('<id>9045874</id>')
    expect(text).toContain('<reporting>false</reporting>')
    expect((await h.get('/v2/applications/9045874.json')).status).toBe(404)
    const list = (await (await h.get('/v2/applications.json?filter[ids]=9045874')).json()) as {
      applications: unknown[]
    }
    expect(list.applications).toEqual([])
    // the simulator reset brings it back
    await h.sim.fetch(new Request('http://sim/_sim/reset', { method: 'POST' }))
    expect((await h.get('/v2/applications/9045874.json')).status).toBe(200)
  })

  it('answers 404 for an unknown application or one the key cannot see', async () => {
    const h = harness()
    for (const [path, key] of [
      ['/v2/applications/12345.json', DEMO_KEYS.all],
      ['/v2/applications/9045874.json', DEMO_KEYS.one],
    ] as const) {
      const res = await h.get(path, { method: 'DELETE', key })
      expect(res.status).toBe(404)
    }
    expect((await h.get('/v2/applications/9045874.json')).status).toBe(200)
  })
})

describe('PUT /v2/applications/:id name limit (issue 22, item 13)', () => {
  it('answers 422 for a name past 255 characters before NerdGraph is asked', async () => {
    const h = harness()
    const before = h.sim.stats().graphqlRequests
    const res = await put(
      h,
      '/v2/applications/9045851.json',
      JSON.stringify({ application: { name: 'n'.repeat(256) } })
    )
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({
      error: {
        title: 'Validation error occurred when updating the application',
        messages: ['name is too long (maximum is 255 characters)'],
      },
    })
    expect(h.sim.stats().graphqlRequests).toBe(before)
  })
})

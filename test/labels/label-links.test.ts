/**
 * Labels and the applications a write names (issue 23, items 3 and 4): a PUT with no applications
 * (the explorer's labels PUT: "You may omit the applications OR servers arrays"; ambitioninc's
 * newrelic-api `labels.create` sends `"applications": [], "servers": []`), and a DELETE naming
 * applications (the explorer's labels DELETE: "When applications are provided, this endpoint will
 * remove those applications from the label").
 */
import { describe, expect, it } from 'vitest'
import { harness } from '../helpers/harness'

type H = ReturnType<typeof harness>

const send = (h: H, method: string, path: string, body: unknown) =>
  h.get(path, {
    method,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  })

/** What NerdGraph holds now: the newest tags, before its reads show them (simulator/data/visibility.ts). */
const tagsOf = (h: H, appId: number) => {
  const e = h.dataset.entities().find((x) => x.domain === 'APM' && x.domainId === String(appId))!
  return h.dataset.resources.state.tags(e.guid) ?? e.tags()
}

const empty = { green: [], orange: [], red: [], gray: [] }

describe('PUT /v2/labels with no applications', () => {
  it('answers 201 with the label and empty links, as v2 created it, changing no tag', async () => {
    const h = harness()
    for (const links of [{ applications: [], servers: [] }, { servers: [] }, undefined]) {
      const res = await send(h, 'PUT', '/v2/labels.json', {
        label: { category: 'Owner', name: 'Nobody', ...(links ? { links } : {}) },
      })
      expect(res.status, JSON.stringify(links)).toBe(201)
      // The full label shape of client-go pkg/apm labels_test.go, with nothing linked.
      expect(await res.json()).toEqual({
        label: {
          key: 'Owner:Nobody',
          category: 'Owner',
          name: 'Nobody',
          application_health_status: empty,
          server_health_status: empty,
          origins: { apm: [], synthetics: [], agents: [] },
          links: { applications: [], servers: [] },
        },
      })
    }
    for (const id of [9045822, 9045837, 9045851])
      expect(tagsOf(h, id).map((t) => t.key)).not.toContain('Owner')
  })

  it('answers 304 when an application of the account already carries the label', async () => {
    const h = harness()
    // docs-website "Create labels for apps (API v2)": 304 when the label exists, nothing changed.
    const res = await send(h, 'PUT', '/v2/labels.json', {
      label: { category: 'Team', name: 'Payments', links: { applications: [], servers: [] } },
    })
    expect(res.status).toBe(304)
    expect(await res.text()).toBe('')
  })
})

describe('DELETE /v2/labels/{key} naming applications', () => {
  it('removes the label from the named applications only and answers what is left', async () => {
    const h = harness()
    const res = await send(h, 'DELETE', '/v2/labels/Team:Payments.json', {
      label: { links: { applications: [9045893] } },
    })
    expect(res.status).toBe(200)
    const { label } = (await res.json()) as { label: { links: { applications: number[] } } }
    expect(label).toMatchObject({ key: 'Team:Payments', links: { applications: [9045822] } })
    expect(tagsOf(h, 9045893).map((t) => t.key)).not.toContain('Team')
    expect(tagsOf(h, 9045822)).toContainEqual({ key: 'Team', values: ['Payments'] })
    const list = await h.get('/v2/labels.json')
    const labels = ((await list.json()) as { labels: { key: string; links: object }[] }).labels
    expect(labels.find((l) => l.key === 'Team:Payments')!.links).toEqual({
      applications: [9045822],
      servers: [],
    })
  })

  it('takes the applications as a query or form list too, and still 404s an unknown label', async () => {
    const h = harness()
    const res = await h.get('/v2/labels/Team:Storefront.json?applications=9045866', {
      method: 'DELETE',
    })
    expect(res.status).toBe(200)
    expect(tagsOf(h, 9045866).map((t) => t.key)).not.toContain('Team')
    expect(tagsOf(h, 9045837)).toContainEqual({ key: 'Team', values: ['Storefront'] })
    const unknown = await h.get('/v2/labels/Team:Nobody.json?applications=9045866', {
      method: 'DELETE',
    })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ error: { title: 'No Label found with the given ID' } })
  })

  it('removes it from every application when none is named, as before', async () => {
    const h = harness()
    const res = await h.get('/v2/labels/Team:Storefront.json', { method: 'DELETE' })
    expect(res.status).toBe(200)
    const { label } = (await res.json()) as { label: { links: { applications: number[] } } }
    expect(label.links.applications).toEqual([9045837, 9045866])
    for (const id of [9045837, 9045866])
      expect(tagsOf(h, id).map((t) => t.key)).not.toContain('Team')
  })
})

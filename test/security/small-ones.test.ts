/**
 * The small ones of issue 12 (items 13 and 14): `%` and `_` matched literally in `filter[name]`, an
 * upstream 403, CR in XML text, and a `to` in the future.
 */
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { renderXml } from '../../src/http/render/xml'
import { fakeFetch } from '../helpers/fake-fetch'
import { DEMO_KEYS, harness } from '../helpers/harness'

type AppList = { applications: { name: string }[] }

describe('filter[name]', () => {
  it('matches % and _ as characters, not as wildcards', async () => {
    const { get } = harness()
    for (const filter of ['%', '_', 'Store%front', 'Storefront_(ruby)']) {
      const res = await get(`/v2/applications.json?filter[name]=${encodeURIComponent(filter)}`)
      expect(res.status).toBe(200)
      expect(((await res.json()) as AppList).applications, filter).toEqual([])
    }
    const plain = await get('/v2/applications.json?filter[name]=storefront')
    expect(((await plain.json()) as AppList).applications.length).toBeGreaterThan(0)
  })
})

describe('upstream 403', () => {
  it('answers v2’s 403, not 401 "Invalid API Key"', async () => {
    const upstream = fakeFetch({ status: 403, body: { errors: [{ message: 'forbidden' }] } })
    const app = createApp({
      config: parseConfig({ NERDGRAPH_URL: 'https://nerdgraph.test/graphql', ALLOW_HTTP: 'true' }),
      fetch: upstream.fetch,
    })
    const res = await app.request('/v2/applications.json', {
      headers: { 'X-Api-Key': DEMO_KEYS.all },
    })
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({
      error: { title: 'New Relic API access has not been enabled' },
    })
  })
})

describe('XML text', () => {
  it('escapes CR as a character reference, so parsers read it back', () => {
    expect(renderXml({ error: { title: 'a\r\nb' } })).toContain('<title>a&#13;\nb</title>')
  })
})

// v2 echoed the request's `from`/`to` and kept the grid of the requested window; minutes that have
// not happened have no calls. The window's slices stay bounded however far it reaches.
describe('a `to` in the future', () => {
  type Data = {
    metric_data: {
      from: string
      to: string
      metrics: { timeslices: { to: string; values: { call_count: number } }[] }[]
    }
  }
  const call = async (window: string) => {
    const { get } = harness()
    const res = await get(
      `/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&${window}`
    )
    expect(res.status).toBe(200)
    return ((await res.json()) as Data).metric_data
  }

  it('is echoed with the 30 minutes before it, every future minute without calls', async () => {
    const data = await call('to=9999-12-31')
    expect([data.from, data.to]).toEqual(['9999-12-30T23:30:00+00:00', '9999-12-31T00:00:00+00:00'])
    const slices = data.metrics[0]!.timeslices
    expect(slices).toHaveLength(30)
    expect(slices.every((s) => s.values.call_count === 0)).toBe(true)
  })

  it('with `from` in the future too, answers that window, bounded, without calls', async () => {
    const data = await call('from=9999-12-30&to=9999-12-31')
    expect([data.from, data.to]).toEqual(['9999-12-30T00:00:00+00:00', '9999-12-31T00:00:00+00:00'])
    const slices = data.metrics[0]!.timeslices
    expect(slices).toHaveLength(144)
    expect(slices.every((s) => s.values.call_count === 0)).toBe(true)
    const far = await call('from=2026-12-01&to=9999-12-31')
    expect(far.metrics[0]!.timeslices.length).toBeLessThanOrEqual(365)
  })
})

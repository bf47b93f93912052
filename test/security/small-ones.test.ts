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

describe('a `to` in the future', () => {
  it('is clamped to now: no empty future slices', async () => {
    const { get } = harness()
    const res = await get(
      '/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&to=9999-12-31'
    )
    expect(res.status).toBe(200)
    const data = (
      (await res.json()) as {
        metric_data: { to: string; metrics: { timeslices: { to: string }[] }[] }
      }
    ).metric_data
    expect(Date.parse(data.to)).toBeLessThanOrEqual(Date.now())
    expect(Date.parse(data.to)).toBeGreaterThan(Date.now() - 120_000)
    const slices = data.metrics[0]!.timeslices
    expect(slices.length).toBeLessThanOrEqual(33)
    expect(Date.parse(slices.at(-1)!.to)).toBeLessThanOrEqual(Date.now())
  })

  it('with `from` in the future too, is 422', async () => {
    const { get } = harness()
    const res = await get(
      '/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&from=9999-12-30&to=9999-12-31'
    )
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ error: { title: "'from' must be before 'to'" } })
  })
})

import { describe, expect, it } from 'vitest'
import { createApp } from '../src/app'
import { parseConfig } from '../src/core/config'
import { fakeFetch } from './helpers/fake-fetch'

const key = 'NRAK-TESTKEY000000000000000000'
const config = parseConfig({
  NERDGRAPH_URL: 'https://nerdgraph.test/graphql',
  ALLOW_HTTP: 'true',
  ACCOUNT_ID: '1000001',
})
/** A whole answer to the list's document: no application, every alias there. */
const none = { results: [], metadata: null, otherResult: null }
const emptySearch = {
  data: {
    actor: {
      entitySearch: { count: 0, results: { nextCursor: null, entities: [] } },
      a0: {
        members: none,
        browser: none,
        lastEvent: none,
        conditions: { nrqlConditionsSearch: { nextCursor: null, nrqlConditions: [] } },
      },
      served: { results: { nextCursor: null, entities: [] } },
    },
  },
}

describe('request pipeline', () => {
  it('answers 401 "No API key specified" in JSON without calling NerdGraph', async () => {
    const upstream = fakeFetch({ body: emptySearch })
    const app = createApp({ config, fetch: upstream.fetch })
    const res = await app.request('/v2/applications.json')
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await res.json()).toEqual({ error: { title: 'No API key specified' } })
    expect(upstream.sent).toHaveLength(0)
  })

  it('renders errors in XML for .xml paths', async () => {
    const app = createApp({ config, fetch: fakeFetch({ body: emptySearch }).fetch })
    const res = await app.request('/v2/applications.xml')
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/)
    expect(await res.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<error_response>\n  <error>\n    <title>No API key specified</title>\n  </error>\n</error_response>\n'
    )
  })

  it('passes the key to NerdGraph as API-Key, from X-Api-Key or Api-Key in any case', async () => {
    for (const header of ['X-Api-Key', 'x-api-key', 'Api-Key', 'API-KEY']) {
      const upstream = fakeFetch({ body: emptySearch })
      const app = createApp({ config, fetch: upstream.fetch })
      const res = await app.request('/v2/applications.json', { headers: { [header]: key } })
      expect(res.status).toBe(200)
      expect(upstream.sent).toHaveLength(1)
      expect(upstream.sent[0]!.url).toBe('https://nerdgraph.test/graphql')
      expect(upstream.sent[0]!.headers['api-key']).toBe(key)
    }
  })

  it('maps a NerdGraph 401 to v2 401 "Invalid API Key" without echoing the key', async () => {
    const upstream = fakeFetch({
      status: 401,
      body: {
        errors: [
          {
            message: 'Bad API Key or no API Key provided',
            extensions: { error_code: 'BAD_API_KEY' },
          },
        ],
      },
    })
    const app = createApp({ config, fetch: upstream.fetch })
    const res = await app.request('/v2/applications.json', { headers: { 'X-Api-Key': key } })
    expect(res.status).toBe(401)
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({ error: { title: 'Invalid API Key' } })
    expect(text).not.toContain(key)
  })

  it('answers 404 in v2 shape for an unknown suffix or path', async () => {
    const app = createApp({ config, fetch: fakeFetch({ body: emptySearch }).fetch })
    for (const path of ['/v2/applications.html', '/v2/nothing.json', '/elsewhere']) {
      const res = await app.request(path, { headers: { 'X-Api-Key': key } })
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ error: { title: 'Not found' } })
    }
  })

  it('chooses the format from Accept when the path has no suffix', async () => {
    const app = createApp({ config, fetch: fakeFetch({ body: emptySearch }).fetch })
    const xml = await app.request('/v2/applications', {
      headers: { 'X-Api-Key': key, Accept: 'application/xml' },
    })
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/)
    expect(await xml.text()).toContain('<applications_response>')
    const json = await app.request('/v2/applications', { headers: { 'X-Api-Key': key } })
    expect(await json.json()).toMatchObject({ applications: [] })
  })

  it('maps upstream faults: 5xx and non-JSON to 502, a timeout to 504', async () => {
    const cases = [
      [{ status: 503, body: 'unavailable', contentType: 'text/plain' }, 502],
      [{ status: 200, body: '<html>oops', contentType: 'text/html' }, 502],
      [() => Promise.reject(new TypeError('fetch failed')), 502],
      [() => new Promise<Response>(() => {}), 504],
    ] as const
    for (const [reply, status] of cases) {
      const app = createApp({
        config: { ...config, upstreamTimeoutMs: 200 },
        fetch: fakeFetch(reply as never).fetch,
      })
      const res = await app.request('/v2/applications.json', { headers: { 'X-Api-Key': key } })
      expect(res.status).toBe(status)
      const body = (await res.json()) as { error: { title: string } }
      expect(body.error.title).toMatch(/NerdGraph/)
    }
  })
})

import { describe, expect, it } from 'vitest'
import { operations } from '../../mappings/operations'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { DEMO_KEYS, harness } from '../helpers/harness'

const xmlError = (title: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<error_response>\n  <error>\n    <title>${title}</title>\n  </error>\n</error_response>\n`

describe('auth', () => {
  it('answers 401 "No API key specified" for a missing or blank key, in JSON and XML', async () => {
    const { get, sim } = harness()
    const blanks: Record<string, string>[] = [{}, { 'X-Api-Key': '' }, { 'Api-Key': '   ' }]
    for (const headers of blanks) {
      const res = await get('/v2/applications.json', { key: null, headers })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ error: { title: 'No API key specified' } })
    }
    const xml = await get('/v2/applications.xml', { key: null })
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/)
    expect(await xml.text()).toBe(xmlError('No API key specified'))
    expect(sim.stats().graphqlRequests).toBe(0)
  })

  it('takes the key from Api-Key when X-Api-Key is blank', async () => {
    const { get } = harness()
    const res = await get('/v2/applications.json', {
      key: null,
      headers: { 'x-api-key': ' ', 'API-KEY': DEMO_KEYS.one },
    })
    expect(res.status).toBe(200)
  })

  it('answers 401 "Invalid API Key" for a key NerdGraph rejects, echoing it nowhere', async () => {
    const { get, log } = harness()
    const bad = 'NRAK-NOTAREALKEY-7f3a9c'
    for (const path of ['/v2/applications.json', '/v2/applications.xml']) {
      const res = await get(path, { key: bad })
      expect(res.status).toBe(401)
      const text = await res.text()
      expect(text).toContain('Invalid API Key')
      expect(text).not.toContain(bad)
      expect([...res.headers].join(' ')).not.toContain(bad)
    }
    expect(JSON.stringify(log)).not.toContain(bad)
  })

  it('answers 401 "Invalid API Key" for a key no NerdGraph key could be, without asking NerdGraph', async () => {
    const { get, sim } = harness()
    for (const bad of ['has space', 'x'.repeat(257), 'clé-ünïcode']) {
      const res = await get('/v2/applications.json', { key: null, headers: { 'X-Api-Key': bad } })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ error: { title: 'Invalid API Key' } })
    }
    expect(sim.stats().graphqlRequests).toBe(0)
  })
})

describe('formats and routing', () => {
  it('answers 404 in v2 shape for an unknown suffix or /v2 path, with or without a key', async () => {
    const { get } = harness()
    for (const key of [DEMO_KEYS.all, null]) {
      for (const path of [
        '/v2/applications.html',
        '/v2/applications.json.bak',
        '/v2/nothing.json',
      ]) {
        const res = await get(path, { key })
        expect(res.status).toBe(404)
        expect(await res.json()).toEqual({ error: { title: 'Not found' } })
      }
      const xml = await get('/v2/nothing.xml', { key })
      expect(xml.status).toBe(404)
      expect(await xml.text()).toBe(xmlError('Not found'))
    }
  })

  it('answers 405 with Allow for a known path and a method it does not serve', async () => {
    const { get, sim } = harness()
    for (const method of ['DELETE', 'PUT', 'PATCH', 'OPTIONS']) {
      const res = await get('/v2/applications.json', { method })
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST')
      expect(await res.json()).toEqual({ error: { title: 'Method not allowed' } })
    }
    const xml = await get('/v2/applications.xml', { method: 'DELETE' })
    expect(await xml.text()).toBe(xmlError('Method not allowed'))
    expect(sim.stats().graphqlRequests).toBe(0)
  })

  it('serves HEAD wherever it serves GET', async () => {
    const { get } = harness()
    const res = await get('/v2/applications.json', { method: 'HEAD' })
    expect(res.status).toBe(200)
  })

  it('answers an unexpected error with the generic v2 500, logging it without the key', async () => {
    const lines: Record<string, unknown>[] = []
    const key = 'NRAK-SECRETSECRETSECRET000000'
    const app = createApp({
      config: parseConfig({ NERDGRAPH_URL: 'https://nerdgraph.test/graphql', ALLOW_HTTP: 'true' }),
      log: (line) => lines.push(line),
      operations: [
        ...operations,
        { method: 'GET', path: '/v2/boom', resource: 'test', summary: 'Boom', answer: 'served' },
      ],
    })
    app.get('/v2/boom', (c) => {
      throw new TypeError(`bad header value ${c.get('apiKey')} at /srv/app.js:1`)
    })
    const res = await app.request('/v2/boom.json', { headers: { 'X-Api-Key': key } })
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({
      error: { title: 'A server error occurred, please contact New Relic support' },
    })
    expect(text).not.toMatch(/TypeError|srv|SECRET/)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ status: 500, error: expect.stringContaining('TypeError') })
    expect(JSON.stringify(lines)).not.toContain(key)
  })
})

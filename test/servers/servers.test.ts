import { describe, expect, it } from 'vitest'
import { harness } from '../helpers/harness'

describe('/v2/servers (retired product)', () => {
  it('lists no servers, in JSON and XML, after checking the key upstream', async () => {
    const h = harness()
    const before = h.sim.stats().graphqlRequests
    const json = await h.get('/v2/servers.json')
    expect(json.status).toBe(200)
    expect(await json.json()).toEqual({ servers: [] })
    expect(h.sim.stats().graphqlRequests - before).toBe(1)
    const xml = await h.get('/v2/servers.xml?filter[name]=web')
    expect(await xml.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<servers_response>\n  <servers/>\n</servers_response>\n'
    )
    const posted = await h.get('/v2/servers.json', { method: 'POST', body: 'filter[name]=x' })
    expect(posted.status).toBe(200)
  })

  it('answers 404 No Server found for a server, its metrics and its writes', async () => {
    const h = harness()
    const paths = [
      '/v2/servers/123.json',
      '/v2/servers/123/metrics.json',
      '/v2/servers/1/metrics/data.xml',
    ]
    for (const path of paths) {
      const res = await h.get(path)
      expect(res.status, path).toBe(404)
    }
    expect(await (await h.get('/v2/servers/123.json')).json()).toEqual({
      error: { title: 'No Server found with the given ID' },
    })
    expect((await h.get('/v2/servers/123.json', { method: 'DELETE' })).status).toBe(404)
    expect(await (await h.get('/v2/servers/1/metrics/data.xml')).text()).toContain(
      '<title>No Server found with the given ID</title>'
    )
  })

  it('still answers 401 for a bad key', async () => {
    const h = harness()
    const res = await h.get('/v2/servers.json', { key: 'NRAK-NOTAKEY0000000000000000000' })
    expect(res.status).toBe(401)
  })
})

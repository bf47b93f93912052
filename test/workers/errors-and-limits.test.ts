import { SELF } from 'cloudflare:test'
import { describe, expect, inject, it } from 'vitest'

const key = 'NRAK-DEMO0000000000000000000000'
const base = 'https://v2bridge.test'

async function simRequests(): Promise<number> {
  const res = await fetch(`${inject('simulatorUrl')}/_sim/stats`)
  return ((await res.json()) as { graphqlRequests: number }).graphqlRequests
}

async function faults(spec: Record<string, unknown>): Promise<void> {
  await fetch(`${inject('simulatorUrl')}/_sim/faults`, {
    method: 'POST',
    body: JSON.stringify(spec),
  })
}

describe('errors and upstream limits inside workerd', () => {
  it('answers 405 with Allow and 404 in v2 shape', async () => {
    const res = await SELF.fetch(`${base}/v2/applications.json`, {
      method: 'DELETE',
      headers: { 'X-Api-Key': key },
    })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST')
    expect(await res.json()).toEqual({ error: { title: 'Method not allowed' } })
    const missing = await SELF.fetch(`${base}/v2/nothing.xml`, { headers: { 'X-Api-Key': key } })
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('<title>Not found</title>')
  })

  it('answers 401 "Invalid API Key" for a key NerdGraph rejects', async () => {
    const res = await SELF.fetch(`${base}/v2/applications.json`, {
      headers: { 'X-Api-Key': 'NRAK-NOPE' },
    })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ error: { title: 'Invalid API Key' } })
  })

  it('coalesces identical concurrent requests of one key into few upstream requests', async () => {
    const url = `${base}/v2/applications.json?filter[name]=coalesce-${Date.now()}`
    await SELF.fetch(`${base}/v2/applications.json?filter[name]=warm`, {
      headers: { 'X-Api-Key': key },
    })
    const before = await simRequests()
    // NerdGraph answers slowly, so the 20 calls overlap however loaded the machine is.
    await faults({ latencyMs: 400 })
    const results = await Promise.all(
      Array.from({ length: 20 }, () => SELF.fetch(url, { headers: { 'X-Api-Key': key } }))
    ).finally(() => faults({}))
    for (const res of results) expect(res.status).toBe(200)
    const bodies = await Promise.all(results.map((r) => r.text()))
    expect(new Set(bodies).size).toBe(1)
    expect((await simRequests()) - before).toBeLessThan(5)
  })
})

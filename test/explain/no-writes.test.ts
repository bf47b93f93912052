/**
 * Explain sends nothing but lookups (issue 22, item 2): on every row of the operations table, with
 * the row's method and a body for writes, explain sends no mutation to NerdGraph and nothing at all
 * to v2; a forwarded row answers its plan. And it needs a key NerdGraph accepts, and never shows a
 * private NERDGRAPH_URL or V2_URL.
 */
import { describe, expect, it } from 'vitest'
import { operations } from '../../mappings/operations'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { createSimulator, DEMO_KEYS } from '../../simulator'

const ids: Record<string, string> = { application_id: '9045822', id: '9045822' }
const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? '1')

function recorded(settings: Record<string, string> = {}) {
  const sim = createSimulator()
  const sent: { url: string; method: string; body: string }[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    sent.push({ url: req.url, method: req.method, body: await req.clone().text() })
    return sim.fetch(req)
  }) as typeof globalThis.fetch
  const app = createApp({
    config: parseConfig({
      NERDGRAPH_URL: 'http://simulator.test/graphql',
      V2_URL: 'http://simulator.test/v2',
      ALLOW_HTTP: 'true',
      ...settings,
    }),
    fetch,
  })
  return { app, sent }
}

const writeBody = JSON.stringify({
  policy: { name: 'p', incident_preference: 'PER_POLICY' },
  deployment: { revision: 'r1' },
  application: { name: 'n', settings: { app_apdex_threshold: 0.5 } },
  channel: { name: 'c', type: 'email', configuration: { recipients: 'a@b.c' } },
  label: { category: 'Team', name: 'x', links: { applications: [9045822] } },
  browser_application: { name: 'b' },
  mobile_application: { name: 'm' },
})

describe('explain on every operation row', () => {
  it('sends no mutation to NerdGraph and nothing to v2, whatever the method', async () => {
    const { app, sent } = recorded()
    for (const row of operations) {
      const before = sent.length
      const path = `/explain${concrete(row.path)}${row.path.startsWith('/v2') ? '.json' : '.xml'}`
      const res = await app.request(path, {
        method: row.method,
        headers: {
          'X-Api-Key': DEMO_KEYS.all,
          'X-Account-Id': '1000001',
          'Content-Type': 'application/json',
          'x-license-key': DEMO_KEYS.all,
        },
        ...(row.method === 'GET' ? {} : { body: writeBody }),
      })
      if (row.answer !== 'unsupported')
        expect(res.status, `${row.method} ${row.path}`).toBeLessThan(500)
      for (const s of sent.slice(before)) {
        expect(s.url, `${row.method} ${row.path}`).toBe('http://simulator.test/graphql')
        expect(s.body, `${row.method} ${row.path}`).not.toMatch(/"query":"\s*mutation/)
      }
      if (row.answer === 'forwarded') {
        expect(res.status).toBe(200)
        const { explain } = (await res.json()) as {
          explain: { forwarded: { method: string; url: string; headers: Record<string, string> } }
        }
        expect(explain.forwarded.method).toBe(row.method)
        // The stand-in's V2_URL is private: shown by its setting's name, as is the key.
        expect(explain.forwarded.url).toMatch(/^\$V2_URL\//)
        expect(explain.forwarded.headers['x-api-key']).toBe('$NEW_RELIC_USER_KEY')
        expect(JSON.stringify(explain)).not.toContain(DEMO_KEYS.all)
        expect(JSON.stringify(explain)).not.toContain('simulator.test')
      }
    }
  })

  it('answers a plan only for a key NerdGraph accepts', async () => {
    const { app, sent } = recorded()
    const res = await app.request('/explain/v2/alerts_policies.json', {
      method: 'POST',
      headers: { 'X-Api-Key': 'NRAK-BOGUS', 'Content-Type': 'application/json' },
      body: writeBody,
    })
    expect(res.status).toBe(401)
    expect(sent.map((s) => s.url)).toEqual(['http://simulator.test/graphql'])
  })

  it('shows the public NerdGraph endpoint, and a private one by its setting name', async () => {
    const path = '/explain/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher'
    const headers = { 'X-Api-Key': DEMO_KEYS.all }
    const text = await (await recorded().app.request(path, { headers })).text()
    expect(text).toContain('$NERDGRAPH_URL')
    expect(text).not.toContain('simulator.test')
  })
})

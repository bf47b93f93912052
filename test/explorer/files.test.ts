import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { staticFiles } from '../../src/explorer/static-content'
import { explainFields } from '../../mappings/explain-fields'
import { operations } from '../../mappings/operations'
import { explorerParams } from '../../src/explorer/params'
import { assetsDir, writeAssets } from '../../scripts/assets'
import { DEMO_KEYS, createSimulator } from '../../simulator'

const base = 'https://v2bridge.test'
const csp =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** The `ASSETS` binding as Workers static assets answer it: the files `npm run assets` wrote. */
const assetsBinding = {
  requested: [] as string[],
  async fetch(url: URL | string) {
    const path = new URL(url).pathname
    this.requested.push(path)
    try {
      return new Response(readFileSync(assetsDir + path.slice(1)))
    } catch {
      return new Response('Not Found', { status: 404 })
    }
  },
}

describe('the static files (explorer, explain field table)', () => {
  it('serve the explorer page with the configured region and a strict policy from memory (Node)', async () => {
    const app = createApp({ config: parseConfig({ REGION: 'eu' }), files: staticFiles })
    const page = await app.request(`${base}/explorer`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toBe(csp)
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    const html = await page.text()
    expect(html).toContain('<strong id="region">EU</strong>')
    expect(html).not.toContain('<!--region-->')
    // Outside the demo no key is in the page, and no slot is left behind.
    expect(html).not.toContain('v2bridge-demo-key')
    expect(html).not.toContain('<!--demo-->')
    // With a trailing slash: the same page.
    const slash = await app.request(`${base}/explorer/`)
    expect(slash.status).toBe(200)
    expect(await slash.text()).toBe(html)
    const css = await app.request(`${base}/explorer/app.css`)
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(await css.text()).toBe(staticFiles['explorer/app.css'])
  })

  it('in the demo, names the simulator as the region and carries the demo key', async () => {
    const app = createApp({
      config: parseConfig({ REGION: 'eu' }),
      files: staticFiles,
      demo: { key: DEMO_KEYS.all },
    })
    const html = await (await app.request(`${base}/explorer`)).text()
    expect(html).toContain('<strong id="region">simulator</strong>')
    expect(html).toContain(`<meta name="v2bridge-demo-key" content="${DEMO_KEYS.all}">`)
  })

  it('are written as static assets and served identically through ASSETS (Workers)', async () => {
    writeAssets()
    for (const [name, text] of Object.entries(staticFiles)) {
      expect(readFileSync(assetsDir + name, 'utf8')).toBe(text)
    }
    expect(JSON.parse(readFileSync(`${assetsDir}explain-fields.json`, 'utf8'))).toEqual(
      explainFields
    )
    const fromMemory = createApp({ config: parseConfig({}), files: staticFiles })
    const fromAssets = createApp()
    const paths = ['/', '/explorer', '/explorer/app.js', '/explorer/app.css', '/explorer/catalog']
    for (const path of paths) {
      const a = await fromMemory.request(base + path)
      const b = await fromAssets.request(base + path, {}, { ASSETS: assetsBinding })
      expect(b.status).toBe(200)
      expect(b.headers.get('content-type')).toBe(a.headers.get('content-type'))
      expect(b.headers.get('content-security-policy')).toBe(csp)
      expect(await b.text()).toBe(await a.text())
    }
    expect(assetsBinding.requested).toEqual([
      '/explorer/page.html',
      '/explorer/page.html',
      '/explorer/app.js',
      '/explorer/app.css',
      '/explorer/catalog.json',
    ])
  })

  it('give explain its field rows through ASSETS, read once per app', async () => {
    assetsBinding.requested.length = 0
    const sim = createSimulator()
    const app = createApp({
      config: parseConfig({ NERDGRAPH_URL: 'http://simulator.test/graphql', ALLOW_HTTP: 'true' }),
      fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
        sim.fetch(new Request(input, init))) as typeof fetch,
    })
    const headers = { 'X-Api-Key': DEMO_KEYS.all, 'X-V2bridge-Explain': '1' }
    for (let i = 0; i < 2; i++) {
      const res = await app.request(
        `${base}/v2/applications.json`,
        { headers },
        { ASSETS: assetsBinding }
      )
      expect(res.status).toBe(200)
      const body = (await res.json()) as { explain: { fields: Record<string, string> } }
      expect(body.explain.fields).toEqual(explainFields['GET /v2/applications'])
    }
    expect(assetsBinding.requested).toEqual(['/explain-fields.json'])
  })

  it('lists every operation in the catalog with how v2bridge answers it', () => {
    const catalog = JSON.parse(staticFiles['explorer/catalog.json']!) as {
      method: string
      path: string
      answer: string
    }[]
    expect(catalog.find((op) => op.path === '/v2/plugins')?.answer).toBe('retired')
    expect(
      catalog.find((op) => op.method === 'GET' && op.path === '/v2/applications')?.answer
    ).toBe('served')
  })

  it('gives each operation its explorer parameters with type and description, an example body that is never a value, and its v2 documentation', () => {
    const catalog = JSON.parse(staticFiles['explorer/catalog.json']!) as {
      method: string
      path: string
      params: [string, string, string, string][]
      example: unknown
      docs: string
    }[]
    const op = (method: string, path: string) =>
      catalog.find((o) => o.method === method && o.path === path)!
    // v2 explorer applications.json, "Metric Data": path application_id, query names (Array)…
    expect(op('GET', '/v2/applications/{application_id}/metrics/data').params.slice(0, 4)).toEqual([
      ['application_id', 'number', 'Integer', 'Application ID'],
      ['names[]', 'list', 'Array', 'Retrieve specific metrics by name'],
      ['values[]', 'list', 'Array', 'Retrieve specific metric values'],
      ['from', 'time', 'Time', 'Retrieve metrics after this time'],
    ])
    // v2 explorer alerts_entity_conditions.json: a write's query parameters are offered too.
    expect(op('PUT', '/v2/alerts_entity_conditions/{entity_id}').params).toEqual([
      ['entity_id', 'number', 'Integer', 'Entity id to add'],
      ['entity_type', 'text', 'String', 'Entity Type'],
      ['condition_id', 'number', 'Integer', 'Alerts condition ID'],
    ])
    const deploy = op('POST', '/v2/applications/{application_id}/deployments')
    expect(deploy.params).toContainEqual(['deployment', 'body', 'Deployment', 'Deployment schema'])
    expect(deploy.example).toMatchObject({ deployment: { revision: '1.2.3' } })
    expect(deploy).not.toHaveProperty('body')
    expect(deploy.docs).toBe(
      'https://docs.newrelic.com/docs/apm/apm-ui-pages/events/record-deployments'
    )
    expect(op('GET', '/v2/servers/{server_id}/metrics/data').docs).toBe(
      'https://docs.newrelic.com/docs/apis/rest-api-v2/basic-functions/extract-metric-timeslice-data'
    )
    expect(op('DELETE', '/v2/alerts_policies/{policy_id}').docs).toBe(
      'https://docs.newrelic.com/docs/alerts/scale-automate/rest-api/rest-api-calls-alerts'
    )
  })

  it('describes only operations of the table, and every path parameter of the explorer’s operations', () => {
    const rows = new Set(operations.map((r) => `${r.method} ${r.path}`))
    for (const key of Object.keys(explorerParams)) expect(rows).toContain(key)
    for (const [key, specs] of Object.entries(explorerParams)) {
      const inPath = [...key.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
      for (const name of inPath)
        expect(
          specs.map((s) => s[0]),
          key
        ).toContain(name)
    }
  })

  it('answer 404 when neither the files nor an ASSETS binding are there', async () => {
    const res = await createApp().request(`${base}/explorer/app.js`)
    expect(res.status).toBe(404)
  })
})

const definitions = fileURLToPath(new URL('../../../shared/contract/v2-explorer', import.meta.url))
const hasDefinitions = existsSync(definitions)
if (!hasDefinitions) console.warn(`skipped: ${definitions} is absent (no ../shared checkout)`)

describe.skipIf(!hasDefinitions)(
  "the explorer's parameters against New Relic's v2 definitions",
  () => {
    it('carry every parameter of every explorer operation with its type and description', () => {
      let checked = 0
      for (const file of readdirSync(definitions).filter((f) => /^[a-z_]+\.json$/.test(f))) {
        const doc = JSON.parse(readFileSync(`${definitions}/${file}`, 'utf8')) as {
          apis?: {
            path: string
            operations?: {
              httpMethod: string
              parameters?: { name: string; dataType: string; description?: string }[]
            }[]
          }[]
        }
        for (const api of doc.apis ?? [])
          for (const op of api.operations ?? []) {
            const key = `${op.httpMethod} ${api.path.replace('.{format}', '')}`
            const ours = (explorerParams[key] ?? []).map(([name, , type, description]) => [
              name,
              type,
              description,
            ])
            for (const p of op.parameters ?? []) {
              const name = p.dataType === 'Array' ? `${p.name}[]` : p.name
              expect(ours, key).toContainEqual([name, p.dataType, p.description ?? ''])
              checked++
            }
          }
      }
      expect(checked).toBeGreaterThan(200)
    })
  }
)

describe('the demo (npm run demo)', () => {
  it("keeps the banner's promise: the explorer is authorized with the first demo key", async () => {
    const { startDemo } = await import('../../scripts/demo-server')
    const demo = await startDemo({ PORT: '0', SIM_PORT: '0' }, () => {})
    try {
      expect(demo.banner).toContain(
        `${demo.bridge.url}/explorer (every v2 operation, authorized with the first demo key)`
      )
      const firstKey = /Demo keys:\n {2}(\S+)/.exec(demo.banner)![1]
      expect(firstKey).toBe(DEMO_KEYS.all)
      const html = await (await fetch(`${demo.bridge.url}/explorer`)).text()
      expect(html).toContain(`<meta name="v2bridge-demo-key" content="${DEMO_KEYS.all}">`)
      expect(html).toContain('<strong id="region">simulator</strong>')
    } finally {
      await demo.close()
    }
  })
})

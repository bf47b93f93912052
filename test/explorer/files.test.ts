import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/config'
import { explorerFileNames, explorerFiles } from '../../src/explorer/files'
import { assetsDir, writeAssets } from '../../scripts/assets'

const base = 'https://v2bridge.test'
const csp =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** The `ASSETS` binding as Workers static assets answer it: the files `npm run assets` wrote. */
const assetsBinding = {
  requested: [] as string[],
  async fetch(url: URL | string) {
    const path = new URL(url).pathname
    this.requested.push(path)
    const name = path.replace(/^\/explorer\//, '')
    try {
      return new Response(readFileSync(`${assetsDir}explorer/${name}`))
    } catch {
      return new Response('Not Found', { status: 404 })
    }
  },
}

describe('the explorer files', () => {
  it('serves the page with the configured region and a strict policy from memory (Node)', async () => {
    const app = createApp({ config: parseConfig({ REGION: 'eu' }), explorer: explorerFiles })
    const page = await app.request('https://v2bridge.test/explorer')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toBe(csp)
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    const html = await page.text()
    expect(html).toContain('<strong id="region">EU</strong>')
    expect(html).not.toContain('<!--region-->')
    const css = await app.request('https://v2bridge.test/explorer/app.css')
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(await css.text()).toBe(explorerFiles['app.css'])
  })

  it('writes the same files as static assets, and serves them identically through ASSETS (Workers)', async () => {
    writeAssets()
    for (const name of explorerFileNames) {
      expect(readFileSync(`${assetsDir}explorer/${name}`, 'utf8')).toBe(explorerFiles[name])
    }
    const fromMemory = createApp({ config: parseConfig({}), explorer: explorerFiles })
    const fromAssets = createApp()
    for (const path of [
      '/',
      '/explorer',
      '/explorer/app.js',
      '/explorer/app.css',
      '/explorer/catalog',
    ]) {
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

  it('lists every operation in the catalog with how v2bridge answers it', () => {
    const catalog = JSON.parse(explorerFiles['catalog.json']) as {
      method: string
      path: string
      answer: string
    }[]
    expect(catalog.find((op) => op.path === '/v2/plugins')?.answer).toBe('retired')
    expect(
      catalog.find((op) => op.method === 'GET' && op.path === '/v2/applications')?.answer
    ).toBe('served')
  })

  it('answers 404 when neither the files nor an ASSETS binding are there', async () => {
    const res = await createApp().request('https://v2bridge.test/explorer/app.js')
    expect(res.status).toBe(404)
  })
})

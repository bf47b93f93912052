import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

describe('the explorer page inside workerd', () => {
  it('serves the page, its script and the catalog from the ASSETS binding under a strict policy', async () => {
    const page = await SELF.fetch('https://v2bridge.test/')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    const html = await page.text()
    expect(html).toContain('<script src="/explorer/app.js" defer></script>')
    expect(html).toContain('<strong id="region">US</strong>')
    const css = await SELF.fetch('https://v2bridge.test/explorer/app.css')
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(css.headers.get('content-security-policy')).toContain("default-src 'none'")
    const script = await SELF.fetch('https://v2bridge.test/explorer/app.js')
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(await script.text()).toContain("sessionStorage.getItem('v2bridge.key')")
    const catalog = (await (await SELF.fetch('https://v2bridge.test/explorer/catalog')).json()) as {
      method: string
      path: string
      answer: string
    }[]
    expect(catalog.find((op) => op.path === '/v2/plugins')?.answer).toBe('retired')
    expect(catalog.length).toBeGreaterThan(84)
  })

  it('serves nothing else from the assets directory', async () => {
    const res = await SELF.fetch('https://v2bridge.test/explorer/page.html')
    expect(res.status).toBe(404)
  })
})

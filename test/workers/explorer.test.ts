import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

describe('the explorer page inside workerd', () => {
  it('serves the page, its script and the catalog under a strict policy', async () => {
    const page = await SELF.fetch('https://v2bridge.test/')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(await page.text()).toContain('<script src="/explorer/app.js" defer></script>')
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
})

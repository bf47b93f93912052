/**
 * The migration report page in headless Chromium (issue 25, item 11): opened from a browser with
 * the key typed into the page (kept in the tab, sent as a header, never in a URL), the summary
 * first and each operation collapsed. Skips, saying so, where no Chromium is installed.
 */
import { mkdirSync } from 'node:fs'
import type { Browser, Page } from 'puppeteer-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../src/core/config'
import { startServer, type NodeServer } from '../../src/node'
import { DEMO_KEYS, startSimulatorServer, type SimulatorServer } from '../../simulator'
import { artifacts, chromium, launchChromium } from '../helpers/chromium'

describe.skipIf(!chromium)('the migration report page in Chromium', () => {
  let sim: SimulatorServer
  let bridge: NodeServer
  let browser: Browser
  let page: Page
  const sent: { url: string; headers: Record<string, string> }[] = []

  beforeAll(async () => {
    sim = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
    const config = parseConfig({
      PORT: '0',
      NERDGRAPH_URL: `${sim.url}/graphql`,
      ALLOW_HTTP: 'true',
    })
    bridge = await startServer(config, undefined, { log: () => {} })
    // Calls for the report to show: a metric-data call and a retired one.
    const headers = { 'X-Api-Key': DEMO_KEYS.all, 'User-Agent': 'curl/8.5.0' }
    await fetch(`${bridge.url}/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher`, {
      headers,
    })
    await fetch(`${bridge.url}/v2/plugins.json`, { headers })
    browser = await launchChromium()
    page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
    page.on('request', (req) => {
      if (/^https?:/.test(req.url())) sent.push({ url: req.url(), headers: req.headers() })
    })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await bridge?.close()
    await sim?.close()
  })

  it('opens without a key and asks for one', async () => {
    const res = await page.goto(`${bridge.url}/v2bridge/report`)
    expect(res?.status()).toBe(200)
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'")
    expect(await page.$eval('#summary', (e) => (e as HTMLElement).hidden)).toBe(true)
  })

  it('shows the summary first, then each operation collapsed, for a key typed into the page', async () => {
    await page.type('#key', DEMO_KEYS.all)
    await page.click('#key-form button')
    await page.waitForFunction(() => !(document.getElementById('summary') as HTMLElement).hidden, {
      timeout: 15_000,
    })
    const figures = await page.$eval('#figures', (e) => e.textContent ?? '')
    expect(figures).toContain('Operations called2')
    expect(figures).toContain('Client familiescurl')
    expect(figures).toContain('Operations retired (410)1')
    const order = await page.evaluate(() =>
      [...document.querySelectorAll('section')].map((s) => [s.id, s.hidden])
    )
    // Compare mode's verification (src/compare/) shows only when the key has comparisons.
    expect(order).toEqual([
      ['summary', false],
      ['verification', true],
      ['operations', false],
    ])
    const summaries = await page.$$eval('#list > details', (list) =>
      list.map((d) => [(d as HTMLDetailsElement).open, d.querySelector('summary')?.textContent])
    )
    expect(summaries).toHaveLength(2)
    expect(summaries.every(([open]) => open === false)).toBe(true)
    expect(summaries.map(([, s]) => s).join('\n')).toContain(
      'GET /v2/applications/{application_id}/metrics/data'
    )
    // The key went as a header to this origin only, never in a URL, and left the input empty.
    const report = sent.filter((s) => s.url.endsWith('/v2bridge/report.json'))
    expect(report.at(-1)?.headers['x-api-key']).toBe(DEMO_KEYS.all)
    expect(sent.some((s) => s.url.includes(DEMO_KEYS.all))).toBe(false)
    expect(await page.$eval('#key', (e) => (e as HTMLInputElement).value)).toBe('')
    mkdirSync(artifacts, { recursive: true })
    await page.screenshot({ path: `${artifacts}report.png`, fullPage: true })
  })

  it('asks for a key when none is typed or kept', async () => {
    const fresh = await browser.newPage()
    await fresh.goto(`${bridge.url}/v2bridge/report`)
    await fresh.type('#key', ' ')
    await fresh.evaluate(() => sessionStorage.clear())
    await fresh.click('#key-form button')
    expect(await fresh.$eval('#status', (e) => e.textContent)).toBe(
      'Type the API key whose report to show.'
    )
    await fresh.close()
  })
})

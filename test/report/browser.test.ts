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
    const data = `${bridge.url}/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher`
    await fetch(data, { headers })
    // The same operation from a second client family: still one operation on the page.
    await fetch(data, { headers: { ...headers, 'User-Agent': 'python-requests/2.32' } })
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
    // One row per operation (report.json has one entry per operation and client family: 3 here).
    expect(summaries).toHaveLength(2)
    expect(summaries.every(([open]) => open === false)).toBe(true)
    expect(summaries[0]![1]).toBe(
      'GET /v2/applications/{application_id}/metrics/data — Metric data — 2 call(s) from Python, curl, translated to NerdGraph'
    )
    expect(figures).toContain('Client familiesPython, curl')
    const families = await page.$$eval('#list > details:first-child table.clients tr', (rows) =>
      rows.map((r) => [...r.children].slice(0, 3).map((c) => c.textContent))
    )
    expect(families).toEqual([
      ['client family', 'calls', 'errors'],
      ['Python', '1', '0'],
      ['curl', '1', '0'],
    ])
    // The key went as a header to this origin only, never in a URL, and left the input empty.
    const report = sent.filter((s) => s.url.endsWith('/v2bridge/report.json'))
    expect(report.at(-1)?.headers['x-api-key']).toBe(DEMO_KEYS.all)
    expect(sent.some((s) => s.url.includes(DEMO_KEYS.all))).toBe(false)
    expect(await page.$eval('#key', (e) => (e as HTMLInputElement).value)).toBe('')
    mkdirSync(artifacts, { recursive: true })
    await page.screenshot({ path: `${artifacts}report.png`, fullPage: true })
  })

  it("shows compare mode's summaries with code spans, never raw backticks", async () => {
    const tab = await browser.newPage()
    const real = (await (
      await fetch(`${bridge.url}/v2bridge/report.json`, { headers: { 'X-Api-Key': DEMO_KEYS.all } })
    ).json()) as { report: Record<string, unknown> }
    const summary = 'GET /v2/applications: 3 compared, 2 equal; `applications[].name` differs in 1'
    const check = { summary, differing: 1, differences: [], noisy: [], cosmetic: [] }
    real.report['verification'] = [check]
    await tab.setRequestInterception(true)
    tab.on('request', (req) =>
      req.url().endsWith('/v2bridge/report.json')
        ? req.respond({ contentType: 'application/json', body: JSON.stringify(real) })
        : req.continue()
    )
    await tab.goto(`${bridge.url}/v2bridge/report`)
    await tab.type('#key', DEMO_KEYS.all)
    await tab.click('#key-form button')
    await tab.waitForSelector('#verification:not([hidden])')
    const shown = await tab.$eval('#checks summary', (e) => ({
      text: e.textContent,
      code: [...e.querySelectorAll('code')].map((c) => c.textContent),
    }))
    expect(shown).toEqual({ text: summary.replace(/`/g, ''), code: ['applications[].name'] })
    await tab.close()
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

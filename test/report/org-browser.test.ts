/**
 * The organisation view's page in headless Chromium (issue 25, item 11): the admin token typed
 * into the page, kept in the tab, sent as a bearer header; keys shown by fingerprint only. Every
 * wait is for an element or a text. Skips, saying so, where no Chromium is installed.
 */
import type { Browser, Page } from 'puppeteer-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keyFingerprint } from '../../src/core/identity'
import { startServer, type NodeServer } from '../../src/node'
import { parseNodeConfig } from '../../src/node/config'
import { DEMO_KEYS, startSimulatorServer, type SimulatorServer } from '../../simulator'
import { chromium, launchChromium } from '../helpers/chromium'

const token = 'org-admin-token-0123456789'

describe.skipIf(!chromium)('the organisation view page in Chromium', () => {
  let sim: SimulatorServer
  let bridge: NodeServer
  let browser: Browser
  let page: Page
  const sent: { url: string; headers: Record<string, string> }[] = []

  beforeAll(async () => {
    sim = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
    const config = parseNodeConfig({
      PORT: '0',
      NERDGRAPH_URL: `${sim.url}/graphql`,
      ALLOW_HTTP: 'true',
      REPORT_ADMIN_TOKEN: token,
    })
    bridge = await startServer(config, undefined, { log: () => {} })
    for (const key of [DEMO_KEYS.all, DEMO_KEYS.one])
      await (
        await fetch(`${bridge.url}/v2/applications.json`, { headers: { 'X-Api-Key': key } })
      ).arrayBuffer()
    browser = await launchChromium()
    page = await browser.newPage()
    page.on('request', (req) => {
      if (/^https?:/.test(req.url())) sent.push({ url: req.url(), headers: req.headers() })
    })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await bridge?.close()
    await sim?.close()
  })

  const text = (selector: string) => page.$eval(selector, (e) => e.textContent ?? '')

  it('says so when the token is wrong', async () => {
    const res = await page.goto(`${bridge.url}/v2bridge/report/org`)
    expect(res?.status()).toBe(200)
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'")
    await page.type('#token', `${token}-wrong`)
    await page.click('#token-form button')
    await page.waitForFunction(() => document.getElementById('status')?.textContent !== 'Loading…')
    await page.waitForFunction(() => Boolean(document.getElementById('status')?.textContent))
    expect(await text('#status')).toBe('Invalid admin token')
    expect(await page.$eval('#summary', (e) => (e as HTMLElement).hidden)).toBe(true)
  })

  it('shows the summary over every key for the right token, keys by fingerprint only', async () => {
    await page.type('#token', token)
    await page.click('#token-form button')
    await page.waitForSelector('#summary:not([hidden])')
    const figures = await page.$$eval('#figures dt, #figures dd', (e) =>
      e.map((n) => n.textContent)
    )
    expect(figures.slice(0, 4)).toEqual(['Keys', '2', 'Calls', '2'])
    const keys = await page.$$eval('#key-rows tr td:first-child', (cells) =>
      cells.map((c) => c.textContent)
    )
    const label = async (key: string) => `sha256:${(await keyFingerprint(key)).slice(0, 12)}…`
    expect(keys.sort()).toEqual([await label(DEMO_KEYS.all), await label(DEMO_KEYS.one)].sort())
    const html = await page.content()
    expect(html).not.toContain(DEMO_KEYS.all)
    expect(html).not.toContain(token)
    const rows = await page.$$eval('#operation-rows tr td:first-child', (cells) =>
      cells.map((c) => c.textContent)
    )
    expect(rows).toEqual(['GET /v2/applications'])
    const calls = sent.filter((r) => r.url.endsWith('/v2bridge/report/org.json'))
    expect(calls.at(-1)!.headers['authorization']).toBe(`Bearer ${token}`)
    expect(sent.every((r) => !r.url.includes(token))).toBe(true)
  })

  it('fits both tables, "Last seen" included, in a 1280 px window', async () => {
    // Long operation paths and many client families, as a real organisation's report has.
    const agents = [
      'curl/8',
      'python-requests/2',
      'Go-http-client/1.1',
      'Terraform/1.9',
      'okhttp/4',
    ]
    const paths = [
      '/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher',
      '/v2/applications/9045822/hosts.json',
      '/v2/applications/9045822/metrics.json',
      '/v2/alerts_incidents.json',
    ]
    for (const key of [DEMO_KEYS.all, DEMO_KEYS.one])
      for (const [i, agent] of agents.entries())
        await (
          await fetch(`${bridge.url}${paths[i % paths.length]}`, {
            headers: { 'X-Api-Key': key, 'User-Agent': agent },
          })
        ).arrayBuffer()
    await page.setViewport({ width: 1280, height: 900 })
    await page.reload()
    await page.waitForSelector('#summary:not([hidden])')
    const overflow = await page.$$eval('.scroll', (boxes) =>
      boxes.map((b) => b.scrollWidth - b.clientWidth)
    )
    expect(overflow).toEqual([0, 0])
    const lastSeen = await page.$$eval('th:last-child', (cells) =>
      cells.map((c) => [c.textContent, c.getBoundingClientRect().right <= window.innerWidth])
    )
    expect(lastSeen).toEqual([
      ['Last seen', true],
      ['Last seen', true],
    ])
    // A time is never broken over two lines.
    const times = await page.$$eval('#operation-rows td:last-child', (cells) =>
      cells.map((c) => c.getBoundingClientRect().height)
    )
    const line = await page.$eval(
      '#operation-rows td:nth-child(4)',
      (c) => c.getBoundingClientRect().height
    )
    expect(Math.max(...times)).toBeLessThanOrEqual(line)
  })
})

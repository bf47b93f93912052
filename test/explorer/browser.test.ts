/**
 * The explorer page driven in headless Chromium (Debian's `chromium` package, puppeteer-core) against
 * v2bridge and the simulator over real HTTP, as `npm run demo` runs them. Skips, saying so, where no
 * Chromium is installed (`apt-get install chromium`, or set CHROMIUM_PATH).
 */
import { mkdirSync } from 'node:fs'
import type { Browser, Page } from 'puppeteer-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../src/core/config'
import { startServer, type NodeServer } from '../../src/node'
import { DEMO_KEYS, startSimulatorServer, type SimulatorServer } from '../../simulator'
import { artifacts, chromium, launchChromium } from '../helpers/chromium'

describe.skipIf(!chromium)('the explorer page in Chromium', () => {
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

  const text = (selector: string) => page.$eval(selector, (e) => e.textContent ?? '')
  const waitStatus = (pattern: RegExp) =>
    page.waitForFunction(
      (source) => new RegExp(source).test(document.getElementById('status')?.textContent ?? ''),
      { timeout: 15_000 },
      pattern.source
    )
  const pick = async (method: string, path: string) => {
    const buttons = await page.$$('button.op')
    for (const b of buttons) {
      const label = await b.evaluate((e) => e.textContent ?? '')
      if (label.startsWith(`${method} ${path} `)) return b.click()
    }
    throw new Error(`no operation ${method} ${path} in the catalog`)
  }

  it('loads with a strict policy and lists every operation by how it is answered', async () => {
    const res = await page.goto(`${bridge.url}/explorer`)
    expect(res?.status()).toBe(200)
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'")
    await page.waitForSelector('button.op')
    const count = await page.$$eval('button.op', (b) => b.length)
    expect(count).toBeGreaterThan(84)
    expect(await page.$$eval('button.op.retired', (b) => b.length)).toBeGreaterThan(0)
    expect(await text('#region')).toBe('US')
  })

  it('answers a bad key with the v2 error', async () => {
    await page.type('#key', 'NRAK-NOT-A-REAL-KEY')
    await page.click('#authorize button')
    await pick('GET', '/v2/applications')
    await page.click('#send')
    await waitStatus(/^401/)
    expect(JSON.parse(await text('#body-out'))).toEqual({ error: { title: 'Invalid API Key' } })
  })

  it('authorizes, lists applications and follows the Link to the next page', async () => {
    await page.type('#key', DEMO_KEYS.all)
    await page.click('#authorize button')
    expect(await text('#key-state')).toMatch(/^Authorized/)
    await page.click('#send')
    await waitStatus(/^200/)
    const first = JSON.parse(await text('#body-out')) as { applications: { id: number }[] }
    expect(first.applications).toHaveLength(200)
    expect(await text('#curl')).toContain('$NEW_RELIC_API_KEY')
    await page.click('button.link[data-rel="next"]')
    await page.waitForFunction(
      (id) => !(document.getElementById('body-out')?.textContent ?? '').includes(`"id": ${id},`),
      { timeout: 15_000 },
      first.applications[0]!.id
    )
    await waitStatus(/^200/)
    const second = JSON.parse(await text('#body-out')) as { applications: { id: number }[] }
    expect(second.applications.length).toBeGreaterThan(0)
    expect(second.applications[0]!.id).not.toBe(first.applications[0]!.id)
  })

  it('runs a metric-data call with names and values and explains it, then in XML', async () => {
    await pick('GET', '/v2/applications/{application_id}/metrics/data')
    await page.type('[name="path:application_id"]', '9045822')
    await page.type('[name="query:names[]"]', 'HttpDispatcher')
    await page.type('[name="query:values[]"]', 'call_count\naverage_response_time')
    await page.select('[name="query:summarize"]', 'true')
    await page.click('#send')
    await waitStatus(/^200/)
    const body = JSON.parse(await text('#body-out')) as {
      metric_data: { metrics: { name: string; timeslices: { values: object }[] }[] }
    }
    expect(body.metric_data.metrics[0]!.name).toBe('HttpDispatcher')
    expect(Object.keys(body.metric_data.metrics[0]!.timeslices[0]!.values)).toEqual(
      expect.arrayContaining(['call_count', 'average_response_time'])
    )
    // The pane still shows the previous call's explain until this one's arrives.
    await page.waitForFunction(() =>
      (document.getElementById('explain')?.textContent ?? '').includes("'HttpDispatcher'")
    )
    expect(await text('#explain')).toMatch(/^NRQL:\n.*FROM Metric.*'HttpDispatcher'/)
    expect(await text('#explain')).not.toContain(DEMO_KEYS.all)
    mkdirSync(artifacts, { recursive: true })
    await page.$eval('#response', (e) => e.scrollIntoView())
    await page.screenshot({ path: `${artifacts}explorer.png` })

    await page.select('#format', 'xml')
    await page.click('#send')
    await waitStatus(/^200/)
    expect(await text('#body-out')).toMatch(/^<\?xml[\s\S]*<metric_data>/)
  })

  it('sends the key only as X-Api-Key to its own origin, never in a URL', async () => {
    const origin = new URL(bridge.url).origin
    expect(sent.length).toBeGreaterThan(5)
    for (const req of sent) {
      expect(new URL(req.url).origin).toBe(origin)
      expect(req.url).not.toContain('NRAK')
    }
    expect(sent.some((r) => r.headers['x-api-key'] === DEMO_KEYS.all)).toBe(true)
    const cookies = await page.cookies()
    expect(cookies).toEqual([])
  })
})

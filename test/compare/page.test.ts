/**
 * The migration report page (src/report/page.ts) shows compare mode's verification in headless
 * Chromium: v2bridge in `bridge` mode in front of the simulator and its v2 stand-in, perturbing one
 * value, then the page with the key typed in. Skips, saying so, where no Chromium is installed.
 */
import type { Browser } from 'puppeteer-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../src/core/config'
import { startServer, type NodeServer } from '../../src/node'
import { DEMO_KEYS, startSimulatorServer, type SimulatorServer } from '../../simulator'
import { chromium, launchChromium } from '../helpers/chromium'

describe.skipIf(!chromium)('the report page shows the verification', () => {
  let sim: SimulatorServer
  let bridge: NodeServer
  let browser: Browser

  beforeAll(async () => {
    sim = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
    await fetch(`${sim.url}/_sim/v2`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ perturb: 'value' }),
    })
    const config = parseConfig({
      PORT: '0',
      NERDGRAPH_URL: `${sim.url}/graphql`,
      V2_URL: `${sim.url}/v2`,
      ALLOW_HTTP: 'true',
      V2_COMPARE: 'bridge',
    })
    bridge = await startServer(config, undefined, { log: () => {} })
    const headers = { 'X-Api-Key': DEMO_KEYS.all }
    await (await fetch(`${bridge.url}/v2/applications/9045822/hosts.json`, { headers })).text()
    for (let i = 0; i < 200; i++) {
      const body = await (await fetch(`${bridge.url}/v2bridge/report.json`, { headers })).json()
      if ((body as { report: { verification: unknown[] } }).report.verification.length) break
      await new Promise((r) => setTimeout(r, 25))
    }
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await bridge?.close()
    await sim?.close()
  })

  it('lists each operation with its line and the differing paths, values as examples', async () => {
    const page = await browser.newPage()
    await page.goto(`${bridge.url}/v2bridge/report`)
    await page.type('#key', DEMO_KEYS.all)
    await page.click('#key-form button')
    await page.waitForFunction(
      () => !(document.getElementById('verification') as HTMLElement).hidden,
      { timeout: 15_000 }
    )
    const line = await page.$eval('#checks details summary', (e) => e.textContent ?? '')
    expect(line).toMatch(
      /^GET \/v2\/applications\/\{application_id\}\/hosts: 1 compared, 0 equal; /
    )
    // The path as a code span, not between raw backticks.
    expect(line).toContain('application_hosts[].application_summary.response_time differs in 1')
    expect(line).not.toContain('`')
    expect(
      await page.$$eval('#checks details summary code', (c) => c.map((e) => e.textContent))
    ).toEqual(['application_hosts[].application_summary.response_time'])
    const cells = await page.$$eval('#checks td.path', (tds) => tds.map((td) => td.textContent))
    expect(cells).toContain('application_hosts[].application_summary.response_time')
  })
})

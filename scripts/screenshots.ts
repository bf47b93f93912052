/**
 * @module scripts/screenshots
 * `npm run screenshots`: regenerates docs/explorer.png and docs/report.png from the running pages,
 * in headless Chromium (Debian's `chromium`, or CHROMIUM_PATH; puppeteer-core), against the demo
 * (v2bridge in front of the simulator on free loopback ports). The explorer shows a metric-data
 * call picked with the key's own lists and explained; the report, opened by typing a key into
 * it, shows the summary of the calls a script made with that key.
 */
import { fileURLToPath } from 'node:url'
import type { Page } from 'puppeteer-core'
import { DEMO_KEYS } from '../simulator'
import { chromium, launchChromium } from '../test/helpers/chromium'
import { startDemo } from './demo-server'

const docs = fileURLToPath(new URL('../docs/', import.meta.url))
const viewport = { width: 1280, height: 900 }

async function explorer(page: Page, base: string) {
  await page.goto(`${base}/explorer`)
  await page.type('#key', DEMO_KEYS.all)
  await page.click('#authorize button')
  await page.waitForSelector('button.op')
  await page.type('#search', 'metric data')
  const target = 'GET /v2/applications/{application_id}/metrics/data '
  for (const button of await page.$$('button.op')) {
    if ((await button.evaluate((e) => e.textContent ?? '')).startsWith(target)) await button.click()
  }
  const picked = async (picker: string, value: string) => {
    await page.waitForSelector(`select[data-picker="${picker}"] option[value="${value}"]`)
    await page.select(`select[data-picker="${picker}"]`, value)
  }
  await picked('application', '9045822')
  await picked('metric', 'HttpDispatcher')
  await page.type('[name="query:values[]"]', 'average_response_time\ncall_count')
  await page.select('#range', '30')
  await page.click('#send')
  await page.waitForFunction(
    () =>
      /^200/.test(document.getElementById('status')?.textContent ?? '') &&
      (document.getElementById('explain')?.textContent ?? '').startsWith('NRQL:')
  )
  await page.evaluate(() => window.scrollTo(0, 0)) // the catalog sticks to the top of the view
  await page.screenshot({ path: `${docs}explorer.png`, fullPage: true })
}

/** The report of another key, with calls of its own from a script, opened by typing the key. */
async function report(page: Page, base: string) {
  const headers = { 'X-Api-Key': DEMO_KEYS.one, 'User-Agent': 'python-requests/2.31.0' }
  const get = async (path: string) => (await fetch(base + path, { headers })).json()
  const { applications } = (await get('/v2/applications.json')) as {
    applications: { id: number }[]
  }
  const app = applications[0]!.id
  await get(`/v2/applications/${app}/metrics/data.json?names[]=HttpDispatcher&values[]=call_count`)
  await get(`/v2/applications/${app}/metrics/data.json?names[]=Apdex&summarize=true`)
  await get(`/v2/applications/${app}/hosts.json`)
  await get('/v2/plugins.json')
  await page.goto(`${base}/v2bridge/report`)
  await page.type('#key', DEMO_KEYS.one)
  await page.click('#key-form button')
  await page.waitForSelector('#summary:not([hidden])')
  await page.screenshot({ path: `${docs}report.png`, fullPage: true })
}

async function main() {
  if (!chromium)
    throw new Error('no Chromium found: apt-get install chromium, or set CHROMIUM_PATH')
  const demo = await startDemo({ PORT: '0', SIM_PORT: '0' }, () => {})
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    await page.setViewport(viewport)
    await explorer(page, demo.bridge.url)
    const other = await browser.newPage() // a tab of its own: no key kept in it yet
    await other.setViewport(viewport)
    await report(other, demo.bridge.url)
    console.log(`wrote ${docs}explorer.png and ${docs}report.png`)
  } finally {
    await browser.close()
    await demo.close()
  }
}

await main()

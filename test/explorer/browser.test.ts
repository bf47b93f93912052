/**
 * The explorer page driven in headless Chromium (Debian's `chromium` package, puppeteer-core) against
 * v2bridge and the simulator over real HTTP, as `npm run demo` runs them: every wait is for an
 * element or a text, never a time. Skips, saying so, where no Chromium is installed
 * (`apt-get install chromium`, or set CHROMIUM_PATH).
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
  const sent: { method: string; url: string; headers: Record<string, string> }[] = []

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
      if (/^https?:/.test(req.url()))
        sent.push({ method: req.method(), url: req.url(), headers: req.headers() })
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
  /** Calls that reached the bridge for real (not explained, not a static file). */
  const executed = (method: string, pathPart: string) =>
    sent.filter(
      (r) => r.method === method && r.url.includes(pathPart) && !r.headers['x-v2bridge-explain']
    )
  const hidden = (selector: string) => page.$eval(selector, (e) => (e as HTMLElement).hidden)
  /** Waits for a picker's option `value`, then picks it. */
  const choosePicked = async (picker: string, value: string) => {
    await page.waitForSelector(`select[data-picker="${picker}"] option[value="${value}"]`)
    await page.select(`select[data-picker="${picker}"]`, value)
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
    expect(await text('#curl')).toContain('$NEW_RELIC_USER_KEY')
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

  it('shows each parameter with its explorer type and description, and the v2 documentation', async () => {
    await pick('GET', '/v2/applications/{application_id}/hosts')
    const label = await page.$eval('[name="path:application_id"]', (input) => [
      input.parentElement!.querySelector('label')!.textContent,
      input.parentElement!.querySelector('.desc')!.textContent,
    ])
    // v2 explorer application_hosts.json: application_id, Integer, "Application ID"
    expect(label).toEqual(['application_idInteger', 'Application ID'])
    const hostname = await page.$eval(
      '[name="query:filter[hostname]"]',
      (input) => input.parentElement!.textContent
    )
    expect(hostname).toBe('filter[hostname]StringFilter by server hostname')
    expect(await page.$eval('#op-docs', (a) => (a as HTMLAnchorElement).href)).toBe(
      'https://docs.newrelic.com/docs/apis/rest-api-v2/application-examples-v2/list-apps-host-ids-instance-ids'
    )
  })

  it("fills the ID pickers from the key's own applications, hosts and metric names", async () => {
    const before = sent.length
    await page.select('#format', 'json')
    await pick('GET', '/v2/applications/{application_id}/hosts/{host_id}/metrics/data')
    expect(await text('select[data-picker="host"] option')).toBe(
      'Type or pick application_id first'
    )
    await choosePicked('application', '9045822')
    expect(
      await page.$eval('[name="path:application_id"]', (e) => (e as HTMLInputElement).value)
    ).toBe('9045822')
    // The hosts of that application, read through GET /v2/applications/9045822/hosts.json.
    await page.waitForSelector('select[data-picker="host"] option[value]:not([value=""])')
    const hosts = await page.$$eval('select[data-picker="host"] option', (options) =>
      options.slice(1).map((o) => [(o as HTMLOptionElement).value, o.textContent])
    )
    expect(hosts.length).toBeGreaterThan(0)
    expect(hosts[0]![1]).toMatch(/^ip-[\d-]+\.ec2\.internal \(\d+\)$/)
    await page.select('select[data-picker="host"]', hosts[0]![0]!)
    await page.waitForSelector('select[data-picker="metric"] option[value="HttpDispatcher"]')
    await page.select('select[data-picker="metric"]', 'HttpDispatcher')
    await page.select('select[data-picker="metric"]', 'Apdex')
    expect(
      await page.$eval('[name="query:names[]"]', (e) => (e as HTMLTextAreaElement).value)
    ).toBe('HttpDispatcher\nApdex')
    const lists = sent
      .slice(before)
      .filter((r) => /\/(applications|hosts|metrics)\.json$/.test(new URL(r.url).pathname))
    expect(lists.map((r) => new URL(r.url).pathname)).toEqual(
      expect.arrayContaining([
        '/v2/applications/9045822/hosts.json',
        `/v2/applications/9045822/hosts/${hosts[0]![0]}/metrics.json`,
      ])
    )
    expect(lists.every((r) => r.headers['x-api-key'] === DEMO_KEYS.all)).toBe(true)
  })

  it('fills from and to from a time range preset', async () => {
    await page.select('#range', '60')
    const [from, to] = await page.$$eval(
      ['[name="query:from"]', '[name="query:to"]'].join(','),
      (inputs) => inputs.map((i) => new Date((i as HTMLInputElement).value).getTime())
    )
    expect(to! - from!).toBe(3_600_000)
    await page.click('#send')
    await waitStatus(/^200/)
    const call = executed('GET', '/metrics/data.json').at(-1)!
    const query = new URL(call.url).searchParams
    expect(Date.parse(query.get('to')!) - Date.parse(query.get('from')!)).toBe(3_600_000)
    expect(query.getAll('names[]')).toEqual(['HttpDispatcher', 'Apdex'])
  })

  it('clears the previous answer when another operation is picked', async () => {
    expect(await hidden('#response')).toBe(false)
    await pick('GET', '/v2/users')
    expect(await hidden('#response')).toBe(true)
    expect(await text('#body-out')).toBe('')
    expect(await text('#explain')).toBe('')
    expect(await text('#status')).toBe('')
  })

  it('leaves a write empty and sends it once, after a confirm step naming the account and the entity', async () => {
    await pick('POST', '/v2/applications/{application_id}/deployments')
    expect(await page.$eval('#body', (e) => (e as HTMLTextAreaElement).value)).toBe('')
    expect(await page.$eval('#body', (e) => (e as HTMLTextAreaElement).placeholder)).toMatch(
      /^Example \(not sent unless typed\):\n\{\n {2}"deployment"/
    )
    // v2 explorer application_deployments.json: body `deployment`, model Deployment
    expect(await text('#body-type')).toBe('Deployment')
    await choosePicked('application', '9045822')
    await page.type('#body', '{"deployment":{"revision":"v42"}}')
    await page.click('#send')
    await page.waitForFunction(() =>
      (document.getElementById('confirm-text')?.textContent ?? '').includes('Account:')
    )
    // The simulator's application 9045822 lives in account 1000001 (its GUID says so).
    expect((await text('#confirm-text')).split('\n')).toEqual([
      'Create deployment: POST /v2/applications/9045822/deployments.json',
      'Account: 1000001',
      'Application ID (application_id): 9045822 — Checkout Service (java)',
      'This writes to New Relic.',
    ])
    expect(executed('POST', '/deployments.json')).toHaveLength(0)
    await page.click('#confirm-send')
    await waitStatus(/^201/)
    expect(JSON.parse(await text('#body-out')).deployment.revision).toBe('v42')
    expect(await hidden('#confirm')).toBe(true)
    expect(await page.$eval('#confirm-send', (b) => (b as HTMLButtonElement).disabled)).toBe(true)
    expect(executed('POST', '/deployments.json')).toHaveLength(1)
  })

  it('asks before every DELETE and sends nothing when cancelled', async () => {
    await pick('DELETE', '/v2/alerts_policies/{policy_id}')
    await page.type('[name="path:policy_id"]', '12345')
    await page.click('#send')
    await page.waitForFunction(() =>
      (document.getElementById('confirm-text')?.textContent ?? '').includes('Account:')
    )
    // The safe button has the focus, also once "Send it" is enabled: Enter cancels.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('confirm-cancel')
    expect((await text('#confirm-text')).split('\n')).toEqual([
      'Delete policy: DELETE /v2/alerts_policies/12345.json',
      'Account: the one this key belongs to (forwarded unchanged to REST API v2)',
      'Policy ID (policy_id): 12345',
      'This deletes data in New Relic.',
    ])
    await page.click('#confirm-cancel')
    expect(await hidden('#confirm')).toBe(true)
    expect(executed('DELETE', '/alerts_policies/')).toHaveLength(0)
  })

  it('finds operations by words typed in the search box', async () => {
    await page.type('#search', 'metric data')
    const shown = await page.$$eval('#catalog li:not([hidden]) button.op', (buttons) =>
      buttons.map((b) => `${b.firstChild!.textContent}${b.childNodes[1]!.textContent}`)
    )
    expect(shown).toEqual([
      'GET /v2/applications/{application_id}/metrics/data ',
      'GET /v2/applications/{application_id}/hosts/{host_id}/metrics/data ',
      'GET /v2/applications/{application_id}/instances/{instance_id}/metrics/data ',
      'GET /v2/mobile_applications/{mobile_application_id}/metrics/data ',
      'GET /v2/servers/{server_id}/metrics/data ',
      'GET /v2/components/{component_id}/metrics/data ',
    ])
    await page.type('#search', ' nothing-like-this')
    expect(await hidden('#search-none')).toBe(false)
    expect(await page.$$eval('#catalog details:not([hidden])', (d) => d.length)).toBe(0)
    await page.$eval('#search', (e) => {
      ;(e as HTMLInputElement).value = ''
      e.dispatchEvent(new Event('input'))
    })
    expect(await page.$$eval('#catalog li[hidden]', (items) => items.length)).toBe(0)
  })

  it('fits a phone: no sideways scrolling, the form in reach', async () => {
    const phone = await browser.newPage()
    await phone.setViewport({ width: 375, height: 740, isMobile: true, hasTouch: true })
    await phone.goto(`${bridge.url}/explorer`)
    await phone.waitForSelector('button.op')
    const overflow = () =>
      phone.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth
      )
    expect(await overflow()).toBe(0)
    const buttons = await phone.$$('button.op')
    for (const b of buttons) {
      const label = await b.evaluate((e) => e.textContent ?? '')
      if (label.startsWith('GET /v2/applications/{application_id}/metrics/data ')) await b.click()
    }
    await phone.waitForSelector('#request:not([hidden])')
    expect(await overflow()).toBe(0)
    const send = await phone.$eval('#send', (b) => {
      const r = b.getBoundingClientRect()
      return { left: r.left, right: r.right }
    })
    expect(send.left).toBeGreaterThanOrEqual(0)
    expect(send.right).toBeLessThanOrEqual(375)
    const widest = await phone.$$eval('#request input, #request select, #request textarea', (els) =>
      Math.max(...els.map((e) => e.getBoundingClientRect().right))
    )
    expect(widest).toBeLessThanOrEqual(375)
    mkdirSync(artifacts, { recursive: true })
    await phone.screenshot({ path: `${artifacts}explorer-phone.png` })
    await phone.close()
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

  it('in the demo, starts authorized with the demo key and names the simulator as its region', async () => {
    const config = parseConfig({
      PORT: '0',
      NERDGRAPH_URL: `${sim.url}/graphql`,
      ALLOW_HTTP: 'true',
    })
    const demo = await startServer(config, undefined, {
      log: () => {},
      demo: { key: DEMO_KEYS.all },
    })
    const tab = await browser.newPage()
    try {
      await tab.goto(`${demo.url}/explorer/`)
      await tab.waitForSelector('button.op')
      expect(await tab.$eval('#region', (e) => e.textContent)).toBe('simulator')
      expect(await tab.$eval('#key-state', (e) => e.textContent)).toBe(
        'Authorized with the demo key'
      )
      for (const b of await tab.$$('button.op'))
        if ((await b.evaluate((e) => e.textContent ?? '')).startsWith('GET /v2/applications '))
          await b.click()
      await tab.click('#send')
      // Within the test's time, and saying what the page shows if it does not come.
      await tab
        .waitForFunction(() => /^200/.test(document.getElementById('status')?.textContent ?? ''), {
          timeout: 20_000,
        })
        .catch(async (err: Error) => {
          const status = await tab.$eval('#status', (e) => e.textContent)
          throw new Error(`no 200 within 20 s; the status reads ${JSON.stringify(status)}`, {
            cause: err,
          })
        })
    } finally {
      await tab.close()
      await demo.close()
    }
  })
})

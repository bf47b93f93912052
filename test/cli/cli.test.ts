import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { main, type Io, type Running } from '../../src/cli/main'
import { createSimulator, DEMO_KEYS, startSimulatorServer } from '../../simulator'
import { startDemo } from '../../scripts/demo-server'

const simUrl = 'http://127.0.0.1:9/graphql'

function io(env: Record<string, string> = {}) {
  const sim = createSimulator()
  const bodies: string[] = []
  const out: string[] = []
  const err: string[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    bodies.push(await req.clone().text())
    return sim.fetch(req)
  }) as typeof globalThis.fetch
  // Request lines of `serve` and `demo` stay in the test, not on its output.
  const log: Record<string, unknown>[] = []
  const value: Io = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env,
    fetch,
    startDemo,
    log: (line) => log.push(line),
  }
  return { io: value, sim, bodies, out, err, log, text: () => out.join('\n') }
}

const running: Running[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()))
})

describe('v2bridge doctor', () => {
  it('reports accounts, applications, timeslices and routes, and exits 0 for a working key', async () => {
    const t = io()
    const code = await main(['doctor', '--key', DEMO_KEYS.all, '--nerdgraph-url', simUrl], t.io)
    expect(code).toBe(0)
    const text = t.text()
    expect(text).toContain('ok        key accepted: 2 account(s) visible (1000001, 1000002)')
    expect(text).toMatch(/ok {8}APM applications: \d+ found/)
    expect(text).toMatch(/ok {8}timeslice metrics answer NRQL: 3 of 3 sampled application\(s\)/)
    expect(text).toContain(
      'works      GET /v2/applications/{application_id}/metrics/data  Metric data'
    )
    expect(text).toContain('core read path (applications and metric data): works')
    // Read-only: nothing but queries went upstream.
    expect(t.bodies.length).toBeGreaterThan(0)
    for (const body of t.bodies) expect(JSON.parse(body).query).toMatch(/^\s*query /)
  })

  it('exits 1 for a key NerdGraph rejects, and for an account the key cannot see', async () => {
    const bad = io()
    const badCode = await main(['doctor', '--key', 'NRAK-NOPE', '--nerdgraph-url', simUrl], bad.io)
    expect(badCode).toBe(1)
    expect(bad.text()).toContain('fail      key rejected by NerdGraph')
    const hidden = io()
    const args = [
      'doctor',
      '--key',
      DEMO_KEYS.one,
      '--account',
      '1000001',
      '--nerdgraph-url',
      simUrl,
    ]
    expect(await main(args, hidden.io)).toBe(1)
    expect(hidden.text()).toContain('account 1000001 is not visible to this key')
  })

  it('asks the EU endpoint with --region eu', async () => {
    const t = io()
    const urls: string[] = []
    const fetch = t.io.fetch!
    t.io.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      urls.push(String(input instanceof Request ? input.url : input))
      return fetch(input, init)
    }) as typeof globalThis.fetch
    expect(await main(['doctor', '--key', DEMO_KEYS.all, '--region', 'eu'], t.io)).toBe(0)
    expect(new Set(urls)).toEqual(new Set(['https://api.eu.newrelic.com/graphql']))
    expect(await main(['doctor', '--key', DEMO_KEYS.all, '--region', 'mars'], t.io)).toBe(2)
  })

  it('exits 2 without a key', async () => {
    const t = io()
    expect(await main(['doctor'], t.io)).toBe(2)
    expect(t.err.join('\n')).toContain('doctor needs --key')
  })
})

describe('v2bridge explain', () => {
  const url =
    'https://api.newrelic.com/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&summarize=true'

  it('works offline with --account: prints the plan and sends nothing', async () => {
    const t = io()
    expect(await main(['explain', url, '--account', '1000001'], t.io)).toBe(0)
    const { explain } = JSON.parse(t.text()) as {
      explain: {
        nerdgraph: { operation: string; nrql: string[]; variables: Record<string, unknown> }[]
      }
    }
    expect(explain.nerdgraph[0]!.operation).toBe('MetricData')
    expect(explain.nerdgraph[0]!.variables['accountId']).toBe(1000001)
    expect(explain.nerdgraph[0]!.nrql[0]).toMatch(/FROM Metric WHERE entity.guid = '/)
    expect(t.bodies).toEqual([])
  })

  it('asks for --key or --account when the call needs a lookup', async () => {
    const t = io()
    expect(await main(['explain', url], t.io)).toBe(2)
    expect(t.err.join('\n')).toContain('pass --key, or --account ID')
    expect(t.bodies).toEqual([])
  })

  it('looks the application up with --key and sends nothing else', async () => {
    const t = io()
    const code = await main(
      ['explain', url, '--key', DEMO_KEYS.all, '--nerdgraph-url', simUrl],
      t.io
    )
    expect(code).toBe(0)
    expect(t.bodies.map((b) => JSON.parse(b).query)).toEqual([
      expect.stringMatching(/query FindEntity/),
    ])
    expect(t.sim.stats().nrqlQueries).toBe(0)
  })
})

describe('v2bridge serve and demo', () => {
  it('serve answers v2 calls with the settings of the environment', async () => {
    const sim = await startSimulatorServer({ port: 0 })
    running.push(sim)
    const t = io({ PORT: '0', NERDGRAPH_URL: `${sim.url}/graphql`, ALLOW_HTTP: 'true' })
    const server = (await main(['serve'], t.io)) as Running
    running.push(server)
    // One JSON start line on the request lines' stream (issue 25, item 5).
    expect(t.out).toHaveLength(1)
    expect(JSON.parse(t.out[0]!)).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: 'info',
      event: 'start',
      message: `v2bridge on ${server.url}/v2 → ${sim.url}/graphql`,
      url: server.url,
      nerdgraph: `${sim.url}/graphql`,
      plainHttp: 'plain HTTP: accepted (ALLOW_HTTP), for local use only',
    })
    const res = await fetch(`${server.url}/v2/applications.json?filter[name]=Checkout`, {
      headers: { 'X-Api-Key': DEMO_KEYS.all },
    })
    expect(res.status).toBe(200)
    // The request line went where the caller said (issue 25, item 7: a test run prints none).
    await new Promise((done) => setTimeout(done, 50))
    expect(t.log.some((l) => l['path'] === '/v2/applications.json' && l['status'] === 200)).toBe(
      true
    )
  })

  it('demo starts v2bridge in front of the simulator and prints the demo keys', async () => {
    const t = io({ PORT: '0', SIM_PORT: '0' })
    const demo = (await main(['demo'], t.io)) as Running
    running.push(demo)
    expect(t.text()).toContain(DEMO_KEYS.all)
    const res = await fetch(`${demo.url}/v2bridge/report.json`, {
      headers: { 'X-Api-Key': DEMO_KEYS.all },
    })
    expect(res.status).toBe(200)
  })
})

describe('the demo end to end, over HTTP', () => {
  it('explain shows the NRQL the simulator then receives, and the report page lists the calls', async () => {
    const t = io({ PORT: '0', SIM_PORT: '0' })
    const demo = (await main(['demo'], t.io)) as Running
    running.push(demo)
    const simulator = /NerdGraph simulator +(\S+)\/graphql/.exec(t.text())![1]!
    const headers = { 'X-Api-Key': DEMO_KEYS.all, 'User-Agent': 'python-requests/2.31' }
    const call = `${demo.url}/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&from=2026-11-20T10:00:00%2B00:00&to=2026-11-20T11:00:00%2B00:00`
    const explained = await fetch(call, { headers: { ...headers, 'X-V2bridge-Explain': '1' } })
    const { explain } = (await explained.json()) as { explain: { nerdgraph: { nrql: string[] }[] } }
    await fetch(`${simulator}/_sim/reset`, { method: 'POST' })

    expect((await fetch(call, { headers })).status).toBe(200)
    const stats = (await (await fetch(`${simulator}/_sim/stats`)).json()) as { queries: string[] }
    expect([...stats.queries].sort()).toEqual([...explain.nerdgraph[0]!.nrql].sort())

    // The report the page shows (its JSON; the page itself is driven in test/report/browser.test.ts).
    const { report } = (await (
      await fetch(`${demo.url}/v2bridge/report.json`, { headers })
    ).json()) as {
      report: {
        operations: { method: string; path: string; client: string; metric_names: string[] }[]
      }
    }
    const data = report.operations.find(
      (o) => o.path === '/v2/applications/{application_id}/metrics/data'
    )
    expect(data).toMatchObject({
      method: 'GET',
      client: 'Python',
      metric_names: ['HttpDispatcher'],
    })
  })
})

describe('the v2bridge bin', () => {
  const bin = fileURLToPath(new URL('../../bin/v2bridge.js', import.meta.url))
  const run = (args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      child.stdout.on('data', (d) => (out += d))
      child.stderr.on('data', (d) => (out += d))
      child.on('close', (code) => resolve({ code, out }))
    })

  it('runs doctor against the demo simulator: 0 for the demo key, non-zero for a bad key', async () => {
    const sim = await startSimulatorServer({ port: 0 })
    running.push(sim)
    const url = `${sim.url}/graphql`
    const good = await run(['doctor', '--key', DEMO_KEYS.all, '--nerdgraph-url', url])
    expect(good.out).toContain('core read path (applications and metric data): works')
    expect(good.code).toBe(0)
    const bad = await run(['doctor', '--key', 'NRAK-NOPE', '--nerdgraph-url', url])
    expect(bad.code).toBe(1)
  })
})

describe('the demo on a taken port (issue 25, item 7)', () => {
  it('prints one line naming the setting and exits 2, without a stack or a half-started demo', async () => {
    const taken = createServer()
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done))
    const port = (taken.address() as { port: number }).port
    try {
      for (const env of [
        { PORT: String(port), SIM_PORT: '0' },
        { PORT: '0', SIM_PORT: String(port) },
      ]) {
        const t = io(env)
        expect(await main(['demo'], t.io)).toBe(2)
        const setting = env.PORT === String(port) ? 'PORT' : 'SIM_PORT'
        expect(t.err).toHaveLength(1)
        expect(t.err[0]).toMatch(
          new RegExp(`^v2bridge: port ${port} is taken, .*set ${setting} to a free port`)
        )
      }
    } finally {
      await new Promise((done) => taken.close(done))
    }
  })

  it('names the API explorer in the banner', async () => {
    const t = io({ PORT: '0', SIM_PORT: '0' })
    const demo = (await main(['demo'], t.io)) as Running
    running.push(demo)
    expect(t.text()).toContain(`API explorer         ${demo.url}/explorer`)
  })
})

describe('doctor, round two (issue 25, item 4)', () => {
  it('says in one line that NerdGraph cannot be reached, and exits 2', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer()
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done))
    const port = (probe.address() as { port: number }).port
    await new Promise((done) => probe.close(done))
    const url = `http://127.0.0.1:${port}/graphql`
    const out: string[] = []
    const err: string[] = []
    const code = await main(['doctor', '--key', DEMO_KEYS.all, '--nerdgraph-url', url], {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      env: {},
    })
    expect(code).toBe(2)
    expect(err).toEqual([`v2bridge: NerdGraph at ${url} could not be reached (ECONNREFUSED)`])
  })

  it('never calls the always-409 deployment delete "works", and names the timeslice prerequisite', async () => {
    const t = io()
    expect(await main(['doctor', '--key', DEMO_KEYS.all, '--nerdgraph-url', simUrl], t.io)).toBe(0)
    expect(t.text()).toMatch(
      /always 409 +DELETE \/v2\/applications\/\{application_id\}\/deployments\/\{id\}/
    )
    expect(t.text()).toContain('unchecked: it uses')
  })
})

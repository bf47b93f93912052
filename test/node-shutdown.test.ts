import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_KEYS } from '../simulator'
import { startChild, type ChildServer } from './helpers/child-server'

// The simulator runs in its own process too: its CPU work must not delay this client's requests.
let sim: ChildServer

beforeAll(async () => {
  sim = await startChild(
    [process.execPath, '--import', 'tsx', 'simulator/serve.ts'],
    { SIM_PORT: '0' },
    { ready: /simulator on (http:\/\/\S+?)\/graphql/ }
  )
})
afterAll(async () => {
  sim.child.kill('SIGTERM')
  await sim.exited
})

const setFaults = (faults: object) =>
  fetch(`${sim.url}/_sim/faults`, { method: 'POST', body: JSON.stringify(faults) })

function start(env: Record<string, string> = {}): Promise<ChildServer> {
  return startChild([process.execPath, '--import', 'tsx', 'src/node.ts'], {
    PORT: '0',
    NERDGRAPH_URL: `${sim.url}/graphql`,
    ALLOW_HTTP: 'true',
    ...env,
  })
}

interface Answer {
  status: number
  body: { applications?: []; error?: string }
}

/** `n` different application lists (no coalescing), each waiting on the slowed simulator: `sent`
 * resolves once every request has been written to its connection, so each is in flight. */
function load(url: string, n: number) {
  const sent: Promise<void>[] = []
  const answers = Array.from({ length: n }, (_, i) => {
    const path = `/v2/applications.json?filter[name]=shutdown-${i}`
    const req = request(`${url}${path}`, { headers: { 'X-Api-Key': DEMO_KEYS.all }, agent: false })
    sent.push(new Promise((done) => req.once('finish', done)))
    return new Promise<Answer>((resolve) => {
      req.once('error', (err) => resolve({ status: 0, body: { error: String(err) } }))
      req.once('response', (res) => {
        let text = ''
        res.on('data', (b: Buffer) => (text += b))
        res.once('error', (err) => resolve({ status: 0, body: { error: String(err) } }))
        res.once('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
      })
      req.end()
    })
  })
  return { sent: Promise.all(sent), answers }
}

/** The JSON lines a child wrote on stdout. */
const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)

async function graphqlRequests(): Promise<number> {
  const res = await fetch(`${sim.url}/_sim/stats`)
  return ((await res.json()) as { graphqlRequests: number }).graphqlRequests
}

async function until(condition: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('the Node server on SIGTERM', () => {
  it('answers every request in flight, logs each, refuses new connections, and exits 0', async () => {
    await setFaults({ latencyMs: 200 })
    try {
      const server = await start({ SHUTDOWN_GRACE_MS: '60000' })
      const before = await graphqlRequests()
      const { sent, answers } = load(server.url, 8)
      await sent
      // In flight = read by the server: the 8 lists share one account lookup, then each sends its own
      // search, so 9 upstream requests mean all 8 are past parsing. (A request still in the kernel's
      // accept queue at SIGTERM was never received, and is not what this test is about.)
      await until(async () => (await graphqlRequests()) >= before + 9)
      server.child.kill('SIGTERM')
      await until(async () => server.stdout().includes('"event":"stopping"'))
      const late = await fetch(`${server.url}/healthz`).then(
        (r) => r.status,
        (err: Error) => (err.cause as { code?: string }).code
      )
      const results = await Promise.all(answers)
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(200))
      expect(results.every((r) => Array.isArray(r.body.applications))).toBe(true)
      expect(late).toBe('ECONNREFUSED')
      expect(await server.exited).toBe(0)
      expect(lines(server.stdout()).map((l) => l['event'])).toEqual(
        expect.arrayContaining(['start', 'stopping', 'stopped'])
      )
      expect(lines(server.stdout()).find((l) => l['event'] === 'stopping')).toMatchObject({
        level: 'info',
        signal: 'SIGTERM',
        graceMs: 60000,
      })
      // Every read answered after SIGTERM has its request line, written before the stop line.
      const written = lines(server.stdout())
      const answered = written.filter((l) => l['route'] === '/v2/applications')
      expect(answered.map((l) => [l['method'], l['status']])).toEqual(Array(8).fill(['GET', 200]))
      const stopped = written.findIndex((l) => l['event'] === 'stopped')
      expect(written.findLastIndex((l) => l['route'] === '/v2/applications')).toBeLessThan(stopped)
    } finally {
      await setFaults({})
    }
  })

  it('answers what is still running after SHUTDOWN_GRACE_MS a v2-shaped 503, then exits 1', async () => {
    await setFaults({ latencyMs: 5_000 })
    try {
      const server = await start({ SHUTDOWN_GRACE_MS: '300' })
      const before = await graphqlRequests()
      const { sent, answers } = load(server.url, 2)
      await sent
      await until(async () => (await graphqlRequests()) > before)
      const signalled = Date.now()
      server.child.kill('SIGINT')
      expect(await server.exited).toBe(1)
      expect(Date.now() - signalled).toBeLessThan(3_000)
      const results = await Promise.all(answers)
      expect(results.map((r) => r.status)).toEqual([503, 503])
      expect(results[0]!.body).toEqual({
        error: { title: 'v2bridge is restarting and did not finish this request: retry it' },
      })
      expect(lines(server.stdout()).find((l) => l['event'] === 'grace-over')).toMatchObject({
        level: 'warn',
        answered503: 2,
      })
    } finally {
      await setFaults({})
    }
  })
})

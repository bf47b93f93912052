import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main, type Io, type Running } from '../../src/cli/main'
import { DEMO_KEYS } from '../../simulator'
import { startDemo } from '../../scripts/demo-server'

// `v2bridge doctor --bridge URL` against the demo over real sockets (issue 25, item 4).
function io(env: Record<string, string> = {}) {
  const out: string[] = []
  const err: string[] = []
  const value: Io = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env,
    startDemo,
    log: () => {},
  }
  return { io: value, out, err, text: () => out.join('\n') }
}

let demo: Running
beforeAll(async () => {
  const t = io({ PORT: '0', SIM_PORT: '0' })
  demo = (await main(['demo'], t.io)) as Running
})
afterAll(() => demo.close())

describe('v2bridge doctor --bridge', () => {
  it('checks health, one read per family, the account and the NRQL, and exits 0', async () => {
    const t = io()
    const code = await main(['doctor', '--bridge', `${demo.url}/v2`, '--key', DEMO_KEYS.one], t.io)
    const text = t.text()
    expect(code, text).toBe(0)
    expect(text).toContain(`v2bridge doctor → ${demo.url} (a deployed v2bridge)`)
    expect(text).toContain('ok        healthz: answers')
    expect(text).toContain('ok        readyz: ready')
    expect(text).toMatch(/ok {8}key accepted: \d+ application\(s\) on the first page/)
    expect(text).toMatch(/works {2}metric data: HTTP 200 in \d+ ms/)
    expect(text).toMatch(/works {2}alerts policies \(forwarded to v2\): HTTP 200 in \d+ ms/)
    // DEMO_KEYS.one sees account 1000002 only (simulator/README.md).
    expect(text).toContain('ok        the key acts for account 1000002')
    expect(text).toMatch(/NRQL: SELECT .* FROM Metric .*HttpDispatcher/)
    expect(text).toContain('core read path (applications and metric data): works')
    expect(text).not.toContain(DEMO_KEYS.one)
  })

  it('sends reads only: every request to the bridge is a GET', async () => {
    const methods: string[] = []
    const t = io()
    t.io.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      methods.push(new Request(input, init).method)
      return fetch(input, init)
    }) as typeof fetch
    expect(await main(['doctor', '--bridge', demo.url, '--key', DEMO_KEYS.all], t.io)).toBe(0)
    expect(methods.length).toBeGreaterThan(10)
    expect(new Set(methods)).toEqual(new Set(['GET']))
  })

  it("exits 1 with v2's title for a key the bridge rejects", async () => {
    const t = io()
    expect(await main(['doctor', '--bridge', demo.url, '--key', 'NRAK-NOPE'], t.io)).toBe(1)
    expect(t.text()).toMatch(/fail {6}key rejected \(HTTP 40[13]: .+\)/)
  })

  it('exits 2 with one line when the bridge cannot be reached', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number }
        s.close(() => resolve(port))
      })
    })
    const t = io()
    const code = await main(
      ['doctor', '--bridge', `http://127.0.0.1:${port}`, '--key', DEMO_KEYS.all],
      t.io
    )
    expect(code).toBe(2)
    expect(t.err).toEqual([
      `v2bridge: v2bridge at http://127.0.0.1:${port} could not be reached (ECONNREFUSED)`,
    ])
  })

  it('never sends the key in clear across a network: plain http only to this machine', async () => {
    const t = io()
    const code = await main(
      ['doctor', '--bridge', 'http://v2bridge.example.com', '--key', DEMO_KEYS.all],
      t.io
    )
    expect(code).toBe(2)
    expect(t.err).toEqual([
      'v2bridge: v2bridge at http://v2bridge.example.com is not https: the key is sent only over TLS or to this machine (localhost)',
    ])
  })

  it('pointed at a v2bridge as if it were NerdGraph, says so and names --bridge', async () => {
    const t = io()
    const code = await main(['doctor', '--nerdgraph-url', demo.url, '--key', DEMO_KEYS.all], t.io)
    expect(code).toBe(1)
    expect(t.text()).toContain(
      `fail      ${demo.url} is not NerdGraph (HTTP 404); to check a deployed v2bridge use --bridge URL`
    )
  })
})

/**
 * `v2bridge verify --bridge URL` (issue 36 item 5): each call goes to that deployed v2bridge, a real
 * Node server (src/node.ts, what `node dist/node.js` starts) in front of the simulator over real
 * sockets, and to the v2 stand-in, and the two are compared; the bridge's request log shows every
 * call; a perturbation of v2 is found.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { parseConfig } from '../../src/core/config'
import { startServer, type NodeServer } from '../../src/node'
import type { RequestLogLine } from '../../src/core/request-log'
import { main } from '../../src/cli/main'
import { DEMO_KEYS, startSimulatorServer, type SimulatorServer } from '../../simulator'

let sim: SimulatorServer
let bridge: NodeServer
const log: RequestLogLine[] = []
const appId = 9045822 // Checkout Service (simulator/data/catalog.ts)
const calls = [
  '/v2/applications.json?filter[language]=java',
  `/v2/applications/${appId}.json`,
  `/v2/applications/${appId}/hosts.json`,
  `/v2/applications/${appId}/metrics/data.json?names[]=HttpDispatcher&summarize=true`,
]

beforeAll(async () => {
  // One fixed now for the stand-in and the bridge, both in this process.
  vi.useFakeTimers({ toFake: ['Date'], now: Math.floor(Date.now() / 60_000) * 60_000 + 30_000 })
  sim = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
  const config = parseConfig({ PORT: '0', NERDGRAPH_URL: `${sim.url}/graphql`, ALLOW_HTTP: 'true' })
  bridge = await startServer(config, undefined, { log: (line) => log.push(line) })
})
afterAll(async () => {
  vi.useRealTimers()
  await bridge.close()
  await sim.close()
})

async function verify(...extra: string[]) {
  const file = join(mkdtempSync(join(tmpdir(), 'verify-')), 'calls.txt')
  writeFileSync(file, calls.join('\n'))
  const out: string[] = []
  const err: string[] = []
  const code = await main(
    ['verify', '--key', DEMO_KEYS.all, '--v2-url', `${sim.url}/v2`, '--urls', file, ...extra],
    { out: (l) => out.push(l), err: (l) => err.push(l), env: {} }
  )
  return { code, out: out.join('\n'), err }
}

describe('verify --bridge', () => {
  it("compares the deployed bridge's answers with v2's, call by call", async () => {
    log.length = 0
    const { code, out, err } = await verify('--bridge', bridge.url)
    expect(err).toEqual([])
    expect(out).toMatch(/4 calls: no difference beyond noise$/)
    expect(code).toBe(0)
    // The bridge answered each call (its request log), with the key it was given.
    const seen = log.filter((l) => l.status === 200).map((l) => l.route)
    expect(seen).toEqual([
      '/v2/applications',
      '/v2/applications/{id}',
      '/v2/applications/{application_id}/hosts',
      '/v2/applications/{application_id}/metrics/data',
    ])
  })

  it("finds a difference between v2 and the bridge's answer", async () => {
    await fetch(`${sim.url}/_sim/v2`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ perturb: 'value' }),
    })
    try {
      const { code, out } = await verify('--bridge', `${bridge.url}/v2`)
      expect(out).toContain('differs  application.application_summary.response_time')
      expect(code).toBe(1)
    } finally {
      await fetch(`${sim.url}/_sim/reset`, { method: 'POST' })
    }
  })
})

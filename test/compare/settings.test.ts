/**
 * Compare mode's settings (src/core/config.ts) and the Node entry's way of running a comparison once
 * the response has gone (src/node.ts `afterResponse`, the response's `close`).
 */
import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfig } from '../../src/core/config'
import { parseNodeConfig } from '../../src/node/config'
import { startServer } from '../../src/node'
import { createSimulator, DEMO_KEYS } from '../../simulator'

/** The Node entry's settings in `bridge` mode, in front of the in-process simulator. */
const bridgeMode = (more: Record<string, string> = {}) =>
  parseNodeConfig({
    PORT: '0',
    ALLOW_HTTP: 'true',
    NERDGRAPH_URL: 'http://simulator.test/graphql',
    V2_URL: 'http://simulator.test/v2',
    V2_COMPARE: 'bridge',
    ...more,
  })

describe('compare settings', () => {
  it('is off by default, samples every read, and caps comparisons in flight and per key', () => {
    expect(parseConfig({}).compare).toEqual({ mode: undefined, sample: 1, inFlight: 64, perKey: 4 })
    expect(parseConfig({ V2_COMPARE: 'off' }).compare.mode).toBeUndefined()
  })

  it('reads the mode, the sample and the caps', () => {
    const config = parseConfig({
      V2_COMPARE: 'bridge',
      V2_COMPARE_SAMPLE: '0.25',
      V2_COMPARE_IN_FLIGHT: '8',
      V2_COMPARE_PER_KEY: '2',
    })
    expect(config.compare).toEqual({ mode: 'bridge', sample: 0.25, inFlight: 8, perKey: 2 })
    expect(parseConfig({ V2_COMPARE: 'v2' }).compare.mode).toBe('v2')
  })

  it('names each bad setting, never its value', () => {
    let error: unknown
    try {
      parseConfig({ V2_COMPARE: 'both', V2_COMPARE_SAMPLE: '1.5', V2_COMPARE_PER_KEY: '26' })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
    const message = (error as Error).message
    expect(message).toContain('V2_COMPARE: expected off, v2, bridge')
    expect(message).toContain('V2_COMPARE_SAMPLE: expected a number from 0 to 1')
    expect(message).toContain('V2_COMPARE_PER_KEY: expected an integer from 1 to 25')
    expect(message).not.toContain('both')
  })
})

describe('Node entry', () => {
  it("gives a comparison's place back when the client left before its answer", async () => {
    // One place per key: were the place of a call whose client had gone never given back (its
    // response closed before compare mode waited for it to close), every later call would be skipped.
    const sim = createSimulator()
    let hold: Promise<void> | undefined
    let arrived = () => {}
    // NerdGraph answers even a call whose client has gone: the signal is not passed on.
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      arrived()
      await hold
      return sim.fetch(new Request(new Request(input, init), { signal: null }))
    }) as typeof globalThis.fetch
    const config = bridgeMode({ V2_COMPARE_PER_KEY: '1' })
    const server = await startServer(config, fetch, { log: () => {} })
    const closed: Promise<void>[] = []
    server.http.on('request', (_req, res) => closed.push(new Promise((r) => res.once('close', r))))
    const url = `${server.url}/v2/applications/9045822.json`
    const headers = { 'X-Api-Key': DEMO_KEYS.all }
    let metrics = ''
    /** Waits until `n` calls have their outcome on /metrics. */
    const outcomes = async (n: number) => {
      const count = () =>
        [...metrics.matchAll(/^v2bridge_compare_total\{.*\} (\d+)$/gm)].reduce(
          (t, m) => t + Number(m[1]),
          0
        )
      for (let i = 0; i < 250 && count() < n; i++) {
        await new Promise((r) => setTimeout(r, 20))
        metrics = await (await globalThis.fetch(`${server.url}/metrics`)).text()
      }
      return count()
    }
    try {
      // The first call finds the application's entity; each later one asks NerdGraph once.
      await (await globalThis.fetch(url, { headers })).text()
      await outcomes(1)
      for (let i = 0; i < 2; i++) {
        let release = () => {}
        hold = new Promise((r) => (release = r))
        const upstream = new Promise<void>((r) => (arrived = r))
        const gone = new AbortController()
        const call = globalThis.fetch(url, { headers, signal: gone.signal }).catch(() => undefined)
        await upstream // v2bridge is waiting for NerdGraph
        gone.abort()
        await call
        await closed.at(-1) // the server has seen the client go
        hold = undefined
        release()
        await outcomes(2 + i)
      }
      for (let i = 0; i < 2; i++) {
        await (await globalThis.fetch(url, { headers })).text()
        await outcomes(4 + i)
      }
      expect(metrics).not.toMatch(/outcome="skipped"/)
      expect(await outcomes(5)).toBe(5)
    } finally {
      await server.close()
    }
  })

  it('compares after the response has gone, and counts it on /metrics', async () => {
    const sim = createSimulator()
    const fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      sim.fetch(new Request(input, init))) as typeof globalThis.fetch
    const config = bridgeMode()
    const server = await startServer(config, fetch, { log: () => {} })
    try {
      const res = await globalThis.fetch(`${server.url}/v2/applications/9045822/hosts.json`, {
        headers: { 'X-Api-Key': DEMO_KEYS.all },
      })
      expect(res.status).toBe(200)
      await res.text()
      let metrics = ''
      for (let i = 0; i < 200 && !/v2bridge_compare_total\{.*\} 1/.test(metrics); i++) {
        await new Promise((r) => setTimeout(r, 20))
        metrics = await (await globalThis.fetch(`${server.url}/metrics`)).text()
      }
      expect(metrics).toMatch(
        /v2bridge_compare_total\{operation="GET \/v2\/applications\/\{application_id\}\/hosts",outcome="(equal|differing)"\} 1/
      )
    } finally {
      await server.close()
    }
  })
})

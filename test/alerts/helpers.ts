/** v2bridge in front of the simulator, recording each GraphQL request it sends (query + variables). */
import { createApp } from '../../src/app'
import { parseConfig, type ConfigInput } from '../../src/core/config'
import { alertsOf, DEMO_KEYS, createSimulator } from '../../simulator'

export interface Sent {
  query: string
  variables: Record<string, unknown>
}

export function alertsHarness(settings: ConfigInput = {}) {
  const sim = createSimulator()
  const sent: Sent[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    sent.push(JSON.parse(await req.clone().text()) as Sent)
    return sim.fetch(req)
  }) as typeof globalThis.fetch
  const app = createApp({
    config: parseConfig({
      NERDGRAPH_URL: 'http://simulator.test/graphql',
      ALLOW_HTTP: 'true',
      ...settings,
    }),
    fetch,
  })
  const call = (path: string, init: RequestInit & { key?: string } = {}) => {
    const { key = DEMO_KEYS.all, headers, ...rest } = init
    const h = new Headers(headers)
    h.set('X-Api-Key', key)
    return app.request(path, { ...rest, headers: h })
  }
  /** The operation names sent since `from`. */
  const operations = (from = 0) =>
    sent.slice(from).map((s) => /^\s*(?:query|mutation)\s+(\w+)/.exec(s.query)?.[1])
  return { sim, app, call, sent, operations, alerts: alertsOf(sim.dataset) }
}

export { DEMO_KEYS }

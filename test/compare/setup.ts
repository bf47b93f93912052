/**
 * Compare mode wired to the simulator in process: v2bridge's NerdGraph and V2_URL both point at one
 * simulator (its v2 stand-in computes every v2 read from the raw data, simulator/v2/), every request
 * reaching the simulator is counted, and `settled` waits for the comparisons running after answers.
 */
import { createApp } from '../../src/app'
import { parseConfig, type ConfigInput } from '../../src/core/config'
import { createTelemetry } from '../../src/upstream/telemetry'
import { memoryStore } from '../../src/report/store'
import type { RequestLogLine } from '../../src/core/request-log'
import { DEMO_KEYS, createSimulator, type SimulatorOptions, type V2Switches } from '../../simulator'

export { DEMO_KEYS }

/** `v2bridge verify`'s arguments with the two-account demo key and upstreams no request may reach
 * (a test's `fetch` answers them from the simulator), then `more`. */
export const verifyArgs = (...more: string[]) => [
  'verify',
  '--key',
  DEMO_KEYS.all,
  '--nerdgraph-url',
  'http://127.0.0.1:9/graphql',
  '--v2-url',
  'http://127.0.0.1:9/v2',
  ...more,
]

export interface Sent {
  method: string
  path: string
  /** A GraphQL request's body (query and variables), for counting mutations. */
  body?: string
}

/** Stands between v2bridge and the simulator: a test's perturbing proxy or stall. */
export type Proxy = (req: Request, next: (req: Request) => Promise<Response>) => Promise<Response>

export function compareHarness(
  settings: ConfigInput,
  v2: Partial<V2Switches> = {},
  proxy: Proxy = (req, next) => next(req),
  /** The simulator's other options: a test's lenient switches (the sweep's lenient run). */
  simulator: Omit<SimulatorOptions, 'v2'> = {}
) {
  const sim = createSimulator({ ...simulator, v2 })
  const sent: Sent[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    const url = new URL(req.url)
    const entry: Sent = { method: req.method, path: url.pathname }
    if (url.pathname === '/graphql') entry.body = await req.clone().text()
    sent.push(entry)
    return proxy(req, (r) => sim.fetch(r))
  }) as typeof globalThis.fetch
  const report = memoryStore()
  const log: RequestLogLine[] = []
  const app = createApp({
    config: parseConfig({
      NERDGRAPH_URL: 'http://simulator.test/graphql',
      V2_URL: 'http://simulator.test/v2',
      ALLOW_HTTP: 'true',
      ...settings,
    }),
    fetch,
    report,
    log: (line) => log.push(line),
    telemetry: createTelemetry,
  })
  const get = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (!headers.has('x-api-key')) headers.set('X-Api-Key', DEMO_KEYS.all)
    return app.request(path, { ...init, headers })
  }
  /** The stand-in's own answer to a read, straight from the simulator. */
  const standIn = (path: string) =>
    sim.fetch(
      new Request(`http://simulator.test${path}`, { headers: { 'X-Api-Key': DEMO_KEYS.all } })
    )
  const switches = (body: Partial<V2Switches>) =>
    sim.fetch(
      new Request('http://simulator.test/_sim/v2', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
    )
  /** Waits until no comparison runs and the report has counted `calls` outcomes. */
  const settled = async (calls?: number) => {
    // Generous: comparisons run after the answers, and the machine may be busy.
    for (let i = 0; i < 6000; i++) {
      await new Promise((r) => setTimeout(r, 10))
      const metrics = await (await app.request('/metrics')).text()
      const done = [...metrics.matchAll(/^v2bridge_compare_total\{.*\} (\d+)$/gm)].reduce(
        (n, m) => n + Number(m[1]),
        0
      )
      if (calls === undefined ? i > 5 : done >= calls) return metrics
    }
    throw new Error('comparisons did not settle')
  }
  const verification = async () => {
    const res = await get('/v2bridge/report.json')
    return ((await res.json()) as { report: { verification: VerificationView[] } }).report
      .verification
  }
  return { sim, app, get, standIn, switches, settled, verification, sent, log, report }
}

export interface VerificationView {
  method: string
  path: string
  summary: string
  compared: number
  equal: number
  differing: number
  skipped: number
  errors: number
  not_compared: number
  differences: {
    path: string
    count: number
    kinds: string[]
    largest: number | null
    examples: string[]
  }[]
  documented_differences: { path: string; row: string; count: number }[]
  noisy: { path: string; abs: number; rel: number; kinds: string[] }[]
  cosmetic: string[]
}

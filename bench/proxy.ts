/**
 * `npx tsx bench/proxy.ts [seconds]`: v2bridge on loopback in front of the simulator (both over real
 * HTTP), loaded with autocannon. Prints requests/s, latency, upstream requests per call and memory
 * for the calls legacy clients make most (newrelic-client-go, mrf/newrelic_exporter,
 * ambitioninc/newrelic-api).
 */
import autocannon from 'autocannon'
import { parseConfig } from '../src/core/config'
import { startServer } from '../src/node'
import { DEMO_KEYS, startSimulatorServer } from '../simulator'

const seconds = Number(process.argv[2] ?? 5)
const sim = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
const config = parseConfig({ PORT: '0', NERDGRAPH_URL: `${sim.url}/graphql`, ALLOW_HTTP: 'true' })
const bridge = await startServer(config, undefined, { log: () => {} })

const cases = [
  ['list applications (page 1)', '/v2/applications.json'],
  ['show application', '/v2/applications/9045822.json'],
  ['hosts of an application', '/v2/applications/9045822/hosts.json'],
  [
    'metric data, 2 names summarized',
    '/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&summarize=true',
  ],
] as const

const stats = async () =>
  (await (await fetch(`${sim.url}/_sim/stats`)).json()) as { graphqlRequests: number }

console.log(`v2bridge ${bridge.url} → simulator ${sim.url}; ${seconds} s per case, 10 connections`)
for (const [label, path] of cases) {
  await fetch(`${bridge.url}${path}`, { headers: { 'X-Api-Key': DEMO_KEYS.all } }) // warm caches
  const before = (await stats()).graphqlRequests
  const result = await autocannon({
    url: `${bridge.url}${path}`,
    connections: 10,
    duration: seconds,
    headers: { 'X-Api-Key': DEMO_KEYS.all },
  })
  const upstream = (await stats()).graphqlRequests - before
  const calls = result.requests.total
  const non2xx = result.non2xx
  console.log(
    `${label.padEnd(34)} ${result.requests.average.toFixed(0).padStart(6)} req/s  ` +
      `p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  ` +
      `upstream/call ${(upstream / Math.max(1, calls)).toFixed(2)}  non-2xx ${non2xx}`
  )
}
const mem = process.memoryUsage()
console.log(
  `rss ${(mem.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB (bridge and simulator in one process)`
)
await bridge.close()
await sim.close()

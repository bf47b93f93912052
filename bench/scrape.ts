/**
 * `npm run bench:scrape`: one Prometheus exporter scrape (mrf/newrelic_exporter's request pattern,
 * `newrelic/newrelic.go`) against the demo: v2bridge and the simulator over real HTTP on loopback,
 * cold caches. The application list page by page, then for every application at once two metric-names
 * calls (`name=` filters, in parallel) and one summarized `raw=true` data call with the names found.
 * Prints the time, the NerdGraph requests it cost and the non-200 answers (goal: 0).
 */
import { parseConfig } from '../src/core/config'
import { startServer } from '../src/node'
import { DEMO_KEYS, startSimulatorServer } from '../simulator'

const sim = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
const config = parseConfig({ PORT: '0', NERDGRAPH_URL: `${sim.url}/graphql`, ALLOW_HTTP: 'true' })
const bridge = await startServer(config, undefined, { log: () => {} })
const headers = {
  'X-Api-Key': DEMO_KEYS.all,
  'User-Agent': 'Prometheus-NewRelic-Exporter/bench',
}

const statuses = new Map<number, number>()
let requests = 0
async function get<T>(path: string): Promise<{ body: T | undefined; link: string | null }> {
  requests++
  const res = await fetch(new URL(path, bridge.url), { headers })
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
  const text = await res.text()
  return {
    body: res.status === 200 ? (JSON.parse(text) as T) : undefined,
    link: res.headers.get('link'),
  }
}
const upstream = async () =>
  ((await (await fetch(`${sim.url}/_sim/stats`)).json()) as { graphqlRequests: number })
    .graphqlRequests

const before = await upstream()
const started = performance.now()

// 1. The application list, following rel="next" as a client does.
const ids: number[] = []
for (let path: string | undefined = '/v2/applications.json'; path;) {
  const page: { body: { applications: { id: number }[] } | undefined; link: string | null } =
    await get<{ applications: { id: number }[] }>(path)
  ids.push(...(page.body?.applications.map((a: { id: number }) => a.id) ?? []))
  path = /<([^>]+)>;\s*rel="next"/.exec(page.link ?? '')?.[1]
}

// 2. Every application at once: two metric-names calls in parallel, then one data call.
const to = new Date(Math.floor(Date.now() / 60_000) * 60_000)
const from = new Date(to.getTime() - 5 * 60_000)
const filters = ['HttpDispatcher', 'Apdex']
await Promise.all(
  ids.map(async (id) => {
    const lists = await Promise.all(
      filters.map((f) =>
        get<{ metrics: { name: string }[] }>(`/v2/applications/${id}/metrics.json?name=${f}`)
      )
    )
    const names = lists.flatMap((l) => l.body?.metrics.map((m) => m.name) ?? []).slice(0, 10)
    if (names.length === 0) return
    const query = names.map((n) => `names[]=${encodeURIComponent(n)}`).join('&')
    await get(
      `/v2/applications/${id}/metrics/data.json?${query}&raw=true&summarize=true` +
        `&from=${from.toISOString()}&to=${to.toISOString()}`
    )
  })
)

const ms = performance.now() - started
const spent = (await upstream()) - before
const non200 = [...statuses].filter(([s]) => s !== 200)
console.log(
  `one exporter scrape: ${ids.length} applications, ${requests} v2 requests in ${(ms / 1000).toFixed(2)} s`
)
console.log(`NerdGraph requests: ${spent} (${(spent / requests).toFixed(2)} per v2 request)`)
console.log(
  `non-200 answers: ${non200.reduce((n, [, c]) => n + c, 0)}` +
    (non200.length ? ` (${non200.map(([s, c]) => `${c}× ${s}`).join(', ')})` : ' (goal: 0)')
)
await bridge.close()
await sim.close()
process.exitCode = non200.length ? 1 : 0

/**
 * `npm run bench:fleet [seconds]`: a fleet of Prometheus exporters through one v2bridge, against the
 * simulator with NerdGraph's live limits (3,000 NRQL per account a minute, 120 runs of one identical
 * query per user a minute, 25 requests in flight per user: simulator/README.md "How it differs from
 * the live NerdGraph"). 300 clients, each reading the same 10 applications of its key's account
 * every 60 s in mrf/newrelic_exporter's pattern (`newrelic/newrelic.go`: the application list once,
 * kept for longer than the run as its `api.apps-list-cache-time` allows; then per application its
 * metric names for one filter, and the data of those names, every value, `raw=true`,
 * `summarize=true`, `period=60`, the last 60 s), over the 10 fleet keys of 2 users and 2 accounts
 * (simulator `FLEET_KEYS`). v2bridge's Node entry runs in its own process. Prints per account and
 * user: v2 calls and NRQL a minute, the NRQL and identical-query peaks in any 60 s, the 429s
 * NerdGraph answered (`/_sim/stats` `limited`), the 429s and 5xx the clients saw, NRQL per v2 call.
 * Duration: the argument or `BENCH_FLEET_SECONDS` (300 by default); `BENCH_FLEET_CLIENTS` (300).
 */
import { loadavg } from 'node:os'
import {
  createSimulator,
  FLEET_KEYS,
  type FleetKey,
  type SimStats,
  type LimitedStats,
} from '../simulator'
import { startChild } from '../test/helpers/child-server'
import { Counter } from './fleet-observe'

const seconds = Number(process.argv[2] ?? process.env['BENCH_FLEET_SECONDS'] ?? 300)
const clients = Number(process.env['BENCH_FLEET_CLIENTS'] ?? 300)
const appsPerClient = 10
const filter = 'HttpDispatcher'
const periodMs = 60_000

// The same dataset as the child's (same seed and options), for the applications' IDs.
const dataset = createSimulator({ stagingFleet: appsPerClient }).dataset
const simServer = await startChild(
  ['node', '--import', 'tsx', 'bench/fleet-sim.ts', String(appsPerClient)],
  {},
  { ready: /fleet simulator on (http:\/\/\S+?)\/graphql/ }
)
const simGet = async <T>(path: string) => (await (await fetch(simServer.url + path)).json()) as T
const bridge = await startChild(['node', '--import', 'tsx', 'src/node.ts'], {
  PORT: '0',
  NERDGRAPH_URL: `${simServer.url}/graphql`,
  ALLOW_HTTP: 'true',
  LOG_LEVEL: 'warn',
})

const limits = await simGet<{
  perAccountPerMinute: number
  identicalPerUserPerMinute: number
  concurrentPerUser: number
}>('/_sim/limits')
const load = loadavg()
  .map((n) => n.toFixed(2))
  .join(' ')
console.log(
  `bench:fleet against the simulator's live limits (${limits.perAccountPerMinute} NRQL per account a ` +
    `minute, ${limits.identicalPerUserPerMinute} identical per user a minute, ${limits.concurrentPerUser} ` +
    `in flight per user), load average ${load}: ${clients} clients × ${appsPerClient} applications ` +
    `every ${periodMs / 1000} s over ${FLEET_KEYS.length} keys, ${seconds} s`
)

/** Statuses the clients saw, per row (`account <id>`, `user <id>`). */
const calls = new Counter()
const bad = new Counter()
let failed = 0
const failures = new Map<string, number>()

function rowsOf(key: FleetKey) {
  return [`account ${key.accountId}`, `user ${key.userId}`]
}

/** A keep-alive connection the server closed as the client reused it: Go's `http.Transport`, which
 * the exporter uses, sends an idempotent request again on a new connection then (net/http
 * transport.go, `shouldRetryRequest`). */
const closedConnection = (err: unknown) =>
  err instanceof TypeError && /other side closed|ECONNRESET/.test(String(err.cause ?? err.message))
let resent = 0

async function send(key: FleetKey, path: string): Promise<Response> {
  const init = {
    headers: { 'X-Api-Key': key.key, 'User-Agent': 'Prometheus-NewRelic-Exporter/0.4b' },
    signal: AbortSignal.timeout(30_000),
  }
  try {
    return await fetch(new URL(path, bridge.url), init)
  } catch (err) {
    if (!closedConnection(err)) throw err
    resent++
    return fetch(new URL(path, bridge.url), init)
  }
}

const fiveHundreds = new Map<string, number>()

async function get<T>(key: FleetKey, path: string): Promise<T | undefined> {
  const now = Date.now()
  for (const row of rowsOf(key)) calls.add(row, now)
  try {
    const res = await send(key, path)
    const text = await res.text()
    if (res.status === 429 || res.status >= 500) {
      for (const row of rowsOf(key)) bad.add(`${res.status === 429 ? '429' : '5xx'} ${row}`, now)
      const what = `${res.status} ${text.slice(0, 120)}`
      fiveHundreds.set(what, (fiveHundreds.get(what) ?? 0) + 1)
    }
    return res.status === 200 ? (JSON.parse(text) as T) : undefined
  } catch (err) {
    failed++
    const name =
      err instanceof Error
        ? `${err.name}: ${(err.cause as Error | undefined)?.message ?? err.message}`
        : String(err)
    failures.set(name, (failures.get(name) ?? 0) + 1)
    return undefined
  }
}

const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

/** One application, as mrf's exporter reads it: its names for the filter, then their data. */
async function scrapeApp(key: FleetKey, appId: number) {
  const list = await get<{ metrics: { name: string; values: string[] }[] }>(
    key,
    `/v2/applications/${appId}/metrics.json?name=${encodeURIComponent(filter)}`
  )
  const names = list?.metrics ?? []
  if (names.length === 0) return
  const to = Date.now()
  const query = new URLSearchParams()
  for (const n of names) query.append('names[]', n.name)
  for (const v of new Set(names.flatMap((n) => n.values))) query.append('values[]', v)
  query.set('raw', 'true')
  query.set('summarize', 'true')
  query.set('period', '60')
  query.set('from', rfc3339(to - periodMs))
  query.set('to', rfc3339(to))
  await get(key, `/v2/applications/${appId}/metrics/data.json?${query}`)
}

const appsOf = (accountId: number) =>
  dataset
    .applications(accountId)
    .slice(0, appsPerClient)
    .map((a) => a.id)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const started = Date.now()
const ends = started + seconds * 1000

async function client(i: number) {
  const key = FLEET_KEYS[i % FLEET_KEYS.length]!
  const apps = appsOf(key.accountId)
  await sleep((i / clients) * periodMs) // exporters start spread over a minute
  await get(key, '/v2/applications.json')
  for (let next = Date.now(); next < ends; next += periodMs) {
    await sleep(next - Date.now())
    await Promise.all(apps.map((id) => scrapeApp(key, id)))
  }
}

await Promise.all(Array.from({ length: clients }, (_, i) => client(i)))
const minutes = (Date.now() - started) / 60_000

const stats = await simGet<SimStats & { limited: LimitedStats }>('/_sim/stats')
const observed =
  await simGet<Record<string, { nrql: number; peak: number; identicalPeak: number }>>(
    '/_fleet/counts'
  )
const refused = (limited: Record<string, Record<string, number>> | undefined, id: number) =>
  Object.values(limited?.[String(id)] ?? {}).reduce((a, b) => a + b, 0)

const header = [
  'row',
  'v2 calls/min',
  'NRQL/min',
  'NRQL peak/60 s',
  'identical peak/60 s',
  'NerdGraph 429s',
  'client 429s',
  'client 5xx',
  'NRQL per v2 call',
]
const table: string[][] = []
const rows = [
  ...[...new Set(FLEET_KEYS.map((k) => k.accountId))].map((id) => ({ kind: 'account', id })),
  ...[...new Set(FLEET_KEYS.map((k) => k.userId))].map((id) => ({ kind: 'user', id })),
]
for (const { kind, id } of rows) {
  const row = `${kind} ${id}`
  const v2 = calls.count(row)
  const { nrql, peak, identicalPeak } = observed[row]!
  const ng429 =
    kind === 'account' ? refused(stats.limited.byAccount, id) : refused(stats.limited.byUser, id)
  table.push([
    row,
    (v2 / minutes).toFixed(0),
    (nrql / minutes).toFixed(1),
    String(peak),
    String(identicalPeak),
    String(ng429),
    String(bad.count(`429 ${row}`)),
    String(bad.count(`5xx ${row}`)),
    v2 ? (nrql / v2).toFixed(4) : '-',
  ])
}
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)))
const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ')
console.log(line(header))
for (const r of table) console.log(line(r))
const v2Total = [...new Set(FLEET_KEYS.map((k) => k.accountId))].reduce(
  (n, id) => n + calls.count(`account ${id}`),
  0
)
console.log(
  `NerdGraph: ${stats.graphqlRequests} requests, ${stats.nrqlQueries} NRQL in ${minutes.toFixed(2)} min; ` +
    `clients: ${v2Total} v2 calls, ${failed} without an answer (network or 30 s timeout); ` +
    `load average at the end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`
)
if (fiveHundreds.size)
  console.log(`429 and 5xx: ${[...fiveHundreds].map(([k, n]) => `${n}× ${k}`).join('; ')}`)
if (resent) console.log(`sent again after a closed keep-alive connection: ${resent}`)
if (failures.size)
  console.log(`without an answer: ${[...failures].map(([k, n]) => `${n}× ${k}`).join('; ')}`)
const limitedAny = Object.keys(stats.limited.byUser).length > 0
const clientBad = table.some((r) => r[6] !== '0' || r[7] !== '0')
console.log(
  limitedAny || clientBad || failed
    ? 'goal missed: NerdGraph answered 429, or a client saw 429, 5xx or no answer'
    : 'goal met: 0 NerdGraph 429s, 0 client 429s and 5xx'
)
bridge.child.kill('SIGTERM')
await bridge.exited
simServer.child.kill('SIGTERM')
await simServer.exited
process.exitCode = limitedAny || clientBad || failed ? 1 : 0

/**
 * `npm run bench:hostile [seconds]`: v2bridge on loopback (Node entry, real sockets) in front of the
 * simulator, under 8 parallel hostile requests of issue 12 items 1–4, repeated for the whole run: a
 * huge page number with a pinned account and a made-up key, a chunked POST body that never ends, a
 * 200 KiB GET body, and JSON nested 10,000 deep. Meanwhile a cheap request (a key-less 401) is sent
 * every 20 ms; its latency is printed for a quiet and a hostile run. Exits 1 if the hostile p99 is
 * 50 ms or more.
 */
import { request } from 'node:http'
import { parseConfig } from '../src/config'
import { startServer } from '../src/node'
import { startSimulatorServer } from '../src/simulator'

const seconds = Number(process.argv[2] ?? 5)
const sim = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
const config = parseConfig({
  PORT: '0',
  NERDGRAPH_URL: `${sim.url}/graphql`,
  ALLOW_HTTP: 'true',
  ACCOUNT_ID: '1000001',
})
const bridge = await startServer(config, undefined, { log: () => {} })
const key = 'NRAK-HOSTILE-ANY-STRING-0000000'

/** One HTTP exchange; `send` writes the body (it may keep writing until the answer arrives). */
function exchange(
  method: string,
  path: string,
  headers: Record<string, string | number>,
  send: (req: ReturnType<typeof request>, answered: () => boolean) => void
): Promise<number> {
  return new Promise((resolve) => {
    let done = false
    const req = request(`${bridge.url}${path}`, { method, headers }, (res) => {
      done = true
      res.resume()
      res.on('end', () => {
        req.destroy()
        resolve(res.statusCode ?? 0)
      })
    })
    req.on('error', () => resolve(0))
    send(req, () => done)
  })
}

const chunk = Buffer.alloc(64 * 1024, 'a')
const hostile: (() => Promise<number>)[] = [
  () =>
    exchange('GET', '/v2/applications.json?page=999999999', { 'X-Api-Key': key }, (r) => r.end()),
  () =>
    exchange(
      'POST',
      '/v2/applications.json',
      { 'X-Api-Key': key, 'Transfer-Encoding': 'chunked', 'Content-Type': 'text/plain' },
      (req, answered) => {
        let sent = 0
        const pump = () => {
          while (!answered() && sent < 100 * 1024 * 1024 && req.write(chunk)) sent += chunk.length
          if (!answered() && sent < 100 * 1024 * 1024) req.once('drain', pump)
        }
        pump()
      }
    ),
  () => {
    const body = `names[]=${'a'.repeat(200 * 1024)}`
    return exchange(
      'GET',
      '/v2/applications.json',
      { 'X-Api-Key': key, 'Content-Length': Buffer.byteLength(body) },
      (r) => r.end(body)
    )
  },
  () => {
    const body = `{"names":${'['.repeat(10_000)}${']'.repeat(10_000)}}`
    return exchange(
      'POST',
      '/v2/applications.json',
      { 'X-Api-Key': key, 'Content-Type': 'application/json' },
      (r) => r.end(body)
    )
  },
]

async function probe(ms: number): Promise<number[]> {
  const latencies: number[] = []
  const until = Date.now() + ms
  while (Date.now() < until) {
    const started = performance.now()
    const res = await fetch(`${bridge.url}/v2/applications.json`)
    await res.arrayBuffer()
    if (res.status !== 401) throw new Error(`cheap request answered ${res.status}`)
    latencies.push(performance.now() - started)
    await new Promise((r) => setTimeout(r, 20))
  }
  return latencies.sort((a, b) => a - b)
}

const at = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
const line = (label: string, l: number[]) =>
  `${label.padEnd(26)} n=${String(l.length).padStart(4)}  p50 ${at(l, 0.5).toFixed(1)} ms  ` +
  `p99 ${at(l, 0.99).toFixed(1)} ms  max ${l.at(-1)!.toFixed(1)} ms`

console.log(`v2bridge ${bridge.url} → simulator ${sim.url}; ${seconds} s per run`)
console.log(line('quiet: key-less 401', await probe(seconds * 1000)))

let running = true
const statuses = new Map<number, number>()
const workers = Array.from({ length: 8 }, async (_, i) => {
  while (running) {
    const status = await hostile[i % hostile.length]!()
    statuses.set(status, (statuses.get(status) ?? 0) + 1)
  }
})
const loaded = await probe(seconds * 1000)
running = false
await Promise.all(workers)
console.log(line('8 hostile: key-less 401', loaded))
console.log(
  `hostile answers: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}; ` +
    `rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB (bridge and simulator in one process)`
)
await bridge.close()
await sim.close()
const ok = at(loaded, 0.99) < 50
console.log(ok ? 'PASS: p99 under 50 ms' : 'FAIL: p99 50 ms or more')
process.exit(ok ? 0 : 1)

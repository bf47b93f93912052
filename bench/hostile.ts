/**
 * `npm run bench:hostile [seconds]`: v2bridge's Node entry as its own process (as deployed) in front
 * of a hostile NerdGraph and v2 (bench/hostile-upstream.ts, another process, before the simulator),
 * in compare mode `bridge`, under hostile requests repeated for the whole run, one loop each, by a
 * third process: a huge page number with a pinned account and a made-up key, a chunked POST body
 * that never ends, a 200 KiB GET body, JSON nested 10,000 deep, a 160 KB XML deployment of 40,000
 * repeated elements, a new made-up key on every call, an alerts page bomb, 1 MiB write bodies, a
 * NerdGraph gzip bomb of 10 GiB, an endless NerdGraph 500 `text/html`, a 50 MB v2 answer forwarded and
 * compared, and a compared v2 list of 20,000 items with one `id`. Meanwhile this process sends a
 * cheap request (a key-less 401) every 20 ms and prints its latency for a quiet and a hostile run,
 * and v2bridge's RSS. Then, in this process, 10,000 calls with made-up keys and the migration
 * report's memory before and after. Exits 1 if the hostile p99 is 50 ms or more, v2bridge's RSS
 * passed `maxRssMiB`, or the report grew by 10 MB or more. The processes share the machine's cores:
 * in the checked hostile run the load and the stand-ins run at `nice` 10, as the other machines
 * they stand for, and a second run (`BENCH_HOSTILE_SAME_PRIORITY=0` leaves it out) prints the
 * figures at one priority. A busy machine shows in every run.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { setPriority } from 'node:os'
import { request } from 'node:http'
import { fileURLToPath } from 'node:url'
import { createSimulator, DEMO_KEYS } from '../simulator'
import { createApp } from '../src/app'
import { parseConfig } from '../src/core/config'
import { memoryStore } from '../src/report/store'
import { startChild, type ChildServer } from '../test/helpers/child-server'

const key = 'NRAK-HOSTILE-ANY-STRING-0000000'

/** One HTTP exchange; `send` writes the body (it may keep writing until the answer arrives). */
function exchange(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  send: (req: ReturnType<typeof request>, answered: () => boolean) => void
): Promise<number> {
  return new Promise((resolve) => {
    let done = false
    const req = request(`${base}${path}`, { method, headers }, (res) => {
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

/** The load process: 8 loops of hostile requests until killed; prints the statuses it got. */
async function load(base: string): Promise<never> {
  const chunk = Buffer.alloc(64 * 1024, 'a')
  const nested = `{"names":${'['.repeat(10_000)}${']'.repeat(10_000)}}`
  const bigGet = `names[]=${'a'.repeat(200 * 1024)}`
  const xml = `<deployment>${'<a/>'.repeat(40_000)}</deployment>`
  const mebibyte = `deployment[description]=${'d'.repeat(1024 * 1024 - 40)}`
  let n = 0
  const anyKey = () => `NRAK-HOSTILE-${String(n++).padStart(18, '0')}`
  const get = (path: string, key: () => string) => () =>
    exchange(base, 'GET', path, { 'X-Api-Key': key() }, (r) => r.end())
  // A key NerdGraph refuses (its answer is the hostility) is new on every call; a key NerdGraph
  // accepts is one user's key, whose v2 answers are the hostility: a new valid key on every call
  // would measure a new user's first call, the accounts and entities of a key read cold.
  const fresh = (prefix: string) => () => `${prefix}-${String(n++).padStart(12, '0')}`
  const one = (prefix: string) => () => `${prefix}-${'0'.repeat(12)}`
  const hostile: (() => Promise<number>)[] = [
    // Issue 40, item 2 and 3: bench/hostile-upstream.ts answers by the key.
    get('/v2/applications.json', fresh('NRAK-BOMB')),
    get('/v2/applications.json', fresh('NRAK-HTML')),
    get('/v2/alerts_policies.json', one('NRAK-BIG')),
    get('/v2/applications.json', one('NRAK-BIG')),
    get('/v2/applications.json', one('NRAK-DUP')),
    () =>
      exchange(
        base,
        'POST',
        '/v2/applications/1/deployments.json',
        { 'X-Api-Key': anyKey(), 'Content-Type': 'application/xml' },
        (r) => r.end(xml)
      ),
    () =>
      exchange(
        base,
        'GET',
        '/v2/alerts_incidents.json?page=999999999',
        { 'X-Api-Key': anyKey(), 'X-Account-Id': '1000001' },
        (r) => r.end()
      ),
    () =>
      exchange(
        base,
        'POST',
        '/v2/applications/1/deployments.json',
        { 'X-Api-Key': anyKey(), 'Content-Type': 'application/x-www-form-urlencoded' },
        (r) => r.end(mebibyte)
      ),
    () =>
      exchange(base, 'GET', '/v2/applications.json?page=999999999', { 'X-Api-Key': key }, (r) =>
        r.end()
      ),
    () =>
      exchange(
        base,
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
    () =>
      exchange(
        base,
        'GET',
        '/v2/applications.json',
        { 'X-Api-Key': key, 'Content-Length': Buffer.byteLength(bigGet) },
        (r) => r.end(bigGet)
      ),
    () =>
      exchange(
        base,
        'POST',
        '/v2/applications.json',
        { 'X-Api-Key': key, 'Content-Type': 'application/json' },
        (r) => r.end(nested)
      ),
  ]
  // BENCH_HOSTILE=0,3 runs only those requests of the list (to see which one costs what).
  const only = process.env['BENCH_HOSTILE']?.split(',').map(Number)
  const chosen = only ? hostile.filter((_, i) => only.includes(i)) : hostile
  const statuses = new Map<number, number>()
  process.once('SIGTERM', () => {
    console.log([...statuses].map(([s, n]) => `${s}×${n}`).join(', '))
    process.exit(0)
  })
  console.log('loading')
  await Promise.all(
    chosen.map(async (send) => {
      for (;;) {
        const status = await send()
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
      }
    })
  )
  throw new Error('unreachable')
}

/** MB the heap grew over `calls` calls with a new made-up key each, on an app with a memory report
 * and the simulator in this process (after a collection, when node runs with --expose-gc). */
async function reportGrowth(calls: number): Promise<number> {
  const sim = createSimulator()
  const report = memoryStore()
  const app = createApp({
    config: parseConfig({ NERDGRAPH_URL: 'http://simulator.test/graphql', ALLOW_HTTP: 'true' }),
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      sim.fetch(new Request(input, init))) as typeof fetch,
    log: () => {},
    report,
  })
  const heap = () => {
    ;(globalThis as { gc?: () => void }).gc?.()
    return process.memoryUsage().heapUsed / 2 ** 20
  }
  const call = (i: number) =>
    app.request(i % 2 ? '/v2/applications.json' : '/v2/plugins.json', {
      headers: { 'X-Api-Key': `NRAK-MADEUP-${String(i).padStart(20, '0')}` },
    })
  for (let i = 0; i < 200; i++) await call(i) // warm-up
  const before = heap()
  for (let i = 0; i < calls; i++) await call(1000 + i)
  const after = heap()
  if (report.size().keys !== 0) throw new Error('the report kept a made-up key')
  return after - before
}

/** v2bridge's resident memory, MiB (Linux /proc; 0 elsewhere). */
function rssMiB(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024
  } catch {
    return 0
  }
}

/** v2bridge's RSS may reach this under the hostile load: 8 answers of UPSTREAM_MAX_BYTES (32 MiB)
 * read at once and what the process holds at rest, about 100 MiB, with room to spare; without the
 * byte limit one gzip bomb took it to 2.4 GB. */
const maxRssMiB = 768

/** The `nice` of the load process and the stand-ins during the checked run (os.setPriority). */
const standInsNice = 10

async function probe(base: string, ms: number, rss?: { pid?: number; peak: number }) {
  const latencies: number[] = []
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (rss) rss.peak = Math.max(rss.peak, rssMiB(rss.pid))
    const started = performance.now()
    const res = await fetch(`${base}/v2/applications.json`)
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
  `${label.padEnd(32)} n=${String(l.length).padStart(4)}  p50 ${at(l, 0.5).toFixed(1)} ms  ` +
  `p99 ${at(l, 0.99).toFixed(1)} ms  max ${l.at(-1)!.toFixed(1)} ms`

async function main() {
  const seconds = Number(process.argv[2] ?? 5)
  const tsx = [process.execPath, '--import', 'tsx']
  const sim = await startChild(
    [...tsx, 'simulator/serve.ts'],
    { SIM_PORT: '0' },
    {
      ready: /simulator on (http:\/\/\S+?)\/graphql/,
    }
  )
  const upstream = await startChild(
    [...tsx, 'bench/hostile-upstream.ts', sim.url],
    {},
    {
      ready: /hostile upstream on (http:\/\/\S+?)\//,
    }
  )
  const bridge = await startChild(
    // BENCH_HOSTILE_NODE="--cpu-prof --cpu-prof-dir=/tmp/p": options for v2bridge's node, to profile it.
    [
      ...tsx,
      ...(process.env['BENCH_HOSTILE_NODE']?.split(' ').filter(Boolean) ?? []),
      'src/node.ts',
    ],
    {
      PORT: '0',
      NERDGRAPH_URL: `${upstream.url}/graphql`,
      V2_URL: `${upstream.url}/v2`,
      V2_COMPARE: 'bridge',
      ALLOW_HTTP: 'true',
      ACCOUNT_ID: '1000001',
      LOG_LEVEL: 'silent',
    }
  )
  // A process whose event loop is stuck (a comparison frozen by a hostile list) cannot hear
  // SIGTERM: it gets SIGKILL after 5 s.
  const stop = async (child: ChildServer) => {
    child.child.kill('SIGTERM')
    const kill = setTimeout(() => child.child.kill('SIGKILL'), 5000)
    await child.exited
    clearTimeout(kill)
  }
  try {
    console.log(`v2bridge ${bridge.url} → simulator ${sim.url}; ${seconds} s per run`)
    // Warm-up, as a process that has served traffic: ordinary compared reads load what a first
    // call loads once (Node's fetch, compare mode, the list's code), then the cheap request.
    for (let i = 0; i < 3; i++) {
      const read = await fetch(`${bridge.url}/v2/applications.json`, {
        headers: { 'X-Api-Key': DEMO_KEYS.all },
      })
      await read.arrayBuffer()
    }
    await new Promise((r) => setTimeout(r, 2000)) // their comparisons run after the answers
    await probe(bridge.url, 500)
    console.log(line('quiet: key-less 401', await probe(bridge.url, seconds * 1000)))
    const rss = { pid: bridge.child.pid, peak: 0 }
    const quietRss = rssMiB(rss.pid)

    /** The hostile load for `seconds`, the stand-ins at `priority`: the key-less 401's latencies. */
    const underLoad = async (priority: number) => {
      const hostile = spawn(
        process.execPath,
        [...tsx.slice(1), fileURLToPath(import.meta.url), 'load', bridge.url],
        { stdio: ['ignore', 'pipe', 'inherit'] }
      )
      for (const pid of [hostile.pid, upstream.child.pid, sim.child.pid])
        setPriority(pid!, priority)
      let out = ''
      hostile.stdout.on('data', (b: Buffer) => (out += b))
      while (!out.includes('loading')) await new Promise((r) => setTimeout(r, 20))
      const loaded = await probe(bridge.url, seconds * 1000, rss)
      hostile.kill('SIGTERM')
      await new Promise((r) => hostile.once('exit', r))
      console.log(line(`hostile (nice ${priority}): key-less 401`, loaded))
      console.log(`hostile answers: ${out.replace('loading', '').trim()}`)
      return loaded
    }
    // The check: the load and the stand-ins for NerdGraph and v2 run at a lower CPU priority, as
    // the other machines they stand for, so that this machine's cores measure v2bridge's event loop
    // rather than how the scheduler shares them among five processes. Then the same at one
    // priority, for the record (not checked).
    const loaded = await underLoad(standInsNice)
    if (process.env['BENCH_HOSTILE_SAME_PRIORITY'] !== '0') {
      await new Promise((r) => setTimeout(r, 2000))
      await underLoad(0)
    }
    const fast = at(loaded, 0.99) < 50
    console.log(fast ? 'PASS: p99 under 50 ms' : 'FAIL: p99 50 ms or more')
    const bounded = rss.peak < maxRssMiB
    console.log(
      `v2bridge RSS: ${quietRss.toFixed(0)} MiB quiet, peak ${rss.peak.toFixed(0)} MiB hostile ` +
        (bounded ? `(PASS: under ${maxRssMiB} MiB)` : `(FAIL: ${maxRssMiB} MiB or more)`)
    )
    const grew = await reportGrowth(10_000)
    const flat = Math.abs(grew) < 10
    console.log(
      `report: 10,000 calls with made-up keys, heap ${grew >= 0 ? '+' : ''}${grew.toFixed(1)} MB` +
        (flat ? ' (PASS: within ±10 MB)' : ' (FAIL: 10 MB or more)')
    )
    process.exitCode = fast && bounded && flat ? 0 : 1
  } finally {
    await stop(bridge)
    await stop(upstream)
    await stop(sim)
  }
}

if (process.argv[2] === 'load') await load(process.argv[3]!)
else await main()

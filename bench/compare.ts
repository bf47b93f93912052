/**
 * @module bench/compare
 * `npm run bench:compare [-- seconds rounds calls]` (default 4 s, 12 rounds, 10,000 calls): what
 * compare mode (src/compare/) adds to the caller's latency, and whether it holds memory.
 *
 * Setup, each in its own process: the simulator; a replay of it (bench/compare-server.ts
 * `upstream`: the upstream's CPU is a map lookup, as v2 and NerdGraph run elsewhere in production);
 * four v2bridge servers behind it (`compare-server.ts bridge`): compare off; `bridge` (canary) and
 * `v2` (shadow), comparing every read (their `V2_COMPARE_SAMPLE` is `BENCH_SAMPLE`, default 1);
 * `v2` comparing none (`V2_COMPARE_SAMPLE=0`: forwarding alone, the baseline of shadow mode, whose
 * answers come from v2, not NerdGraph). `V2_COMPARE_PER_KEY=25`, so the bench's one key has every
 * sampled call compared. The load generator runs out of their way (bench/load.ts `pickGenerator`:
 * wrk with bench/wrk-rotate.lua, installed where absent and possible, else autocannon in its own
 * process, bench/autocannon-load.ts): 10 connections back to back, each request for the next of 16
 * applications.
 *
 * Latency, twice: with the upstream answering at once, where every server runs at its CPU capacity
 * and p50 is 10 / throughput (what compare mode's work costs a saturated process), then with every
 * upstream answer waiting `BENCH_UPSTREAM_MS` (default 50 ms, an assumed distance to New Relic, not
 * a measured one), the target: PASS when `bridge` adds under 5% to off's p50 and `v2` under 5% to
 * forwarding alone's; no verdict for a side that compared under 95% of the calls it samples. Rounds interleave the four sides (the order rotates every round; a run starts
 * once the last server has answered and compared all it had started), so the noise of a shared
 * machine falls on every side alike (short runs, many rounds: a burst of other work spans several
 * sides rather than one side's whole run); a side's ratio is its p50 over its baseline's in the
 * same round, the median over rounds with the lowest and highest. Each row also gives the
 * server's CPU time per call (its comparisons included) and `busy`, its CPU time per second of the
 * run in % of one core: a server is one event loop, so when `busy` nears the share of a core the
 * machine gives it, it is CPU-bound and its latency is queueing.
 *
 * Memory, per compare mode: after a warm-up (1,000 compared calls, or a tenth of `calls`), heap used
 * and RSS of the server after full GCs at every tenth of `calls` compared calls; 0, half and all
 * are printed. Flat: the trend of the 11 samples (least squares, so one GC's leftovers or a
 * function compiled late do not decide it) grows the heap by under 1 MiB over the calls: about 100
 * bytes a call over 10,000, under a tenth of either answer a comparison reads (about 1.2 KiB each
 * here), so keeping anything of them would show as several MiB. RSS is printed, not judged (pages
 * the GC freed may stay with the process).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process'
import { DEMO_KEYS } from '../simulator'
import { load, loadAverage, median, pickGenerator, type LoadResult } from './load'

const seconds = Number(process.argv[2] ?? process.env['BENCH_SECONDS'] ?? 4)
const rounds = Number(process.argv[3] ?? process.env['BENCH_ROUNDS'] ?? 12)
const calls = Number(process.argv[4] ?? process.env['BENCH_CALLS'] ?? 10_000)
const upstreamMs = Number(process.env['BENCH_UPSTREAM_MS'] ?? 50)
const sample = process.env['BENCH_SAMPLE'] ?? '1'
const connections = 10
const targetPct = 5
const flatBytes = 2 ** 20
const key = DEMO_KEYS.all
const here = (file: string) => new URL(file, import.meta.url).pathname
const children: ChildProcess[] = []

type Side = 'off' | 'bridge' | 'v2' | 'forward'
const sides: Side[] = ['off', 'bridge', 'v2', 'forward']
const labels: Record<Side, string> = {
  off: 'off',
  bridge: 'bridge',
  v2: 'v2',
  forward: 'v2, sample 0',
}
/** Each side's baseline: what the same calls cost without comparing. */
const baseline: Partial<Record<Side, Side>> = { bridge: 'off', v2: 'forward' }

interface Drained {
  answered: number
  cpuMicros: number
  outcomes: Record<string, number>
  heapUsed?: number
  rss?: number
  gc?: boolean
}
interface Server {
  child: ChildProcess
  url: string
}
interface Run extends LoadResult {
  /** The server's CPU per answered call, µs (its comparisons included). */
  cpu: number
  /** Share of the answered calls compared (equal or differing). */
  compared: number
  /** Comparisons that failed (`error`). */
  failed: number
}

function start(args: string[], execArgv = ['--import', 'tsx']): Promise<Server> {
  const child = fork(here('./compare-server.ts'), args, {
    execArgv,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  children.push(child)
  return new Promise((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve({ child, url: m.url }))
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)))
  })
}

function startSimulator(): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', here('../simulator/serve.ts')], {
    env: { ...process.env, SIM_PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(String(chunk))
      if (m) resolve(m[0])
    })
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)))
  })
}

const ask = (server: Server, message: object) =>
  new Promise<Drained>((done) => {
    server.child.once('message', done)
    server.child.send(message)
  })
const comparedOf = (d: Drained) => (d.outcomes['equal'] ?? 0) + (d.outcomes['differing'] ?? 0)

/** The least-squares slope of `y` over `x`. */
const slope = (xy: [number, number][]) => {
  const mx = xy.reduce((t, [x]) => t + x, 0) / xy.length
  const my = xy.reduce((t, [, y]) => t + y, 0) / xy.length
  const sxy = xy.reduce((t, [x, y]) => t + (x - mx) * (y - my), 0)
  const sxx = xy.reduce((t, [x]) => t + (x - mx) ** 2, 0)
  return sxx ? sxy / sxx : 0
}
const pct = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`

try {
  const generator = pickGenerator()
  const upstream = await start(['upstream', await startSimulator()])
  const gcArgs = ['--expose-gc', '--import', 'tsx']
  const servers = {} as Record<Side, Server>
  for (const [side, args] of [
    ['off', ['off']],
    ['bridge', ['bridge', sample]],
    ['v2', ['v2', sample]],
    ['forward', ['v2', '0']],
  ] as const)
    servers[side] = await start(['bridge', upstream.url, ...args], gcArgs)

  const list = (await (
    await fetch(`${servers.off.url}/v2/applications.json`, { headers: { 'X-Api-Key': key } })
  ).json()) as { applications: { id: number }[] }
  const paths = list.applications.slice(0, 16).map((a) => `/v2/applications/${a.id}.json`)
  const size = (
    await (await fetch(servers.off.url + paths[0], { headers: { 'X-Api-Key': key } })).arrayBuffer()
  ).byteLength

  /** A run between two drains: no call of another run is counted or takes CPU from it. */
  async function measure(side: Side, duration = seconds): Promise<Run> {
    const before = await ask(servers[side], { drain: true })
    const r = await load(generator, servers[side].url, connections, duration, key, paths)
    const after = await ask(servers[side], { drain: true })
    const answered = after.answered - before.answered || 1
    return {
      ...r,
      cpu: (after.cpuMicros - before.cpuMicros) / answered,
      compared: (comparedOf(after) - comparedOf(before)) / answered,
      failed: (after.outcomes['error'] ?? 0) - (before.outcomes['error'] ?? 0),
    }
  }
  /** `rounds` interleaved rounds of the four sides; prints their medians and ratios. */
  async function regime(title: string, delayMs: number) {
    await ask(upstream, { delayMs })
    const runs = Object.fromEntries(sides.map((s) => [s, [] as Run[]])) as Record<Side, Run[]>
    for (let r = 0; r < rounds; r++) {
      const order = [...sides.slice(r % sides.length), ...sides.slice(0, r % sides.length)]
      for (const side of order) runs[side].push(await measure(side))
    }
    const m = (side: Side, k: keyof Run) => median(runs[side].map((x) => x[k]))
    /** Per round `side`'s p50 over `base`'s, median and spread. */
    const ratio = (side: Side, base: Side) => {
      const xs = runs[side].map((x, i) => x.p50Ms / runs[base][i]!.p50Ms)
      return { median: median(xs), low: Math.min(...xs), high: Math.max(...xs) }
    }
    console.log(`\n${title}`)
    console.log(
      'side'.padEnd(14) +
        'p50 ms'.padStart(8) +
        'p99 ms'.padStart(9) +
        'req/s'.padStart(8) +
        'CPU µs/call'.padStart(13) +
        'busy'.padStart(6) +
        'compared'.padStart(10) +
        '   p50 against its baseline (spread over rounds)'
    )
    for (const side of sides) {
      const base = baseline[side]
      const r = base && ratio(side, base)
      const bad = runs[side].reduce((n, x) => n + x.bad + x.failed, 0)
      console.log(
        labels[side].padEnd(14) +
          m(side, 'p50Ms').toFixed(2).padStart(8) +
          m(side, 'p99Ms').toFixed(2).padStart(9) +
          m(side, 'rps').toFixed(0).padStart(8) +
          m(side, 'cpu').toFixed(0).padStart(13) +
          `${((m(side, 'rps') * m(side, 'cpu')) / 1e4).toFixed(0)}%`.padStart(6) +
          `${(m(side, 'compared') * 100).toFixed(0)}%`.padStart(10) +
          (r ? `   ${pct(r.median)} of ${labels[base]} (${pct(r.low)} to ${pct(r.high)})` : '') +
          (bad ? `   (${bad} failed calls or comparisons)` : '')
      )
    }
    /** Whether `side` compared the share of its calls it samples (else its figures understate). */
    const full = (side: Side) => m(side, 'compared') >= 0.95 * Number(sample)
    for (const side of ['bridge', 'v2'] as const)
      if (!full(side))
        console.log(
          `WARNING: ${side} compared ${(m(side, 'compared') * 100).toFixed(0)}% of its calls: its figures ` +
            `understate what comparing costs (the rest were skipped: no place free under ` +
            `V2_COMPARE_PER_KEY or V2_COMPARE_IN_FLIGHT)`
        )
    const v2off = ratio('v2', 'off')
    console.log(
      `v2 against off (v2's answers come from v2, off's from NerdGraph): ${pct(v2off.median)}`
    )
    return { ratio, full }
  }

  console.log(
    `bench:compare — ${paths.length} applications in turn (${size} bytes an answer), concurrency ` +
      `${connections}, load generator ${generator === 'wrk' ? 'wrk (1 thread, out of process)' : 'autocannon in its own process'}; ` +
      `${rounds} interleaved rounds of ${seconds} s per side; compare mode with V2_COMPARE_SAMPLE=${sample} and ` +
      `V2_COMPARE_PER_KEY=25; load average ${loadAverage()} at start`
  )
  for (const side of sides) await measure(side, 2) // warm every server and the replay

  const atOnce = await regime('upstream answering at once: each server at its CPU capacity', 0)
  const distant = await regime(`upstream answering in ${upstreamMs} ms (the target)`, upstreamMs)
  await ask(upstream, { delayMs: 0 })
  console.log('')
  for (const [side, base] of [
    ['bridge', 'off'],
    ['v2', 'forward'],
  ] as const) {
    const r = distant.ratio(side, base).median
    const verdict = !distant.full(side)
      ? 'NO VERDICT (too few calls compared)'
      : r < 1 + targetPct / 100
        ? 'PASS'
        : 'FAIL'
    console.log(
      `${verdict}: compare mode ${side} adds ${pct(r)} to the caller's p50 ` +
        `against ${labels[base]} at concurrency ${connections}, upstream in ${upstreamMs} ms (target under ` +
        `${targetPct}%; upstream at once: ${pct(atOnce.ratio(side, base).median)})`
    )
  }

  console.log(
    `\nmemory of the server after full GCs, over ${calls.toLocaleString('en-US')} compared calls ` +
      `(flat: heap grows under ${mib(flatBytes)})`
  )
  /** Calls at concurrency 10 from this process until `count` more calls have been compared;
   * undefined when the server compares none of them. */
  async function compare(side: Side, count: number) {
    const start = comparedOf(await ask(servers[side], { drain: true }))
    const batch = Math.min(50, Math.ceil(count / connections / 4))
    let n = 0
    for (let batches = 1; ; batches++) {
      await Promise.all(
        Array.from({ length: connections }, async () => {
          for (let i = 0; i < batch; i++) {
            const res = await fetch(servers[side].url + paths[n++ % paths.length], {
              headers: { 'X-Api-Key': key },
            })
            await res.arrayBuffer()
          }
        })
      )
      const done = comparedOf(await ask(servers[side], { drain: true })) - start
      if (done >= count) return done
      if (done === 0 && batches >= 4) return undefined // comparing has stopped
    }
  }
  for (const side of ['bridge', 'v2'] as const) {
    const points: { at: number; heap: number; rss: number }[] = []
    let stopped = (await compare(side, Math.min(1_000, calls / 10))) === undefined
    for (let tenth = 0, at = 0; tenth <= 10 && !stopped; tenth++) {
      const target = (calls * tenth) / 10
      if (target > at) {
        const done = await compare(side, target - at)
        if (done === undefined) stopped = true
        else at += done
      }
      const d = await ask(servers[side], { memory: true })
      if (!d.gc) console.log('  (no --expose-gc: figures without a full GC)')
      points.push({ at, heap: d.heapUsed!, rss: d.rss! })
    }
    if (stopped) {
      console.log(`${labels[side].padEnd(8)} compares none of its calls any more: no figures`)
      continue
    }
    const [first, half, last] = [points[0]!, points[5]!, points[10]!]
    const perCall = slope(points.map((p) => [p.at, p.heap]))
    const grown = perCall * (last.at - first.at)
    console.log(
      `${labels[side].padEnd(8)} ${[first, half, last]
        .map((p) => `${p.at.toLocaleString('en-US')}: heap ${mib(p.heap)}, RSS ${mib(p.rss)}`)
        .join('; ')}`
    )
    console.log(
      `${Math.abs(grown) < flatBytes ? 'flat' : 'NOT flat'}: heap ${grown >= 0 ? '+' : ''}${(grown / 1024).toFixed(0)} KiB ` +
        `over ${last.at.toLocaleString('en-US')} compared calls by the trend of 11 samples ` +
        `(${perCall.toFixed(0)} bytes a call; first to last ${((last.heap - first.heap) / 1024).toFixed(0)} KiB), ` +
        `RSS ${pct(last.rss / first.rss)}`
    )
  }
  console.log(`\nload average ${loadAverage()} at end`)
} finally {
  for (const child of children) child.kill()
}

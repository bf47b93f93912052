/**
 * @module bench/overhead
 * `npm run bench:overhead [-- seconds rounds]` (default 2 s, 3 rounds): what v2bridge costs next to
 * the least a proxy can do. Three servers, each in its own process (bench/overhead-server.ts),
 * in front of one canned NerdGraph (bench/canned-upstream.ts), on loopback: the bare passthrough, the
 * translating floor (the passthrough plus `JSON.parse` of NerdGraph's answer and `JSON.stringify` of
 * the finished v2 answer of the call, fetched once from v2bridge when the round starts) and v2bridge's
 * Node entry. The load generator runs out of their way
 * (bench/load.ts: `wrk`, installed where absent and possible, else autocannon in its own process; the
 * first line says which). Two calls: the small one (2 names, summarized, 30 minutes), measured against
 * the passthrough, and the largest (50 names × 11 values over 4 days), against the floor; at
 * concurrency 1, 10 and 100, in interleaved rounds (the order of the three rotates every round). Each
 * request carries the next of max(16, 2 × concurrency) keys, and v2bridge runs with
 * `SHARED_ANSWERS=false`, so identical reads are neither coalesced nor served from memory: the
 * `up/call` column, NerdGraph requests per v2bridge answer, shows it.
 *
 * Prints for each call and concurrency the medians over rounds of requests/s per side, the ratio
 * v2bridge / reference with its spread (lowest–highest round), v2bridge / the other side, each
 * server's CPU time per answered call (`process.cpuUsage()` of its process, all threads, between two
 * drains), the reference's CPU per call over v2bridge's (each server is one event loop, so when both
 * are CPU-bound this is the ratio of their throughputs, and it moves less than req/s on a busy
 * machine) and p50 latency. Figures, not pass/fail: run it on a quiet machine. Settings:
 * `BENCH_CASES=small,largest`, `BENCH_CONC=1,10,100`, `BENCH_LARGEST_X=2` (the largest call's runs
 * are this many times longer), `BENCH_LOADGEN=autocannon`, `BENCH_BARE=node` (the passthroughs fetch
 * over v2bridge's Node transport instead of the global fetch). A row whose runs completed fewer than
 * 50 calls says so: its req/s are mostly noise (at concurrency 100 the largest call's latency can
 * exceed a short run); lengthen the runs, or read the CPU ratio.
 *
 * Fair to all: before every round the passthroughs are given the GraphQL body v2bridge sends at that
 * moment (its known-names NRQL ends on the current minute, so the body changes every minute and the
 * canned upstream would otherwise answer v2bridge from a fresh, unmemoised body); the largest call
 * runs longer (`BENCH_LARGEST_X`), so requests still in flight when a run ends, which no generator
 * counts, are a smaller share of it; and no run starts before the server of the last one has finished
 * the requests it had started (they would take CPU from the next run).
 */
import { fork, type ChildProcess } from 'node:child_process'
import { benchCases, smallCall, type BenchCase } from './cases'
import { load, loadAverage, median, pickGenerator, type LoadResult } from './load'

const seconds = Number(process.argv[2] ?? process.env['BENCH_SECONDS'] ?? 2)
const rounds = Number(process.argv[3] ?? process.env['BENCH_ROUNDS'] ?? 3)
const concurrencies = (process.env['BENCH_CONC'] ?? '1,10,100').split(',').map(Number)
const onlyCases = process.env['BENCH_CASES']?.split(',')
const largestX = Number(process.env['BENCH_LARGEST_X'] ?? 2)
const script = new URL('./overhead-server.ts', import.meta.url).pathname
const children: ChildProcess[] = []

type Side = 'bare' | 'floor' | 'bridge'
const sides: Side[] = ['bare', 'floor', 'bridge']

interface Server {
  child: ChildProcess
  url: string
}

function start(role: string, ...args: string[]): Promise<Server> {
  const child = fork(script, [role, ...args], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  children.push(child)
  return new Promise((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve({ child, url: m.url }))
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)))
  })
}

interface Drained {
  answered: number
  cpuMicros: number
}

interface Run extends LoadResult {
  /** The server's CPU time (every thread) per answered request, µs. */
  cpu: number
  /** NerdGraph requests per answered request. */
  upstream: number
}

const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`

try {
  const generator = pickGenerator()
  const upstream = await start('upstream')
  const servers: Record<Side, Server> = {
    bare: await start('bare', upstream.url),
    floor: await start('floor', upstream.url),
    bridge: await start('bridge', upstream.url),
  }
  const cases = [
    { key: 'small', ref: 'bare' as const, make: () => smallCall(9045822), weight: 1 },
    {
      key: 'largest',
      ref: 'floor' as const,
      make: () => benchCases(9045822)[2]!,
      weight: largestX,
    },
  ].filter((c) => !onlyCases || onlyCases.includes(c.key))
  const upstreamCount = async () => Number(await (await fetch(`${upstream.url}/_count`)).text())
  /** Hands both passthroughs the body v2bridge sends now for case `c`. */
  const sync = async (c: BenchCase) => {
    // After a heavy run v2bridge may still be answering the load's last requests (wrk has gone, the
    // work has not): a busy answer (429, 502, 504) is asked again once the backlog has drained.
    let res!: Response
    for (let attempt = 0; attempt < 30; attempt++) {
      res = await fetch(`${servers.bridge.url}${c.path}`, { headers: { 'x-api-key': 'NRAK-WARM' } })
      if (![429, 502, 504].includes(res.status)) break
      await res.arrayBuffer()
      await new Promise((done) => setTimeout(done, 2_000))
    }
    if (res.status !== 200) throw new Error(`${c.label}: v2bridge answered ${res.status}`)
    const v2 = await res.text() // the floor serialises this v2 object on every answer
    const body = await (await fetch(`${upstream.url}/_last`)).text()
    for (const side of ['bare', 'floor'] as const) {
      await new Promise((done) => {
        servers[side].child.once('message', done)
        servers[side].child.send({ path: c.path, body, ...(side === 'floor' ? { v2 } : {}) })
      })
    }
  }
  /** Waits until the server has finished every request it started; its CPU and answers so far. */
  const drain = (server: Server) =>
    new Promise<Drained>((done) => {
      server.child.once('message', done)
      server.child.send({ drain: true })
    })
  /** A run, between two drains: no request of another run is counted or takes CPU from it. */
  const measure = async (side: Side, path: string, conns: number, duration: number) => {
    const before = await drain(servers[side])
    const sent = await upstreamCount()
    const keys = Math.max(16, 2 * conns)
    const run = await load(generator, `${servers[side].url}${path}`, conns, duration, keys)
    const after = await drain(servers[side])
    const answered = after.answered - before.answered
    const per = (total: number) => (answered ? total / answered : 0)
    return {
      ...run,
      cpu: per(after.cpuMicros - before.cpuMicros),
      upstream: per((await upstreamCount()) - sent),
    }
  }
  console.log(
    `bench:overhead — load generator ${generator === 'wrk' ? 'wrk (1 thread, out of process)' : `autocannon in its own process (${process.env['BENCH_LOADGEN'] === 'autocannon' ? 'BENCH_LOADGEN' : 'wrk unavailable'})`}; ` +
      `${seconds} s per run (largest ×${largestX}), ${rounds} interleaved rounds; passthroughs over ` +
      `${process.env['BENCH_BARE'] === 'node' ? "v2bridge's Node transport (BENCH_BARE=node)" : 'the global fetch'}; ` +
      `load average ${loadAverage()} at start`
  )
  console.log(
    'case'.padEnd(38) +
      'conc'.padStart(5) +
      '  req/s bare/floor/v2b'.padEnd(25) +
      'v2b / reference (spread)'.padEnd(28) +
      'v2b / other'.padEnd(16) +
      'CPU µs/call bare/floor/v2b'.padEnd(28) +
      'CPU ref/v2b'.padEnd(13) +
      'p50 ms bare/floor/v2b'.padEnd(24) +
      'up/call'
  )
  for (const spec of cases) {
    for (const conns of concurrencies) {
      const runs: Record<Side, Run[]> = { bare: [], floor: [], bridge: [] }
      const duration = seconds * spec.weight
      let c = spec.make() // its range moves on the hour: made again each time
      await sync(c)
      for (const side of sides) await measure(side, c.path, conns, 1) // warm all three
      for (let r = 0; r < rounds; r++) {
        c = spec.make()
        await sync(c)
        const order = [...sides.slice(r % 3), ...sides.slice(0, r % 3)]
        for (const side of order) runs[side].push(await measure(side, c.path, conns, duration))
      }
      const other = spec.ref === 'bare' ? 'floor' : 'bare'
      const ratios = runs.bridge.map((b, i) => b.rps / runs[spec.ref][i]!.rps)
      const otherRatio = median(runs.bridge.map((b, i) => b.rps / runs[other][i]!.rps))
      const m = (side: Side, k: keyof Run) => median(runs[side].map((x) => x[k]))
      const all = (k: keyof Run, digits: number) =>
        sides.map((s) => m(s, k).toFixed(digits)).join('/')
      const fewest = Math.min(...sides.flatMap((s) => runs[s].map((x) => x.requests)))
      const few = fewest < 50 ? fewest : 0
      // Failed requests per side (wrk's non-2xx/3xx answers, socket errors and timeouts).
      const bad = sides
        .map((s) => [s, runs[s].reduce((t, x) => t + x.bad, 0)] as const)
        .filter(([, n]) => n > 0)
        .map(([s, n]) => `${s} ${n}`)
        .join(', ')
      console.log(
        c.label.padEnd(38) +
          String(conns).padStart(5) +
          `  ${all('rps', 0)}`.padEnd(25) +
          `${median(ratios).toFixed(2)} of ${spec.ref} (${spread(ratios)})`.padEnd(28) +
          `${otherRatio.toFixed(2)} of ${other}`.padEnd(16) +
          all('cpu', 0).padEnd(28) +
          (m(spec.ref, 'cpu') / m('bridge', 'cpu')).toFixed(2).padEnd(13) +
          all('p50Ms', 2).padEnd(24) +
          m('bridge', 'upstream').toFixed(2) +
          (bad ? `   (failed: ${bad})` : '') +
          (few ? `   (${few} calls in a run: too few for req/s, lengthen the runs)` : '')
      )
    }
  }
  console.log(`load average ${loadAverage()} at end`)
} finally {
  for (const child of children) child.kill()
}

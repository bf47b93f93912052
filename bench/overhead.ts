/**
 * @module bench/overhead
 * `npm run bench:overhead [-- seconds rounds]`: v2bridge against a bare Hono passthrough, both in
 * front of the same canned NerdGraph (bench/canned-upstream.ts), each server in its own process,
 * loaded by autocannon from this one. Rounds interleave the two (the order alternates) for each call
 * shape at concurrency 1, 10 and 100; each connection has its own key, so no two in-flight requests
 * are coalesced. Prints the medians over rounds of req/s, p50 and p99, and of the per-round ratio
 * v2bridge / passthrough, each server's CPU time per answered call (all its threads, from
 * `process.cpuUsage()`) and the mean time a request spends in each server, from its arrival to its
 * answer's last byte written (at concurrency 1 the ratio is one of these latencies). Figures, not
 * pass/fail: run it on a quiet machine. `BENCH_CASES=0,2` picks cases by index; `BENCH_BARE=node`
 * gives the passthrough v2bridge's Node transport instead of the global fetch
 * (bench/overhead-server.ts).
 *
 * Fair to both: before every round the passthrough is given the GraphQL body v2bridge sends at that
 * moment (its known-names NRQL ends on the current minute, so the body changes every minute and the
 * canned upstream would otherwise answer v2bridge from a fresh, unmemoised body); a case whose call
 * takes long (`weight` in bench/cases.ts) runs longer, so requests still in flight when a run ends,
 * which autocannon does not count, are a small share of it; and no run starts before the server of
 * the last one has finished the requests it had started (they would take CPU from the next run).
 */
import autocannon from 'autocannon'
import { fork, type ChildProcess } from 'node:child_process'
import { loadavg } from 'node:os'
import { benchCases, type BenchCase } from './cases'

const seconds = Number(process.argv[2] ?? process.env['BENCH_SECONDS'] ?? 3)
const rounds = Number(process.argv[3] ?? process.env['BENCH_ROUNDS'] ?? 3)
const concurrencies = [1, 10, 100]
const script = new URL('./overhead-server.ts', import.meta.url).pathname
const children: ChildProcess[] = []

function start(role: string, ...args: string[]): Promise<{ child: ChildProcess; url: string }> {
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

interface Run {
  rps: number
  p50: number
  p99: number
  bad: number
  /** The server's CPU time (every thread) per answered request, µs. */
  cpu: number
  /** Mean time a request spent in the server, arrival to last byte written, µs. */
  served: number
}

async function load(url: string, connections: number, duration: number): Promise<Run> {
  let n = 0
  const result = await autocannon({
    url,
    connections,
    duration,
    timeout: 60,
    setupClient: (client) => {
      n += 1
      client.setHeaders({ 'x-api-key': `NRAK-BENCH${String(n).padStart(22, '0')}` })
    },
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    cpu: 0,
    served: 0,
  }
}

interface Drained {
  answered: number
  cpuMicros: number
  servedNs: number
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

try {
  const upstream = await start('upstream')
  const [bridge, bare] = await Promise.all([
    start('bridge', upstream.url),
    start('bare', upstream.url),
  ])
  const only = process.env['BENCH_CASES']?.split(',').map(Number) // e.g. BENCH_CASES=0,2
  const cases = benchCases(9045822).filter((_, i) => !only || only.includes(i))
  /** Hands the passthrough the body v2bridge sends now for case `c`. */
  const sync = async (c: BenchCase) => {
    const res = await fetch(`${bridge.url}${c.path}`, { headers: { 'x-api-key': 'NRAK-WARM' } })
    if (res.status !== 200) throw new Error(`${c.label}: v2bridge answered ${res.status}`)
    await res.arrayBuffer()
    const body = await (await fetch(`${upstream.url}/_last`)).text()
    await new Promise((done) => {
      bare.child.once('message', done)
      bare.child.send({ path: c.path, body })
    })
  }
  /** Waits until the server has finished every request it started; its CPU and answers so far. */
  const drain = (server: typeof bare) =>
    new Promise<Drained>((done) => {
      server.child.once('message', done)
      server.child.send({ drain: true })
    })
  /** A run, between two drains: no request of another run is counted or takes CPU from it. */
  const measure = async (server: typeof bare, path: string, conns: number, duration: number) => {
    const before = await drain(server)
    const run = await load(`${server.url}${path}`, conns, duration)
    const after = await drain(server)
    const answered = after.answered - before.answered
    const per = (total: number) => (answered ? total / answered : 0)
    return {
      ...run,
      cpu: per(after.cpuMicros - before.cpuMicros),
      served: per(after.servedNs - before.servedNs) / 1000,
    }
  }
  console.log(
    `bench:overhead — ${seconds} s per run, ${rounds} interleaved rounds, passthrough over ` +
      `${process.env['BENCH_BARE'] === 'node' ? 'node:http (BENCH_BARE=node)' : 'the global fetch'}, load average ` +
      `${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at start`
  )
  console.log(
    'case'.padEnd(38) +
      'conc'.padStart(5) +
      'bare req/s'.padStart(12) +
      'v2b req/s'.padStart(11) +
      'ratio'.padStart(7) +
      '   p50 bare/v2b ms   p99 bare/v2b ms   CPU µs/call bare/v2b   in server µs bare/v2b'
  )
  for (const c of cases) {
    for (const conns of concurrencies) {
      const runs = { bare: [] as Run[], bridge: [] as Run[] }
      const duration = seconds * (c.weight ?? 1)
      await sync(c)
      await measure(bare, c.path, conns, 1) // warm both
      await measure(bridge, c.path, conns, 1)
      for (let r = 0; r < rounds; r++) {
        await sync(c)
        const order = r % 2 ? (['bridge', 'bare'] as const) : (['bare', 'bridge'] as const)
        for (const who of order) {
          runs[who].push(await measure(who === 'bare' ? bare : bridge, c.path, conns, duration))
        }
      }
      const ratio = median(runs.bridge.map((b, i) => b.rps / runs.bare[i]!.rps))
      const m = (who: 'bare' | 'bridge', k: keyof Run) => median(runs[who].map((x) => x[k]))
      const bad = m('bare', 'bad') + m('bridge', 'bad')
      console.log(
        c.label.padEnd(38) +
          String(conns).padStart(5) +
          m('bare', 'rps').toFixed(0).padStart(12) +
          m('bridge', 'rps').toFixed(0).padStart(11) +
          ratio.toFixed(2).padStart(7) +
          `   ${m('bare', 'p50')}/${m('bridge', 'p50')}`.padEnd(18) +
          `   ${m('bare', 'p99')}/${m('bridge', 'p99')}`.padEnd(18) +
          `   ${m('bare', 'cpu').toFixed(0)}/${m('bridge', 'cpu').toFixed(0)}`.padEnd(25) +
          `   ${m('bare', 'served').toFixed(0)}/${m('bridge', 'served').toFixed(0)}` +
          (bad ? `   (${bad} failed)` : '')
      )
    }
  }
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at end`
  )
} finally {
  for (const child of children) child.kill()
}

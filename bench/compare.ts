/**
 * @module bench/compare
 * `npm run bench:compare [-- seconds rounds calls]`: what compare mode (src/compare/, issue 24) costs
 * the caller. The simulator (NerdGraph and its v2 stand-in) runs in its own process; three v2bridge
 * servers run in this one: compare off, `bridge` (canary, every read and one in twenty), `v2`
 * (shadow, every read and none: forwarding alone). Rounds interleave them
 * (the order alternates) at concurrency 10, and print each p50 and p99 with the added p50 of
 * `bridge` against off (the target is under 5%) and of `v2` against calling the stand-in directly.
 * Then memory: `calls` compared calls (10,000 by default) through `bridge` mode, heap after a full
 * GC at each tenth, which should stay flat (the report keeps aggregates, not calls). Figures, not
 * pass/fail; run it on a quiet machine (`node --expose-gc` is set by the npm script).
 */
import autocannon from 'autocannon'
import { fork } from 'node:child_process'
import { parseConfig } from '../src/core/config'
import { startServer } from '../src/node'
import { DEMO_KEYS } from '../simulator'

const seconds = Number(process.argv[2] ?? 5)
const rounds = Number(process.argv[3] ?? 3)
const calls = Number(process.argv[4] ?? 10_000)
const path = '/v2/applications/9045822.json'
const gc = (globalThis as { gc?: () => void }).gc

const child = fork(new URL('../simulator/serve.ts', import.meta.url).pathname, [], {
  execArgv: ['--import', 'tsx'],
  env: { ...process.env, SIM_PORT: '0', HOST: '127.0.0.1' },
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
})
const simUrl = await new Promise<string>((resolve, reject) => {
  child.stdout!.on('data', (chunk: Buffer) => {
    const m = /http:\/\/127\.0\.0\.1:\d+/.exec(String(chunk))
    if (m) resolve(m[0])
  })
  child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)))
})
process.on('exit', () => child.kill())

const server = (compare?: string, sample = '1') =>
  startServer(
    parseConfig({
      PORT: '0',
      NERDGRAPH_URL: `${simUrl}/graphql`,
      V2_URL: `${simUrl}/v2`,
      ALLOW_HTTP: 'true',
      ...(compare ? { V2_COMPARE: compare, V2_COMPARE_SAMPLE: sample } : {}),
    }),
    undefined,
    { log: () => {} }
  )
const targets = {
  off: await server(),
  bridge: await server('bridge'),
  /** `bridge` mode comparing one read in twenty (`V2_COMPARE_SAMPLE=0.05`). */
  'bridge 5%': await server('bridge', '0.05'),
  v2: await server('v2'),
  /** `v2` mode comparing nothing: what forwarding alone costs. */
  'v2 unsampled': await server('v2', '0'),
  'stand-in': { url: simUrl, close: async () => {} },
}

async function p50(url: string) {
  const r = await autocannon({
    url: url + path,
    connections: 10,
    duration: seconds,
    headers: { 'X-Api-Key': DEMO_KEYS.all },
  })
  if (r.non2xx) console.log(`  ${url}: ${r.non2xx} non-2xx answers`)
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const names = Object.keys(targets) as (keyof typeof targets)[]
const runs = Object.fromEntries(
  names.map((n) => [n, [] as { p50: number; p99: number; rps: number }[]])
)
for (const t of Object.values(targets))
  await fetch(t.url + path, { headers: { 'X-Api-Key': DEMO_KEYS.all } })
console.log(`${path}, concurrency 10, ${rounds} rounds of ${seconds} s per server`)
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 ? [...names].reverse() : names)
    runs[name]!.push(await p50(targets[name].url))
}
const figure = (name: string) => ({
  p50: median(runs[name]!.map((r) => r.p50)),
  p99: median(runs[name]!.map((r) => r.p99)),
  rps: median(runs[name]!.map((r) => r.rps)),
})
for (const name of names) {
  const f = figure(name)
  console.log(`${name.padEnd(13)} p50 ${f.p50} ms  p99 ${f.p99} ms  ${f.rps.toFixed(0)} req/s`)
}
const added = (a: string, b: string) => {
  const [x, y] = [figure(a).p50, figure(b).p50]
  return `${(((x - y) / y) * 100).toFixed(1)}% (${x} ms against ${y} ms)`
}
console.log(`added p50, bridge mode against off: ${added('bridge', 'off')} (target under 5%)`)
console.log(`added p50, bridge mode sampling 5% against off: ${added('bridge 5%', 'off')}`)
console.log(`added p50, v2 mode against the stand-in directly: ${added('v2', 'stand-in')}`)
console.log(`added p50, v2 mode against v2 mode comparing nothing: ${added('v2', 'v2 unsampled')}`)

const compared = async () => {
  const text = await (await fetch(`${targets.bridge.url}/metrics`)).text()
  let n = 0
  for (const m of text.matchAll(
    /^v2bridge_compare_total\{.*outcome="(equal|differing)"\} (\d+)$/gm
  ))
    n += Number(m[2])
  return n
}
const heap = () => {
  gc?.()
  return process.memoryUsage().heapUsed / 2 ** 20
}
console.log(
  `memory over ${calls.toLocaleString('en-US')} compared calls (bridge mode)${gc ? '' : ' — run with --expose-gc for exact figures'}`
)
const start = await compared()
const samples: string[] = []
let next = calls / 10
for (let done = 0; done < calls;) {
  await Promise.all(
    Array.from({ length: 4 }, () =>
      fetch(targets.bridge.url + path, { headers: { 'X-Api-Key': DEMO_KEYS.all } }).then((r) =>
        r.arrayBuffer()
      )
    )
  )
  done = (await compared()) - start
  if (done >= next) {
    samples.push(`${Math.round(done / 100) * 100}: ${heap().toFixed(1)} MiB`)
    next += calls / 10
  }
}
console.log(`heap used after GC by compared calls: ${samples.join(', ')}`)
for (const t of Object.values(targets)) await t.close()
child.kill()

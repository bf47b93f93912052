/**
 * @module bench/profile
 * `npx tsx bench/profile.ts [small|ten|largest] [seconds] [connections]` (default small, 5 s, 10): where
 * a metric-data call's CPU goes, by stage. v2bridge's Node entry runs in this process (startServer, its
 * own transport, request lines not written) in front of the canned NerdGraph (bench/canned-upstream.ts)
 * in a child process, loaded by bench/load.ts's generator (wrk, out of process; keys rotating) under
 * V8's sampling profiler (node:inspector, 50 µs). Self time is summed per source file and the files
 * grouped into the stages of a call (the table below); time in Node's internals and V8 builtins goes
 * to the stage of the nearest caller that has one, and what has none (socket I/O, microtask runs)
 * stays `runtime`. Prints CPU µs per call (`process.cpuUsage()`), each stage's share and µs per call,
 * and the busiest files (`PROFILE_TOP=n` of them). `PROFILE_CALLERS=<file as printed>` adds that
 * file's time by function (for the runtime's files, by the nearest caller outside the runtime).
 * Figures, not pass/fail; the profiler adds its own cost.
 */
import { writeFileSync } from 'node:fs'
import { Session, type Profiler } from 'node:inspector/promises'
import { bridgeOnCanned } from './bridge-on-canned'
import { casePath } from './cases'
import { load, pickGenerator } from './load'

const which = process.argv[2] ?? 'small'
const seconds = Number(process.argv[3] ?? 5)
const connections = Number(process.argv[4] ?? 10)
const path = casePath(which)

/** Stage of a call ← the first pattern its source file matches. */
const stages: [string, RegExp][] = [
  [
    'params (query, validation)',
    /src\/http\/(params|create-params|request-url)|src\/resources\/metrics\/request|zod/,
  ],
  [
    'plan (NRQL, documents)',
    /src\/resources\/metrics\/(plan|columns|documents|families|scope|names|readable)|src\/core\/nrql|mappings\//,
  ],
  [
    'client (GraphQL client, transport, limits, retry)',
    /src\/upstream\/|src\/node\/transport|graphql-request|\/graphql\/|src\/entities\//,
  ],
  ['reshape', /src\/resources\/metrics\/(reshape|read|json)|src\/core\/numbers/],
  ['render (JSON, bytes)', /src\/http\/(render|respond)/],
  ['ETag, key fingerprint (SHA-256)', /src\/http\/etag|src\/node\/fingerprint/],
  ['key, caches, report', /src\/(core|report|http\/(identify|env|origin|https|cors|rate-usage))/],
  ['node-server (requests, responses, sockets)', /@hono\/node-server|src\/node\.ts|src\/node\//],
  ['route handler (metrics/routes.ts)', /src\/resources\/metrics\/routes/],
  ['middlewares, routing (hono, app.ts)', /hono|src\/app\.ts|src\/http\/|src\/explain\//],
  ['this bench', /bench\//],
  ['garbage collection', /^\(garbage collector\)$/],
  ['runtime (Node, V8 builtins)', /^node:|^native |^\(program\)$/],
]

const { server, upstream } = await bridgeOnCanned()
let calls = 0
server.http.on('request', () => calls++)
const generator = pickGenerator()
const url = `${server.url}${path}`
await load(generator, url, connections, 2, 16) // warm the JIT and the caches

const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.setSamplingInterval', { interval: 50 })
await session.post('Profiler.start')
const before = { calls, cpu: process.cpuUsage() }
await load(generator, url, connections, seconds, Math.max(16, 2 * connections))
await new Promise((done) => setTimeout(done, 200)) // the last answers
const cpu = process.cpuUsage(before.cpu)
const served = calls - before.calls
const perCall = (cpu.user + cpu.system) / served
const { profile } = (await session.post('Profiler.stop')) as { profile: Profiler.Profile }
session.disconnect()
// `PROFILE_SAVE=<file>.cpuprofile`: the raw profile, for Chrome DevTools or speedscope.
if (process.env['PROFILE_SAVE']) writeFileSync(process.env['PROFILE_SAVE'], JSON.stringify(profile))
await server.close()
upstream.kill()

// Self time per node: the samples taken in it, weighted by the time to the next sample. A node of
// the runtime (Node's internals, V8 builtins) counts toward the stage of its nearest caller that has one.
const selfUs = new Map<number, number>()
const deltas = profile.timeDeltas ?? []
profile.samples?.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i + 1] ?? 0)))
const parent = new Map<number, Profiler.ProfileNode>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node)
const fileOf = (node: Profiler.ProfileNode) => {
  const { url, functionName } = node.callFrame
  return url
    ? url.replace(/^file:\/\/.*?\/(node_modules\/|src\/|bench\/|mappings\/)/, '$1')
    : /^\(.*\)$/.test(functionName)
      ? functionName
      : `native ${functionName}`
}
const runtime = stages.at(-1)![0]
const bare = new Set([runtime, 'other'])
const stageOf = (file: string) => stages.find(([, re]) => re.test(file))?.[0] ?? 'other'
const byStage = new Map<string, number>()
const byFile = new Map<string, number>()
/** `PROFILE_CALLERS=<file>`: that file's self time by function, or by caller for the runtime's. */
const traced = process.env['PROFILE_CALLERS']
const callers = new Map<string, number>()
let total = 0
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0
  if (node.callFrame.functionName === '(idle)' || us === 0) continue
  const file = fileOf(node)
  let stage = stageOf(file)
  if (stage === runtime) {
    let up = parent.get(node.id)
    while (up && bare.has(stageOf(fileOf(up)))) up = parent.get(up.id)
    if (up) stage = stageOf(fileOf(up))
  }
  if (file === traced) {
    // Its own functions by name; the runtime's, by the nearest caller outside the runtime.
    let up: Profiler.ProfileNode | undefined = node
    if (stageOf(file) === runtime) {
      up = parent.get(node.id)
      while (up && bare.has(stageOf(fileOf(up)))) up = parent.get(up.id)
    }
    const at = up ? `${fileOf(up)} ${up.callFrame.functionName || '(anonymous)'}` : '?'
    callers.set(at, (callers.get(at) ?? 0) + us)
  }
  byStage.set(stage, (byStage.get(stage) ?? 0) + us)
  byFile.set(file, (byFile.get(file) ?? 0) + us)
  total += us
}
console.log(
  `${which}: ${path}\n${served} calls at concurrency ${connections} (${generator}), ` +
    `${perCall.toFixed(1)} µs of CPU per call (profiler on)`
)
const rows = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([k, us]) =>
        `  ${k.padEnd(60)} ${((100 * us) / total).toFixed(1).padStart(5)} %` +
        `${((perCall * us) / total).toFixed(1).padStart(8)} µs/call`
    )
    .join('\n')
console.log(
  `by stage:\n${rows(byStage, 20)}\ntop files:\n${rows(byFile, Number(process.env['PROFILE_TOP'] ?? 15))}`
)
if (traced) console.log(`${traced} by function or caller:\n${rows(callers, 15)}`)

/**
 * @module bench/worker-cpu
 * `npm run bench:worker-cpu [-- seconds]` (default 3 s per family): the Worker's CPU per call for each
 * call family, under workerd, offline. The Worker is built exactly as
 * `wrangler deploy` uploads it (an offline dry run, minified, as scripts/size.sh measures it; or
 * `BENCH_WORKER_SCRIPT=path/worker.js` to reuse a build) and run by Miniflare (installed with wrangler) in
 * front of the NerdGraph simulator, or, for metric data, the canned NerdGraph of bench:overhead
 * (bench/canned-upstream.ts: every name has data in every slice, full-precision floats), both in this
 * process on loopback. `REPORTS` and `ASSETS` are not bound: no family reads a static file, and the
 * migration report is then kept in the isolate's memory.
 *
 * workerd does not tell a caller a request's CPU time, and inside the isolate `performance.now()` only
 * moves on I/O. So the figure is the workerd process's CPU time (user + system, every thread, from
 * /proc/<pid>/stat) over sequential calls, divided by their number: the isolate's work plus workerd's
 * own (HTTP in and out, the subrequest to NerdGraph, Miniflare's entry worker), more than Cloudflare
 * counts as a Worker's CPU time. The `/healthz` row, a call that reaches the Worker and makes no
 * subrequest, shows that floor (`−healthz`: a family's figure less it); for metric data, the same
 * calls through the passthroughs of bench:overhead as Workers (`bare`: NerdGraph's bytes piped back;
 * `floor`: `JSON.stringify(JSON.parse(…))` of them) show what moving the bytes costs, and `−bare` is
 * v2bridge's figure less the passthrough's. (V8's sampling profiler through workerd's inspector was
 * tried for the isolate alone: its busy time exceeded the whole process's CPU time, so it is not
 * used.) Figures, not pass/fail: run it on a quiet machine.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { Miniflare } from 'miniflare'
import { DEMO_KEYS, startSimulatorServer } from '../simulator'
import { startCannedUpstream } from './canned-upstream'
import { benchCases, smallCall } from './cases'

const seconds = Number(process.argv[2] ?? process.env['BENCH_SECONDS'] ?? 3)
const root = new URL('..', import.meta.url).pathname
const appId = 9045822

/** The Worker as `wrangler deploy` would upload it, built offline. */
function buildWorker(): { script: string; cleanup: () => void } {
  const given = process.env['BENCH_WORKER_SCRIPT']
  if (given) return { script: given, cleanup: () => {} }
  const dir = mkdtempSync(join(tmpdir(), 'v2bridge-worker-cpu-'))
  execFileSync('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', join(dir, 'dist')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_SEND_ERROR_REPORTS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_HIDE_BANNER: 'true',
      XDG_CONFIG_HOME: process.env['XDG_CONFIG_HOME'] ?? join(dir, 'config'),
    },
  })
  return { script: join(dir, 'dist', 'worker.js'), cleanup: () => rmSync(dir, { recursive: true }) }
}

/** The compatibility date of wrangler.toml. */
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(
  readFileSync(join(root, 'wrangler.toml'), 'utf8')
)![1]!

const ticks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100

/** The workerd processes this one started (Miniflare spawns workerd as a child). */
function workerdPids(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
        return ppid === process.pid && comm.startsWith('workerd') ? [Number(d)] : []
      } catch {
        return []
      }
    })
}

/** CPU time of `pids` so far, µs (utime + stime, every thread). */
function cpuMicros(pids: number[]): number {
  let total = 0
  for (const pid of pids) {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .slice(readFileSync(`/proc/${pid}/stat`, 'utf8').lastIndexOf(')') + 2)
      .split(' ')
    total += Number(fields[11]) + Number(fields[12]) // utime, stime: fields 14 and 15 of proc(5)
  }
  return (total / ticks) * 1e6
}

interface Family {
  label: string
  path: string
  upstream: 'simulator' | 'canned'
}

const [, tenNames, largest] = benchCases(appId)
const small = smallCall(appId)
const families: Family[] = [
  { label: '/healthz (no subrequest)', path: '/healthz', upstream: 'simulator' },
  { label: 'application list', path: '/v2/applications.json', upstream: 'simulator' },
  { label: 'application show', path: `/v2/applications/${appId}.json`, upstream: 'simulator' },
  { label: 'metric names', path: `/v2/applications/${appId}/metrics.json`, upstream: 'simulator' },
  {
    label: 'deployments list',
    path: `/v2/applications/${appId}/deployments.json`,
    upstream: 'simulator',
  },
  { label: 'alerts incidents list', path: '/v2/alerts_incidents.json', upstream: 'simulator' },
  { label: '/healthz (no subrequest)', path: '/healthz', upstream: 'canned' },
  { label: small.label, path: small.path, upstream: 'canned' },
  { label: `exporter: ${tenNames!.label}`, path: tenNames!.path, upstream: 'canned' },
  { label: `largest: ${largest!.label}`, path: largest!.path, upstream: 'canned' },
]

/** The passthroughs of bench:overhead as Workers, for the canned families: each sends the GraphQL body
 * v2bridge sent for the path (binding `BODIES`) and answers NerdGraph's bytes as they come (`bare`), or
 * `JSON.stringify` of their parse (`floor`, the translating floor of bench/overhead.ts). */
const passthrough = (floor: boolean) => `
export default {
  async fetch(request, env) {
    const url = new URL(request.url)
    const res = await fetch(env.NERDGRAPH_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'API-Key': request.headers.get('x-api-key') ?? '' },
      body: env.BODIES[url.pathname + url.search] ?? '{}',
    })
    const headers = { 'content-type': 'application/json; charset=utf-8' }
    ${
      floor
        ? 'return new Response(JSON.stringify(JSON.parse(await res.text())), { status: res.status, headers })'
        : 'return new Response(res.body, { status: res.status, headers })'
    }
  },
}`

interface Figures {
  calls: number
  /** workerd's CPU per call, ms. */
  cpu: number
  wall: number
  bytes: number
}

/** Runs `script` (a path, or module text) in workerd and measures each of `paths` in turn. */
async function measureIn(
  worker: { scriptPath: string } | { script: string },
  bindings: Record<string, unknown>,
  paths: string[],
  key: string,
  afterWarm?: (path: string) => Promise<void>
): Promise<Map<string, Figures>> {
  const mf = new Miniflare({
    modules: true,
    ...('scriptPath' in worker ? { ...worker, modulesRoot: dirname(worker.scriptPath) } : worker),
    compatibilityDate,
    bindings,
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      stdout.resume() // request lines, as the Worker logs them; read and dropped
      stderr.pipe(process.stderr)
    },
  })
  const figures = new Map<string, Figures>()
  try {
    const url = await mf.ready
    const pids = workerdPids()
    if (pids.length === 0) throw new Error('no workerd process among this process’s children')
    for (const path of paths) {
      const call = async () => {
        const res = await fetch(new URL(path, url), { headers: { 'X-Api-Key': key } })
        const bytes = (await res.arrayBuffer()).byteLength
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`)
        return bytes
      }
      for (let i = 0; i < 5; i++) await call() // warm the JIT and the isolate's caches
      await afterWarm?.(path)
      const before = cpuMicros(pids)
      const started = performance.now()
      let calls = 0
      let bytes = 0
      while (calls < 10 || performance.now() - started < seconds * 1000) {
        bytes = await call()
        calls++
      }
      const wall = (performance.now() - started) / calls
      const cpu = (cpuMicros(pids) - before) / calls / 1000
      figures.set(path, { calls, cpu, wall, bytes })
    }
  } finally {
    await mf.dispose()
  }
  return figures
}

const built = buildWorker()
const simulator = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
const canned = await startCannedUpstream()
const vars = { REGION: 'us', UPSTREAM_TIMEOUT_MS: '30000', ALLOW_HTTP: 'true' }
const cannedKey = 'NRAK-BENCH0000000000000000000001'
try {
  console.log(
    `bench:worker-cpu — the Worker (${built.script}) in workerd via Miniflare, ` +
      `sequential calls, ${seconds} s per family. CPU = the workerd process's CPU time per call, ` +
      `workerd's own HTTP and subrequest work included (bench/worker-cpu.ts says why)`
  )
  const onSim = families.filter((f) => f.upstream === 'simulator')
  const onCanned = families.filter((f) => f.upstream === 'canned')
  const sim = await measureIn(
    { scriptPath: built.script },
    { ...vars, NERDGRAPH_URL: `${simulator.url}/graphql` },
    onSim.map((f) => f.path),
    DEMO_KEYS.all
  )
  const bodies: Record<string, string> = {}
  const bridge = await measureIn(
    { scriptPath: built.script },
    { ...vars, NERDGRAPH_URL: `${canned.url}/graphql`, ACCOUNT_ID: '1000001' },
    onCanned.map((f) => f.path),
    cannedKey,
    async (path) => void (bodies[path] = canned.lastBody() ?? '{}')
  )
  const references = { NERDGRAPH_URL: `${canned.url}/graphql`, BODIES: bodies }
  const metricPaths = onCanned.filter((f) => f.path !== '/healthz').map((f) => f.path)
  const bare = await measureIn({ script: passthrough(false) }, references, metricPaths, cannedKey)
  const floor = await measureIn({ script: passthrough(true) }, references, metricPaths, cannedKey)

  const ms = (x: number | undefined) => (x === undefined ? '' : x.toFixed(2))
  console.log(
    'family'.padEnd(44) +
      'calls'.padStart(6) +
      'CPU ms'.padStart(9) +
      '−healthz'.padStart(9) +
      'bare'.padStart(8) +
      'floor'.padStart(8) +
      '−bare'.padStart(8) +
      'wall ms'.padStart(9) +
      'bytes'.padStart(10)
  )
  for (const [list, figures, where] of [
    [onSim, sim, 'the NerdGraph simulator'],
    [onCanned, bridge, 'the canned NerdGraph; bare and floor: the passthroughs as Workers'],
  ] as const) {
    console.log(`on ${where}:`)
    const health = figures.get('/healthz')!.cpu
    for (const f of list) {
      const x = figures.get(f.path)!
      const b = bare.get(f.path)
      console.log(
        `  ${f.label}`.padEnd(44) +
          String(x.calls).padStart(6) +
          ms(x.cpu).padStart(9) +
          (f.path === '/healthz' ? '' : ms(x.cpu - health)).padStart(9) +
          ms(b?.cpu).padStart(8) +
          ms(floor.get(f.path)?.cpu).padStart(8) +
          ms(b && x.cpu - b.cpu).padStart(8) +
          ms(x.wall).padStart(9) +
          String(x.bytes).padStart(10)
      )
    }
  }
} finally {
  await simulator.close()
  await canned.close()
  built.cleanup()
}

/**
 * @module bench/load
 * The load generator of the benchmarks, out of the measured servers' way: `wrk` (one thread, a C
 * event loop that costs little next to the server it loads) with bench/wrk-rotate.lua, installed by
 * bench/install-wrk.sh where absent and possible; else autocannon, run in a child process of its own
 * (bench/autocannon-load.ts) rather than in the bench's. `BENCH_LOADGEN=autocannon` forces the
 * fallback. Either way each request carries the next key and goes to the next path (`load`).
 */
import { execFileSync, spawn } from 'node:child_process'
import { loadavg } from 'node:os'

export type Generator = 'wrk' | 'autocannon'

export interface LoadResult {
  /** Completed requests (any status). */
  requests: number
  rps: number
  p50Ms: number
  p99Ms: number
  /** Non-2xx/3xx answers, socket errors and timeouts. */
  bad: number
}

const here = (file: string) => new URL(file, import.meta.url).pathname

/** `wrk` when it is installed or can be (bench/install-wrk.sh), else `autocannon`. */
export function pickGenerator(): Generator {
  if (process.env['BENCH_LOADGEN'] === 'autocannon') return 'autocannon'
  try {
    execFileSync('bash', [here('./install-wrk.sh')], { stdio: ['ignore', 'ignore', 'inherit'] })
    return 'wrk'
  } catch {
    return 'autocannon'
  }
}

/** Runs `command` to its end; resolves with its stdout. */
export function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk))
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}: ${out}`))
    )
  })
}

/** The last line of `out` that is a JSON object. */
export function lastJson(out: string): Record<string, number> {
  const line = out
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'))
  if (!line) throw new Error(`no result from the load generator: ${out}`)
  return JSON.parse(line) as Record<string, number>
}

/** `connections` connections on `url` for `seconds` s, request i carrying key i and going to path i,
 * each modulo its count: `keys` a number n (the bench keys 1 to n) or one API key; no `paths`, the
 * URL's own path. */
export async function load(
  generator: Generator,
  url: string,
  connections: number,
  seconds: number,
  keys: number | string,
  paths: string[] = []
): Promise<LoadResult> {
  if (generator === 'wrk') {
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '60s']
    const script = ['-s', here('./wrk-rotate.lua'), url, String(keys), ...paths]
    const r = lastJson(await run('wrk', [...args, ...script]))
    return {
      requests: r['requests']!,
      rps: r['requests']! / (r['durationUs']! / 1e6),
      p50Ms: r['p50Us']! / 1000,
      p99Ms: r['p99Us']! / 1000,
      bad: r['connect']! + r['read']! + r['write']! + r['status']! + r['timeout']!,
    }
  }
  const args = ['--import', 'tsx', here('./autocannon-load.ts'), url]
  const r = lastJson(
    await run(process.execPath, [...args, `${connections}`, `${seconds}`, String(keys), ...paths])
  )
  return r as unknown as LoadResult
}

/** The median of `xs` (the mean of the middle two when even). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** The machine's load averages over 1, 5 and 15 minutes, as a benchmark prints them. */
export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

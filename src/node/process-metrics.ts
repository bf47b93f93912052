/**
 * @module node/process-metrics
 * The Node process and runtime in Prometheus text, after the app's own metrics on `/metrics`
 * (docs/operations.md, Metrics): the names Prometheus' own client libraries use for a process
 * (prometheus.io docs "Writing client libraries", Process metrics) and `v2bridge_build_info`, whose
 * labels say which build and which Node runs.
 */
import { readFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'

/** The version in the package.json beside the source or the build (src/…, dist/…). */
export function packageVersion(): string {
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as {
        name?: string
        version?: string
      }
      if (pkg.name === 'v2bridge' && pkg.version) return pkg.version
    } catch {
      // not here: try the next folder up
    }
  }
  return 'unknown'
}

const gauge = (name: string, help: string, value: number, type = 'gauge') =>
  `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name} ${value}`

/** A renderer of the process metrics; the event loop delay is sampled from its creation on. */
export function processMetrics(): () => string {
  const delay = monitorEventLoopDelay({ resolution: 20 })
  delay.enable()
  const version = packageVersion()
  const started = Date.now() / 1000 - process.uptime()
  return () => {
    const memory = process.memoryUsage()
    const cpu = process.cpuUsage()
    const lines = [
      gauge(
        'process_cpu_seconds_total',
        'User and system CPU time spent, in seconds.',
        (cpu.user + cpu.system) / 1e6,
        'counter'
      ),
      gauge('process_resident_memory_bytes', 'Resident memory size, in bytes.', memory.rss),
      gauge(
        'process_start_time_seconds',
        'Start time of the process, in seconds since the epoch.',
        Math.floor(started)
      ),
      gauge('nodejs_heap_size_used_bytes', 'V8 heap in use, in bytes.', memory.heapUsed),
      gauge('nodejs_heap_size_total_bytes', 'V8 heap allocated, in bytes.', memory.heapTotal),
      gauge(
        'nodejs_eventloop_lag_p99_seconds',
        'The 99th percentile of the event loop delay since the last scrape, in seconds.',
        delay.percentile(99) / 1e9
      ),
      `# HELP v2bridge_build_info The v2bridge version and the Node version running it.\n# TYPE v2bridge_build_info gauge\nv2bridge_build_info{version="${version}",node="${process.version}"} 1`,
    ]
    delay.reset()
    return `${lines.join('\n')}\n`
  }
}

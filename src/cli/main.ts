/**
 * @module cli/main
 * The `v2bridge` command line (`bin` in package.json): `doctor`, `explain`, `serve`, `demo`.
 * `main` returns the exit status, or a running server for `serve` and `demo`.
 */
import { parseArgs } from 'node:util'
import { nerdgraphUrls, ConfigError } from '../core/config'
import type { RequestLog } from '../core/request-log'
import { parseNodeConfig } from '../node/config'
import { startLine } from '../node/lifecycle'
import { reportOption, startServer } from '../node'
import { doctor, Unreachable } from './doctor'
import { cliFetch } from './key-transport'
import { doctorBridge } from './doctor-bridge'
import { explainUrl } from './explain'
import { runVerify, verifyOptions, verifyUsage } from './verify-command'

export interface Io {
  out(line: string): void
  err(line: string): void
  env: Record<string, string | undefined>
  /** Where NerdGraph requests go (tests pass the simulator's). */
  fetch?: typeof fetch
  /** Where `serve` and `demo` write request lines (JSON on stdout unless given; tests keep them). */
  log?: RequestLog
  /** Starts the demo (scripts/demo-server.ts). The simulator lives outside src/, so the entry that
   * runs the command (bin/v2bridge.js, or a test) hands it in; without it `demo` is unavailable. */
  startDemo?: (
    env: Record<string, string | undefined>,
    log?: RequestLog
  ) => Promise<{
    banner: string
    bridge: Running
    close(): Promise<void>
  }>
}

export interface Running {
  url: string
  close(): Promise<void>
}

export const usage = `usage: v2bridge <command> [options]

  doctor --key KEY [--region us|eu] [--account ID] [--nerdgraph-url URL]
      what this key can do through v2bridge (exit 0 when applications and metric data work)
  doctor --bridge URL --key KEY
      checks a deployed v2bridge: health, one read per resource family, the key's account and the
      NRQL of a metric-data call (exit 0 when applications and metric data work, 2 when unreachable)
  explain 'V2_URL' [--key KEY] [--account ID] [--method GET] [--region us|eu] [--nerdgraph-url URL]
          [--format json|nrql]
      the NerdGraph requests a v2 call becomes, without running it (nrql: its NRQL for people, one
      query a line, for the query builder or a script)
${verifyUsage}
  serve      v2bridge on PORT (same as npm start; settings from the environment)
  demo       v2bridge in front of the built-in NerdGraph simulator

The key may also come from NEW_RELIC_USER_KEY.`

const options = {
  key: { type: 'string' },
  region: { type: 'string' },
  account: { type: 'string' },
  'nerdgraph-url': { type: 'string' },
  bridge: { type: 'string' },
  method: { type: 'string' },
  format: { type: 'string' },
  ...verifyOptions,
  help: { type: 'boolean', short: 'h' },
} as const

export async function main(argv: string[], io: Io): Promise<number | Running> {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true })
  } catch (err) {
    io.err(`${(err as Error).message}\n\n${usage}`)
    return 2
  }
  const { values: v, positionals } = parsed
  const [command, ...rest] = positionals
  if (v.help || !command) {
    io.out(usage)
    return v.help ? 0 : 2
  }
  const region = v.region ?? 'us'
  if (region !== 'us' && region !== 'eu') return fail(io, '--region is us or eu')
  const account = v.account === undefined ? undefined : Number(v.account)
  if (account !== undefined && !(Number.isInteger(account) && account > 0))
    return fail(io, '--account is a positive integer')
  const endpoint = v['nerdgraph-url'] ?? nerdgraphUrls[region]
  const key = v.key ?? io.env['NEW_RELIC_USER_KEY']
  const fetchOption = { fetch: cliFetch(io.fetch) }

  if (command === 'doctor') {
    if (!key) return fail(io, 'doctor needs --key (a NerdGraph user key, NRAK-…)')
    let report
    try {
      report = v.bridge
        ? await doctorBridge({ key, bridge: v.bridge, ...fetchOption })
        : await doctor({ key, endpoint, ...(account ? { account } : {}), ...fetchOption })
    } catch (err) {
      if (err instanceof Unreachable) return fail(io, err.message)
      throw err
    }
    for (const line of report.lines) io.out(line)
    return report.ok ? 0 : 1
  }
  if (command === 'explain') {
    if (rest.length !== 1) return fail(io, "explain takes one v2 URL, e.g. '/v2/applications.json'")
    const result = await explainUrl({
      url: rest[0]!,
      region,
      endpoint,
      ...(v.method ? { method: v.method.toUpperCase() } : {}),
      ...(key ? { key } : {}),
      ...(account ? { account } : {}),
      ...fetchOption,
    })
    if (result.kind === 'needs-lookup')
      return fail(
        io,
        "this URL needs a lookup of the application's account: pass --key, or --account ID"
      )
    const format = v.format ?? 'json'
    if (format !== 'json' && format !== 'nrql') return fail(io, '--format is json or nrql')
    if (result.status !== 200 || format === 'json') {
      ;(result.status === 200 ? io.out : io.err)(result.text)
      return result.status === 200 ? 0 : 1
    }
    const lines = nrqlLines(result.text)
    if (!lines.length) return fail(io, 'this call sends no NRQL (explain shows its documents)')
    for (const line of lines) io.out(line)
    return 0
  }
  if (command === 'verify') {
    if (!key) return fail(io, 'verify needs --key (a NerdGraph user key, NRAK-…)')
    return runVerify(v, { key, region, endpoint, io, fail: (m) => fail(io, m) })
  }
  if (command === 'serve') {
    try {
      const config = parseNodeConfig(io.env)
      const server = await startServer(config, io.fetch, {
        ...reportOption(io.env['REPORT_FILE']),
        ...(io.log ? { log: io.log } : {}),
      })
      io.out(JSON.stringify(startLine(server.url, config, server.metricsUrl)))
      return server
    } catch (err) {
      if (err instanceof ConfigError) return fail(io, err.message)
      throw err
    }
  }
  if (command === 'demo') {
    if (!io.startDemo) return fail(io, 'demo needs the simulator, which this install does not have')
    let demo
    try {
      demo = await io.startDemo(io.env, io.log)
    } catch (err) {
      // A taken port (scripts/demo-server.ts) is one line naming the setting, not a stack.
      if ((err as Error | undefined)?.name === 'DemoPortTaken')
        return fail(io, (err as Error).message)
      throw err
    }
    io.out(demo.banner)
    return { url: demo.bridge.url, close: demo.close }
  }
  return fail(io, `unknown command ${command}\n\n${usage}`)
}

/** The readable NRQL of an explain answer, else the NRQL its documents send. */
function nrqlLines(text: string): string[] {
  const { explain } = JSON.parse(text) as {
    explain: { readable_nrql?: string[]; nerdgraph?: { nrql: string[] }[] }
  }
  return explain.readable_nrql ?? (explain.nerdgraph ?? []).flatMap((d) => d.nrql)
}

function fail(io: Io, message: string): number {
  io.err(`v2bridge: ${message}`)
  return 2
}

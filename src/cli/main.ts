/**
 * @module cli/main
 * The `v2bridge` command line (`bin` in package.json): `doctor`, `explain`, `verify`, `serve`,
 * `demo` and `help`, each with its own options and `--help`; an option a command does not take is
 * refused (exit 2), never ignored. `main` returns the exit status, or a running server for `serve`
 * and `demo`.
 */
import { parseArgs } from 'node:util'
import { nerdgraphUrls, ConfigError } from '../core/config'
import type { RequestLog } from '../core/request-log'
import { parseNodeConfig } from '../node/config'
import { startLine } from '../node/lifecycle'
import { reportOption, startServer } from '../node'
import { doctor, Unreachable } from './doctor'
import { doctorBridge } from './doctor-bridge'
import { explainUrl } from './explain'
import { cliFetch, KeyRefused } from './key-transport'
import { runVerify, verifyOptions, verifyUsage, type Given } from './verify-command'
import { packageVersion } from '../node/process-metrics'

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

/** Each command: its usage lines and the options it takes; any other option is refused (exit 2). */
const key = { key: { type: 'string' } } as const
const region = { region: { type: 'string' } } as const
const nerdgraph = { 'nerdgraph-url': { type: 'string' } } as const
const help = { help: { type: 'boolean', short: 'h' } } as const

export const commands = {
  doctor: {
    usage: `  doctor --key KEY [--region us|eu] [--account ID] [--nerdgraph-url URL] [--format text|json]
          [--write-probe [--entity GUID]]
      what this key can do through v2bridge, and what v2bridge assumes about NerdGraph, probed on
      this account (docs/assumptions.md; exit 0 when applications and metric data work and no
      assumption is contradicted); read-only, except --write-probe: it adds a tag to one APM
      application (or --entity), times until entity search shows it (up to 3 minutes), and deletes it
  doctor --bridge URL --key KEY [--format text|json]
      checks a deployed v2bridge: health, one read per resource family, the key's account and the
      NRQL of a metric-data call (exit 0 when applications and metric data work, 2 when unreachable)`,
    options: {
      ...key,
      ...region,
      ...nerdgraph,
      account: { type: 'string' },
      bridge: { type: 'string' },
      format: { type: 'string' },
      'write-probe': { type: 'boolean' },
      entity: { type: 'string' },
      ...help,
    },
  },
  explain: {
    usage: `  explain 'V2_URL' [--key KEY] [--account ID] [--method GET] [--region us|eu] [--nerdgraph-url URL]
          [--format json|nrql]
      the NerdGraph requests a v2 call becomes, without running it (nrql: its NRQL for people, one
      query a line, for the query builder or a script)`,
    options: {
      ...key,
      ...region,
      ...nerdgraph,
      account: { type: 'string' },
      method: { type: 'string' },
      format: { type: 'string' },
      ...help,
    },
  },
  verify: {
    usage: verifyUsage,
    options: { ...key, ...region, ...nerdgraph, ...verifyOptions, ...help },
  },
  serve: {
    usage: `  serve
      the Node server on PORT, settings from the environment (docs/configuration.md); in
      production run node dist/node.js itself (docs/deploy.md)`,
    options: { ...help },
  },
  demo: {
    usage: `  demo
      v2bridge in front of the built-in NerdGraph simulator`,
    options: { ...help },
  },
  help: {
    usage: `  help [COMMAND]
      this text, or the usage of one command`,
    options: { ...help },
  },
} as const

type Command = keyof typeof commands

export const usage = `usage: v2bridge <command> [options]   (v2bridge <command> --help, v2bridge --version)

${Object.values(commands)
  .map((c) => c.usage)
  .join('\n')}

The key may also come from NEW_RELIC_USER_KEY.`

const commandUsage = (name: Command) =>
  `usage: v2bridge ${name} [options]\n\n${commands[name].usage}${'key' in commands[name].options ? '\n\nThe key may also come from NEW_RELIC_USER_KEY.' : ''}`

const isCommand = (name: string | undefined): name is Command =>
  name !== undefined && Object.hasOwn(commands, name)

export async function main(argv: string[], io: Io): Promise<number | Running> {
  const [first] = argv
  if (first === '--version' || first === '-v') {
    io.out(`v2bridge ${packageVersion()}`)
    return 0
  }
  if (first === undefined || first === '--help' || first === '-h') {
    io.out(usage)
    return first === undefined ? 2 : 0
  }
  if (!isCommand(first)) return fail(io, `unknown command ${first}; v2bridge --help lists them`)
  const command = first
  let parsed
  try {
    parsed = parseArgs({
      args: argv.slice(1),
      options: commands[command].options,
      allowPositionals: true,
      strict: true,
    })
  } catch (err) {
    // One line: what is wrong and where the usage is.
    return fail(io, `${(err as Error).message.split('\n')[0]}; see v2bridge ${command} --help`)
  }
  const v = parsed.values as Record<string, string | string[] | boolean | undefined> & Given
  const rest = parsed.positionals
  if (v.help) {
    io.out(commandUsage(command))
    return 0
  }
  if (command === 'help') {
    const [about] = rest
    if (about === undefined) io.out(usage)
    else if (isCommand(about)) io.out(commandUsage(about))
    else return fail(io, `unknown command ${about}; v2bridge --help lists them`)
    return 0
  }
  if (rest.length && command !== 'explain')
    return fail(io, `${command} takes no argument ${rest[0]}; see v2bridge ${command} --help`)
  const regionName = v.region ?? 'us'
  if (regionName !== 'us' && regionName !== 'eu') return fail(io, '--region is us or eu')
  const account = v.account === undefined ? undefined : Number(v.account)
  if (account !== undefined && !(Number.isInteger(account) && account > 0))
    return fail(io, '--account is a positive integer')
  const endpoint = v['nerdgraph-url'] ?? nerdgraphUrls[regionName]
  const apiKey = v.key ?? io.env['NEW_RELIC_USER_KEY']
  const fetchOption = { fetch: cliFetch(io.fetch) }

  if (command === 'doctor') {
    if (!apiKey) return fail(io, 'doctor needs --key (a NerdGraph user key, NRAK-…)')
    const format = v.format ?? 'text'
    if (format !== 'text' && format !== 'json') return fail(io, '--format is text or json')
    const entity = v.entity as string | undefined
    if (entity !== undefined && !v['write-probe'])
      return fail(io, '--entity goes with --write-probe')
    if (entity !== undefined && !/^[A-Za-z0-9+/=_-]+$/.test(entity))
      return fail(io, '--entity is an entity GUID')
    if (v['write-probe'] && v.bridge) return fail(io, '--write-probe goes without --bridge')
    const writeProbe = v['write-probe'] ? { writeProbe: entity ? { entity } : {} } : {}
    let report
    try {
      report = v.bridge
        ? await doctorBridge({ key: apiKey, bridge: v.bridge, ...fetchOption })
        : await doctor({
            key: apiKey,
            endpoint,
            ...(account ? { account } : {}),
            ...writeProbe,
            ...fetchOption,
          })
    } catch (err) {
      if (err instanceof Unreachable || err instanceof KeyRefused) return fail(io, err.message)
      throw err
    }
    const assumptions = 'assumptions' in report ? report.assumptions : undefined
    if (format === 'json')
      io.out(JSON.stringify({ ok: report.ok, lines: report.lines, assumptions }, null, 2))
    else for (const line of report.lines) io.out(line)
    const contradicted = assumptions?.some((a) => a.verdict === 'contradicted') ?? false
    return report.ok && !contradicted ? 0 : 1
  }
  if (command === 'explain') {
    if (rest.length !== 1) return fail(io, "explain takes one v2 URL, e.g. '/v2/applications.json'")
    const result = await explainUrl({
      url: rest[0]!,
      region: regionName,
      endpoint,
      ...(v.method ? { method: v.method.toUpperCase() } : {}),
      ...(apiKey ? { key: apiKey } : {}),
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
    if (!apiKey) return fail(io, 'verify needs --key (a NerdGraph user key, NRAK-…)')
    return runVerify(v, {
      key: apiKey,
      region: regionName,
      endpoint,
      io,
      fail: (m) => fail(io, m),
    })
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
  // demo
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

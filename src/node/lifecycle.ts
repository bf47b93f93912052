/**
 * @module node/lifecycle
 * The Node server's start and stop lines: JSON on stdout, the request lines' stream
 * (src/core/request-log.ts), so one log pipeline reads them all.
 */
import { ConfigError } from '../core/config'
import { plainHttpLine, settingWarnings, type NodeConfig } from './config'

/** One line per lifecycle event: `start` (src/node.ts), `stopping`, `grace-over`, `stopped`. */
export interface LifecycleLine {
  time: string
  level: 'info' | 'warn'
  event: string
  message: string
  [field: string]: unknown
}

export function lifecycleLine(
  level: LifecycleLine['level'],
  event: string,
  message: string,
  fields: Record<string, unknown> = {}
): LifecycleLine {
  return { time: new Date().toISOString(), level, event, message, ...fields }
}

/** JSON on stdout, the request lines' stream. */
export const printLine = (line: LifecycleLine) => process.stdout.write(`${JSON.stringify(line)}\n`)

/** The start line: where v2bridge listens, where it sends NerdGraph requests, how it treats plain
 * HTTP and why. `message` keeps the words people and scripts look for. */
export function startLine(url: string, config: NodeConfig, metricsUrl?: string): LifecycleLine {
  const warnings = settingWarnings(config)
  const level = warnings.length ? 'warn' : 'info'
  return lifecycleLine(level, 'start', `v2bridge on ${url}/v2 → ${config.nerdgraphUrl}`, {
    url,
    nerdgraph: config.nerdgraphUrl,
    plainHttp: plainHttpLine(config),
    ...(metricsUrl ? { metrics: `${metricsUrl}/metrics` } : {}),
    ...(warnings.length ? { warnings } : {}),
  })
}

/** Why a listener could not start, by the system error's code (Node docs "Common system errors"),
 * and what to set instead. */
const listenFailures: Record<string, (where: string, setting: string, host: string) => string> = {
  EADDRINUSE: (where, setting) =>
    `cannot listen on ${where}: the port is in use (EADDRINUSE); stop what listens there or set ${setting} to a free port`,
  EACCES: (where, setting) =>
    `cannot listen on ${where}: permission denied (EACCES); a port below 1024 needs privileges, set ${setting} to 1024 or above`,
  EADDRNOTAVAIL: (where) =>
    `cannot listen on ${where}: no interface of this machine has that address (EADDRNOTAVAIL); set HOST to one of its addresses, 127.0.0.1 or 0.0.0.0`,
  ENOTFOUND: (where, _, host) =>
    `cannot listen on ${where}: HOST ${host} does not resolve (ENOTFOUND); set HOST to an address, or a name this machine resolves`,
  EAI_AGAIN: (where, _, host) =>
    `cannot listen on ${where}: HOST ${host} could not be resolved now (EAI_AGAIN); set HOST to an address`,
}

/** A listener that could not start for a reason the settings can fix: a ConfigError, so every
 * entry answers it as it answers a bad setting (one line on stderr, exit 2), with the system error's
 * code kept for callers that act on it (the demo names its own port settings). */
export class StartFailure extends ConfigError {
  override name = 'StartFailure'
  constructor(
    message: string,
    readonly code: string
  ) {
    super(message)
  }
}

/** `err` as a StartFailure when it is a listen error the settings can fix, else `err` itself.
 * `setting` names the port's setting (`PORT`, `METRICS_PORT`). */
export function startFailure(err: unknown, host: string, port: number, setting = 'PORT'): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  const line = code ? listenFailures[code] : undefined
  return line ? new StartFailure(line(`${host}:${port}`, setting, host), code!) : err
}

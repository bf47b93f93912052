/**
 * @module node/lifecycle
 * The Node server's start and stop lines: JSON on stdout, the request lines' stream
 * (src/core/request-log.ts), so one log pipeline reads them all.
 */
import { plainHttpLine, type NodeConfig } from './config'

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
 * HTTP and why (issue 25, item 1). `message` keeps the words people and scripts look for. */
export function startLine(url: string, config: NodeConfig, metricsUrl?: string): LifecycleLine {
  return lifecycleLine('info', 'start', `v2bridge on ${url}/v2 → ${config.nerdgraphUrl}`, {
    url,
    nerdgraph: config.nerdgraphUrl,
    plainHttp: plainHttpLine(config),
    ...(metricsUrl ? { metrics: `${metricsUrl}/metrics` } : {}),
  })
}

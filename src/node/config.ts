/**
 * @module node/config
 * Settings only the Node entry reads (kept out of the Worker's upload): its server limits against
 * slow clients (src/node/server-limits.ts), the proxies whose `X-Forwarded-*` count
 * (src/node/trusted-proxies.ts) and the report's admin token (src/report/org.ts). Workers have
 * none: Cloudflare holds the connections and builds the request URL, and the report's Durable
 * Objects list no keys.
 */
import { ConfigError, fail, integer, parseConfig, readSettings, text } from '../core/config'
import type { Config, ConfigInput, Reader } from '../core/config'
import { isProxyEntry } from './trusted-proxies'

export interface NodeSettings {
  server: {
    headersTimeoutMs: number
    requestTimeoutMs: number
    keepAliveTimeoutMs: number
    maxConnections: number
  }
  /** IP addresses or IPv4 blocks of trusted proxies. */
  trustedProxies: string[]
  /** The bearer token of the report's organisation view (src/report/org.ts); off when unset. */
  reportAdminToken: string | undefined
  /** `/metrics` on this port instead of the public one (src/node/metrics-port.ts); 0 picks a free port. */
  metricsPort: number | undefined
}
export type NodeConfig = Config & NodeSettings

const proxies: Reader<string[]> = (v) => {
  const list = text(v)
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  return list.every(isProxyEntry)
    ? list
    : fail('expected IP addresses or blocks (10.0.0.0/8, fd00::/8)')
}

/** A secret of 16 to 256 visible ASCII characters (a bearer token). */
const token: Reader<string> = (v) =>
  typeof v === 'string' && /^[\x21-\x7e]{16,256}$/.test(v)
    ? v
    : fail('expected 16 to 256 visible ASCII characters')

const settings = {
  HEADERS_TIMEOUT_MS: integer(100, 600_000),
  REQUEST_TIMEOUT_MS: integer(100, 600_000),
  KEEP_ALIVE_TIMEOUT_MS: integer(100, 600_000),
  MAX_CONNECTIONS: integer(1, 1_000_000),
  TRUSTED_PROXIES: proxies,
  /** A secret: the organisation view's bearer token. */
  REPORT_ADMIN_TOKEN: token,
  METRICS_PORT: integer(0, 65_535),
} satisfies Record<string, Reader<unknown>>

/** The shared settings (src/core/config.ts) and Node's own; one ConfigError naming every bad one. */
export function parseNodeConfig(raw: ConfigInput = {}): NodeConfig {
  const lines: string[] = []
  const v = readSettings(settings, raw, lines)
  let config: Config
  try {
    config = parseConfig(raw)
  } catch (err) {
    if (!(err instanceof ConfigError) || lines.length === 0) throw err
    throw new ConfigError(`${err.message}\n${lines.join('\n')}`)
  }
  if (lines.length > 0)
    throw new ConfigError(`invalid v2bridge configuration:\n${lines.join('\n')}`)
  return { ...config, ...nodeSettings(v) }
}

function nodeSettings(v: ReturnType<typeof readSettings<typeof settings>>): NodeSettings {
  return {
    server: {
      headersTimeoutMs: v.HEADERS_TIMEOUT_MS ?? 10_000,
      requestTimeoutMs: v.REQUEST_TIMEOUT_MS ?? 30_000,
      keepAliveTimeoutMs: v.KEEP_ALIVE_TIMEOUT_MS ?? 5_000,
      maxConnections: v.MAX_CONNECTIONS ?? 4_096,
    },
    trustedProxies: v.TRUSTED_PROXIES ?? [],
    reportAdminToken: v.REPORT_ADMIN_TOKEN,
    metricsPort: v.METRICS_PORT,
  }
}

/** Node's defaults, for a server started with shared settings only. */
export const nodeDefaults: NodeSettings = nodeSettings({})

/**
 * The start-up line that says how plain HTTP is treated, and why (docs/deploy.md, Node behind a TLS proxy):
 * the first thing to check when every call answers 301.
 */
export function plainHttpLine(config: NodeConfig): string {
  if (config.allowHttp) return 'plain HTTP: accepted (ALLOW_HTTP), for local use only'
  const proxies = config.trustedProxies
  if (proxies.length > 0)
    return `plain HTTP: redirected to https unless the proxy at ${proxies.join(', ')} (TRUSTED_PROXIES) sets X-Forwarded-Proto: https`
  if (config.publicUrl?.startsWith('https:'))
    return `plain HTTP: accepted as the TLS proxy of ${config.publicUrl} (PUBLIC_URL); set TRUSTED_PROXIES so its X-Forwarded-Proto: http is redirected`
  return 'plain HTTP: redirected to https (v2 answered plain HTTP with 301); behind a TLS proxy set TRUSTED_PROXIES and PUBLIC_URL'
}

/** A host on this machine: `localhost` (RFC 6761 §6.3), 127.0.0.0/8, `::1`. */
const isLoopback = (hostname: string) =>
  /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(hostname)

/**
 * Settings that work but put something at risk, one sentence each with the reason, for the start
 * line: every caller's key sent in clear to another machine (a plain-http `NERDGRAPH_URL`, or
 * `V2_URL` when forwarding or comparing).
 */
export function settingWarnings(config: Config): string[] {
  const inClear = (name: string, url: string) => {
    const { protocol, hostname } = new URL(url)
    return protocol === 'http:' && !isLoopback(hostname)
      ? [
          `${name} is plain http to ${hostname}: every caller's key goes there unencrypted; use https, or a proxy on this machine`,
        ]
      : []
  }
  return [
    ...inClear('NERDGRAPH_URL', config.nerdgraphUrl),
    ...(config.v2Forwarding || config.compare.mode ? inClear('V2_URL', config.v2Url) : []),
  ]
}

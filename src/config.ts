/**
 * @module config
 * Settings shared by the Node entry (environment variables) and the Worker entry (`[vars]`), validated by zod
 * once at start-up. A bad value stops start-up with a message naming the setting.
 */
import * as z from 'zod/mini'
import { logLevels } from './request-log'
import { parseKeyMap } from './keys'

/** NerdGraph endpoints by region (New Relic docs "Introduction to New Relic NerdGraph"). */
export const nerdgraphUrls = {
  us: 'https://api.newrelic.com/graphql',
  eu: 'https://api.eu.newrelic.com/graphql',
} as const

/** REST API v2 by region, where the kept alerts endpoints are forwarded (New Relic docs
 * "Introduction to New Relic REST API (v2)"). */
export const v2Urls = {
  us: 'https://api.newrelic.com/v2',
  eu: 'https://api.eu.newrelic.com/v2',
} as const

/** An integer setting within [min, max], from a string or a number. */
const integer = (min: number, max: number) =>
  z.pipe(
    z.coerce.number({ error: `expected an integer from ${min} to ${max}` }),
    z
      .int({ error: `expected an integer from ${min} to ${max}` })
      .check(
        z.minimum(min, { error: `expected an integer from ${min} to ${max}` }),
        z.maximum(max, { error: `expected an integer from ${min} to ${max}` })
      )
  )

const bool = z.pipe(
  z.enum(['true', 'false', '1', '0', 'yes', 'no'], {
    error: 'expected true, false, 1, 0, yes or no',
  }),
  z.transform((v) => v === 'true' || v === '1' || v === 'yes')
)

/** `*` or a comma-separated list of origins (`https://grafana.example.com`), for CORS (src/cors.ts). */
const origins = z.pipe(
  z.string().check(
    z.refine(
      (v) =>
        v.trim() === '*' ||
        v.split(',').every((o) => /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o.trim())),
      {
        error: 'expected * or a comma-separated list of origins like https://grafana.example.com',
      }
    )
  ),
  z.transform((v): '*' | string[] => (v.trim() === '*' ? '*' : v.split(',').map((o) => o.trim())))
)

const RawConfig = z.object({
  REGION: z._default(z.enum(['us', 'eu'], { error: 'expected us or eu' }), 'us'),
  NERDGRAPH_URL: z.optional(z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' })),
  PORT: z._default(integer(0, 65535), 8787),
  HOST: z._default(z.string().check(z.minLength(1)), '127.0.0.1'),
  ACCOUNT_ID: z.optional(integer(1, 9_999_999_999)),
  UPSTREAM_TIMEOUT_MS: z._default(integer(100, 120_000), 30_000),
  ALLOW_HTTP: z._default(bool, false),
  SHUTDOWN_GRACE_MS: z._default(integer(0, 600_000), 8_000),
  LOG_LEVEL: z._default(z.enum(logLevels, { error: `expected ${logLevels.join(', ')}` }), 'info'),
  METRICS: z.optional(bool),
  /** A secret: JSON `{ "<SHA-256 hex of a legacy key>": "<user key>" }` (src/keys.ts). */
  KEY_MAP: z.optional(z.string()),
  V2_URL: z.optional(z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' })),
  V2_FORWARDING: z._default(bool, true),
  CORS_ORIGINS: z._default(origins, '*'),
})

const ConfigSchema = z.pipe(
  RawConfig,
  z.transform((c) => ({
    region: c.REGION,
    nerdgraphUrl: c.NERDGRAPH_URL ?? nerdgraphUrls[c.REGION],
    port: c.PORT,
    host: c.HOST,
    accountId: c.ACCOUNT_ID,
    upstreamTimeoutMs: c.UPSTREAM_TIMEOUT_MS,
    allowHttp: c.ALLOW_HTTP,
    shutdownGraceMs: c.SHUTDOWN_GRACE_MS,
    logLevel: c.LOG_LEVEL,
    /** Unset: on for Node, off for Workers (the entry decides). */
    metrics: c.METRICS,
    v2Url: c.V2_URL ?? v2Urls[c.REGION],
    v2Forwarding: c.V2_FORWARDING,
    corsOrigins: c.CORS_ORIGINS,
  }))
)

export type Config = z.output<typeof ConfigSchema> & {
  /** SHA-256 hex of a legacy key → the user key sent upstream for it (src/keys.ts). */
  keyMap: ReadonlyMap<string, string>
}
export type ConfigInput = Record<string, unknown>

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Validates raw settings; empty strings count as unset. Throws ConfigError naming each bad setting. */
export function parseConfig(raw: ConfigInput = {}): Config {
  const cleaned = Object.fromEntries(
    Object.entries(raw).filter(([k, v]) => k in RawConfig.shape && v !== '' && v != null)
  )
  const result = ConfigSchema.safeParse(cleaned)
  const lines = result.success
    ? []
    : result.error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`)
  let keyMap: ReadonlyMap<string, string> = new Map()
  try {
    keyMap = parseKeyMap(cleaned['KEY_MAP'] as string | undefined)
  } catch (err) {
    lines.push(`  ${(err as Error).message}`) // names the setting, never its content
  }
  if (result.success && lines.length === 0) return { ...result.data, keyMap }
  throw new ConfigError(`invalid v2bridge configuration:\n${lines.join('\n')}`)
}

/**
 * @module config
 * Settings shared by the Node entry (environment variables) and the Worker entry (`[vars]`), validated by zod
 * once at start-up. A bad value stops start-up with a message naming the setting.
 */
import * as z from 'zod'

/** NerdGraph endpoints by region (contract nerdgraph.md §1.0). */
export const nerdgraphUrls = {
  us: 'https://api.newrelic.com/graphql',
  eu: 'https://api.eu.newrelic.com/graphql',
} as const

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const ConfigSchema = z
  .object({
    REGION: z.enum(['us', 'eu']).default('us'),
    NERDGRAPH_URL: z.url({ protocol: /^https?$/ }).optional(),
    PORT: z.coerce.number().int().min(0).max(65535).default(8787),
    HOST: z.string().min(1).default('127.0.0.1'),
    ACCOUNT_ID: z.coerce.number().int().positive().optional(),
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
    ALLOW_HTTP: bool.default(false),
  })
  .transform((c) => ({
    region: c.REGION,
    nerdgraphUrl: c.NERDGRAPH_URL ?? nerdgraphUrls[c.REGION],
    port: c.PORT,
    host: c.HOST,
    accountId: c.ACCOUNT_ID,
    upstreamTimeoutMs: c.UPSTREAM_TIMEOUT_MS,
    allowHttp: c.ALLOW_HTTP,
  }))

export type Config = z.output<typeof ConfigSchema>
export type ConfigInput = Record<string, unknown>

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Validates raw settings; empty strings count as unset. Throws ConfigError naming each bad setting. */
export function parseConfig(raw: ConfigInput = {}): Config {
  const cleaned = Object.fromEntries(
    Object.entries(raw).filter(([k, v]) => k in ConfigSchema.in.shape && v !== '' && v != null)
  )
  const result = ConfigSchema.safeParse(cleaned)
  if (result.success) return result.data
  const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`)
  throw new ConfigError(`invalid v2bridge configuration:\n${lines.join('\n')}`)
}

/**
 * @module core/config
 * Settings shared by the Node entry (environment variables) and the Worker entry (`[vars]`), validated
 * once at start-up. A bad value stops start-up with a message naming the setting, never its value.
 * Each setting is read by a small function of this module rather than a schema library: zod/mini
 * would be 8 KiB gzipped of the Worker's upload (`npm run size`; mappings/schemas.ts).
 */
import { logLevels, type LogLevel } from './request-log'
import { parseKeyMap, type KeyMap } from './keys'

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

/** `UPSTREAM_MAX_BYTES` unset: about four times the largest answer v2bridge asks for, v2's XML of
 * the largest metric-data call (7.8 MiB; NerdGraph's answer to it is 3.6 MiB, `npm run
 * bench:payload`). Read by src/upstream/answer-body.ts. */
export const defaultAnswerMaxBytes = 32 * 2 ** 20

export type Region = keyof typeof nerdgraphUrls

export interface Config {
  region: Region
  nerdgraphUrl: string
  port: number
  host: string
  accountId: number | undefined
  upstreamTimeoutMs: number
  /** Decoded bytes of one upstream answer read at most (src/upstream/answer-body.ts). */
  upstreamMaxBytes: number
  allowHttp: boolean
  shutdownGraceMs: number
  logLevel: LogLevel
  /** Unset: on for Node, off for Workers (the entry decides). */
  metrics: boolean | undefined
  v2Url: string
  v2Forwarding: boolean
  /** NRQL answers shared across keys that may read the account (src/upstream/reuse.ts). */
  sharedAnswers: boolean
  /** `*` or the origins allowed by CORS (src/http/cors.ts). */
  corsOrigins: '*' | string[]
  /** The origin of `Link` and `Location` when pinned (src/http/origin.ts). */
  publicUrl: string | undefined
  /** SHA-256 hex of a legacy key → the user key sent upstream for it (src/core/keys.ts). */
  keyMap: KeyMap
  /** Compare mode (src/compare/). */
  compare: CompareSettings
}

export const compareModes = ['v2', 'bridge'] as const
export type CompareMode = (typeof compareModes)[number]

/** Compare mode (src/compare/index.ts, issue 24). */
export interface CompareSettings {
  /** `v2` (shadow: the caller gets v2's answer) or `bridge` (canary: v2bridge's); off when unset. */
  mode: CompareMode | undefined
  /** The share of reads compared, 0 to 1. */
  sample: number
  /** Comparisons running at once, and per key; past either a call is skipped, never queued. */
  inFlight: number
  perKey: number
}
export type ConfigInput = Record<string, unknown>

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** What a setting should be; thrown by a reader, caught by {@link readSettings}. */
class Expected extends Error {}

/** Reads one set value: the setting's value, or throws {@link Expected}. */
export type Reader<T> = (value: unknown) => T

export const fail = (expected: string): never => {
  throw new Expected(expected)
}

const oneOf =
  <T extends string>(values: readonly T[]): Reader<T> =>
  (v) =>
    values.includes(v as T)
      ? (v as T)
      : fail(`expected ${values.join(values.length > 2 ? ', ' : ' or ')}`)

/** An integer within [min, max], from a string or a number. */
export const integer =
  (min: number, max: number): Reader<number> =>
  (v) => {
    const n = Number(v)
    return Number.isSafeInteger(n) && n >= min && n <= max
      ? n
      : fail(`expected an integer from ${min} to ${max}`)
  }

const flags: Record<string, boolean> = {
  true: true,
  1: true,
  yes: true,
  false: false,
  0: false,
  no: false,
}
const bool: Reader<boolean> = (v) =>
  typeof v === 'string' && v in flags ? flags[v]! : fail('expected true, false, 1, 0, yes or no')

export const text: Reader<string> = (v) => (typeof v === 'string' ? v : fail('expected a string'))

/** A number from 0 to 1. */
const fraction: Reader<number> = (v) => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : typeof v === 'number' ? v : NaN
  return n >= 0 && n <= 1 ? n : fail('expected a number from 0 to 1')
}

/** An absolute http(s) URL, trimmed, with `://` (not `http:host`). */
const httpUrl: Reader<string> = (v) => {
  const url = typeof v === 'string' ? v.trim() : ''
  return /^https?:\/\//i.test(url) && URL.canParse(url)
    ? url.replace(/[\t\n\r]/g, '')
    : fail('expected an http(s) URL')
}

/** The origin clients use: scheme, host and port only. v2bridge answers at the root of its host, so
 * a path (or query) would be dropped from `Link` and `Location`: refused rather than dropped. */
const publicOrigin: Reader<string> = (v) => {
  const url = new URL(httpUrl(v))
  return url.pathname === '/' && !url.search && !url.hash
    ? url.origin
    : fail(
        `expected an origin without a path, such as https://v2bridge.example.com (v2bridge answers at the root of its host; ${url.pathname === '/' ? 'a query' : `the path ${url.pathname}`} would be dropped from Link and Location)`
      )
}

/** `*` or a comma-separated list of origins (`https://grafana.example.com`), for CORS (src/http/cors.ts). */
const origins: Reader<'*' | string[]> = (v) => {
  const list = typeof v === 'string' ? v.split(',').map((o) => o.trim()) : []
  if (list.length === 1 && list[0] === '*') return '*'
  return list.length > 0 && list.every((o) => /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o))
    ? list
    : fail('expected * or a comma-separated list of origins like https://grafana.example.com')
}

/** Every setting, in the order a message names bad ones. */
const settings = {
  REGION: oneOf(['us', 'eu'] as const),
  NERDGRAPH_URL: httpUrl,
  PORT: integer(0, 65535),
  HOST: text,
  ACCOUNT_ID: integer(1, 9_999_999_999),
  UPSTREAM_TIMEOUT_MS: integer(100, 120_000),
  UPSTREAM_MAX_BYTES: integer(64 * 1024, 2 ** 31),
  ALLOW_HTTP: bool,
  SHUTDOWN_GRACE_MS: integer(0, 600_000),
  LOG_LEVEL: oneOf(logLevels),
  METRICS: bool,
  /** A secret: JSON `{ "<SHA-256 hex of a legacy key>": "<user key>" }` (src/core/keys.ts). */
  KEY_MAP: text,
  V2_URL: httpUrl,
  V2_FORWARDING: bool,
  SHARED_ANSWERS: bool,
  CORS_ORIGINS: origins,
  PUBLIC_URL: publicOrigin,
  V2_COMPARE: oneOf(['off', ...compareModes] as const),
  V2_COMPARE_SAMPLE: fraction,
  V2_COMPARE_IN_FLIGHT: integer(1, 10_000),
  V2_COMPARE_PER_KEY: integer(1, 25),
} satisfies Record<string, Reader<unknown>>

/** Reads the set values of `table` from `raw` (empty strings count as unset); a line per bad one. */
export function readSettings<T extends Record<string, Reader<unknown>>>(
  table: T,
  raw: ConfigInput,
  lines: string[]
): { [K in keyof T]?: ReturnType<T[K]> } {
  const v: Record<string, unknown> = {}
  for (const name of Object.keys(table)) {
    const value = raw[name]
    if (value === '' || value == null) continue
    try {
      v[name] = table[name]!(value)
    } catch (err) {
      if (!(err instanceof Expected)) throw err
      lines.push(`  ${name}: ${err.message}`)
    }
  }
  return v as { [K in keyof T]?: ReturnType<T[K]> }
}

/** Validates raw settings; empty strings count as unset. Throws ConfigError naming each bad setting. */
export function parseConfig(raw: ConfigInput = {}): Config {
  const lines: string[] = []
  const v = readSettings(settings, raw, lines)
  let keyMap: KeyMap = new Map()
  try {
    keyMap = parseKeyMap(v.KEY_MAP)
  } catch (err) {
    lines.push(`  ${(err as Error).message}`) // names the setting, never its content
  }
  if (lines.length > 0)
    throw new ConfigError(`invalid v2bridge configuration:\n${lines.join('\n')}`)
  const region = v.REGION ?? 'us'
  return {
    region,
    nerdgraphUrl: v.NERDGRAPH_URL ?? nerdgraphUrls[region],
    port: v.PORT ?? 8787,
    host: v.HOST ?? '127.0.0.1',
    accountId: v.ACCOUNT_ID,
    upstreamTimeoutMs: v.UPSTREAM_TIMEOUT_MS ?? 30_000,
    upstreamMaxBytes: v.UPSTREAM_MAX_BYTES ?? defaultAnswerMaxBytes,
    allowHttp: v.ALLOW_HTTP ?? false,
    shutdownGraceMs: v.SHUTDOWN_GRACE_MS ?? 8_000,
    logLevel: v.LOG_LEVEL ?? 'info',
    metrics: v.METRICS,
    v2Url: v.V2_URL ?? v2Urls[region],
    v2Forwarding: v.V2_FORWARDING ?? true,
    sharedAnswers: v.SHARED_ANSWERS ?? true,
    corsOrigins: v.CORS_ORIGINS ?? '*',
    publicUrl: v.PUBLIC_URL,
    keyMap,
    compare: {
      mode: v.V2_COMPARE === 'off' ? undefined : v.V2_COMPARE,
      sample: v.V2_COMPARE_SAMPLE ?? 1,
      inFlight: v.V2_COMPARE_IN_FLIGHT ?? 64,
      // Below NerdGraph's 25 concurrent requests per key, so comparing never crowds a caller out.
      perKey: v.V2_COMPARE_PER_KEY ?? 4,
    },
  }
}

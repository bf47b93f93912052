/**
 * @module http/env
 * Hono environment of v2bridge: Worker bindings (`[vars]`) and per-request variables.
 */
import type { OperationRow } from '../../mappings/operations'
import type { CacheRegistry } from '../core/cache'
import type { Config } from '../core/config'
import type { SentDocument } from '../upstream/explain-client'
import type { NerdGraph } from '../upstream/nerdgraph'
import type { V2Params } from './params'
import type { Format } from './render'

/** What the migration report (src/report/durable.ts) needs of a Durable Object namespace (Cloudflare Workers runtime API). */
export interface ReportNamespace {
  idFromName(name: string): unknown
  get(id: never): { fetch(input: string, init?: RequestInit): Promise<Response> }
}

export interface Bindings {
  REGION?: string
  NERDGRAPH_URL?: string
  ACCOUNT_ID?: string
  UPSTREAM_TIMEOUT_MS?: string
  ALLOW_HTTP?: string
  /** A Worker secret (`wrangler secret put KEY_MAP`): legacy key SHA-256 → user key (src/core/keys.ts). */
  KEY_MAP?: string
  /** Durable Object namespace of the migration report (optional; src/report/durable.ts). */
  REPORTS?: ReportNamespace
  LOG_LEVEL?: string
  V2_URL?: string
  V2_FORWARDING?: string
  /** Compare mode (src/compare/): `v2`, `bridge` or `off`, and its sample and caps. */
  V2_COMPARE?: string
  V2_COMPARE_SAMPLE?: string
  V2_COMPARE_IN_FLIGHT?: string
  V2_COMPARE_PER_KEY?: string
  /** Workers static assets (wrangler.toml `[assets]`): the static files (src/http/static-files.ts). */
  ASSETS?: { fetch(input: URL | string): Promise<Response> }
  /** Node entry only: the body of a GET request, which the fetch `Request` cannot carry. */
  getBody?: () => ReadableStream<Uint8Array> | null
  /** Node entry only: the scheme of the socket (`X-Forwarded-Proto` is then honoured, src/http/https.ts). */
  connectionScheme?: 'http' | 'https'
  /** Node entry only: the socket's remote address, matched against `TRUSTED_PROXIES`. */
  peerAddress?: string
  /** Node entry only: runs a job once the response has gone (its `close`; src/compare/). */
  afterResponse?: (job: () => void) => void
}

export interface RequestStats {
  upstreamRequests: number
  upstreamMs: number
}

export interface Variables {
  config: Config
  format: Format
  apiKey: string
  /** The user key sent to NerdGraph for this request (the presented key, or its KEY_MAP entry's);
   * never logged or echoed (src/entities/accounts.ts compares it). */
  upstreamKey: string
  /** SHA-256 of the key: the partition of every cache. */
  keyHash: string
  /** The account a legacy key belonged to, from its `KEY_MAP` entry (src/core/keys.ts). */
  keyAccount?: number
  /** The key is known good: NerdGraph (or the real v2, for a forwarded call) accepted it, or the
   * operator mapped it in `KEY_MAP`. Nothing is kept per key before (src/report/record.ts). */
  keyVerified?: true
  /** Public origin for `Link` and `Location` (src/http/origin.ts). */
  origin: string
  params: V2Params
  /** The v2 operation the request is (mappings/operations.ts). */
  operation: OperationRow
  nerdgraph: NerdGraph
  /** Documents this request sent or, in explain mode, would send (src/upstream/explain-client.ts). */
  sent: SentDocument[]
  /** The call as NRQL for people, where a route can write it (src/resources/metrics/readable.ts);
   * explain shows it. Set as a function: only explain pays for it. */
  readable?: () => string[]
  stats: RequestStats
  /** This app's caches, each defined by the module that uses it (src/core/cache.ts). */
  caches: CacheRegistry
  /** The request's id in the log and the `X-Request-Id` answer header (src/core/request-log.ts). */
  requestId: string
  /** What the request log says about an unexpected error (redacted; src/core/request-log.ts). */
  failure: string
  /** The v2 error title the request was answered with, for the request log. */
  reason: string
  /** The one account the call acted for (src/entities/accounts.ts), for the request log. */
  account: number
  /** v2bridge's own answer computed for a comparison (src/compare/): neither logged nor recorded. */
  internal?: true
}

export type Env = { Bindings: Bindings; Variables: Variables }

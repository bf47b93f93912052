/**
 * @module env
 * Hono environment of v2bridge: Worker bindings (`[vars]`) and per-request variables.
 */
import type { OperationRow } from '../mappings/operations'
import type { Caches } from './caches'
import type { Config } from './config'
import type { SentDocument } from './explain/client'
import type { ReportNamespace } from './report/durable'
import type { NerdGraph } from './nerdgraph'
import type { V2Params } from './params'
import type { Format } from './render'

export interface Bindings {
  REGION?: string
  NERDGRAPH_URL?: string
  ACCOUNT_ID?: string
  UPSTREAM_TIMEOUT_MS?: string
  ALLOW_HTTP?: string
  /** A Worker secret (`wrangler secret put KEY_MAP`): legacy key SHA-256 → user key (src/keys.ts). */
  KEY_MAP?: string
  /** Durable Object namespace of the migration report (optional; src/report/durable.ts). */
  REPORTS?: ReportNamespace
  LOG_LEVEL?: string
  /** `true` serves `/metrics` from this isolate (off by default on Workers). */
  METRICS?: string
  V2_URL?: string
  V2_FORWARDING?: string
  /** Workers static assets (wrangler.toml `[assets]`): the static files (src/static-files.ts). */
  ASSETS?: { fetch(input: URL | string): Promise<Response> }
  /** Node entry only: the body of a GET request, which the fetch `Request` cannot carry. */
  getBody?: () => ReadableStream<Uint8Array> | null
  /** Node entry only: the scheme of the socket (`X-Forwarded-Proto` is then honoured, src/https.ts). */
  connectionScheme?: 'http' | 'https'
  /** Node entry only: the socket's remote address, matched against `TRUSTED_PROXIES`. */
  peerAddress?: string
}

export interface RequestStats {
  upstreamRequests: number
  upstreamMs: number
}

export interface Variables {
  config: Config
  format: Format
  apiKey: string
  /** SHA-256 of the key: the partition of every cache. */
  keyHash: string
  /** Public origin for `Link` and `Location` (src/origin.ts). */
  origin: string
  params: V2Params
  /** The v2 operation the request is (mappings/operations.ts). */
  operation: OperationRow
  nerdgraph: NerdGraph
  /** Documents this request sent or, in explain mode, would send (src/explain/client.ts). */
  sent: SentDocument[]
  stats: RequestStats
  /** This app's caches (src/caches.ts). */
  caches: Caches
  /** The request's id in the log and the `X-Request-Id` answer header (src/request-log.ts). */
  requestId: string
  /** What the request log says about an unexpected error (redacted; src/request-log.ts). */
  failure: string
}

export type Env = { Bindings: Bindings; Variables: Variables }

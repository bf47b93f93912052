/**
 * @module app
 * Builds the one Hono app both entries serve. `createApp` is the request's path as a list: each
 * middleware a named factory in the folder of its layer, then the route groups (one sub-app per
 * resource); `onError` is the only place errors are rendered.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { Hono } from './http/hono'
import { CacheRegistry } from './core/cache'
import type { Config } from './core/config'
import type { Env } from './http/env'
import { V2Error, titles } from './core/errors'
import { keyFingerprint, VerifiedKeys, type Fingerprint } from './core/identity'
import { pinnedAccount } from './entities/resolve'
import { bodyLimits, ClientAbort } from './http/body'
import { formatOf, pathWithoutFormat, type Format } from './http/render'
import { headContentLength, render } from './http/respond'
import type { OperationRow } from '../mappings/operations'
import { operationRouter, untranslatedAnswer } from './http/operations'
import { operationRow, v0OperationRow } from './http/operation-row'
import { callerKey, keyHeaders } from './http/key'
import { forwarder, upstreamClient, type ForwardCall } from './http/upstream-client'
import { bodyParams, requestParams, withoutBody, withPostReads } from './http/request-params'
import { requestContext } from './http/request-context'
import { metricsAnswer, uncounted } from './http/metrics'
import { httpsOnly, type TrustPeer } from './http/https'
import { urlOf } from './http/request-url'
import { healthRoutes } from './http/health'
import { describeFailure, logPath, passes, type RequestLog } from './core/request-log'
import type { QueueState, Telemetry } from './upstream/telemetry'
import type { RetryClock } from './upstream/retry'
import { createUpstreamLimits, type LimitSettings } from './upstream/limits'
import type { SharedAnswerStore } from './upstream/answer-store'
import { rateUsage } from './http/rate-usage'
import { cors } from './http/cors'
import { etag, type BodyDigest } from './http/etag'
import { applications } from './resources/applications/routes'
import { metrics } from './resources/metrics/routes'
import { hosts } from './resources/applications/hosts/routes'
import { explorerRoutes, type ExplorerDemo } from './explorer/routes'
import { staticReader, type StaticFiles } from './http/static-files'
import { fieldTableReader } from './explain/fields'
import { explainHeader, explainMode, withExplainPrefix } from './explain'
import { deployments, deploymentsV0 } from './resources/deployments/routes'
import { v0Error } from './resources/deployments/v0-render'
import { recordCalls, reportRoutes, reportStores, type OrgView, type ReportStore } from './report'
import { keyTransactions } from './resources/key-transactions/routes'
import { users } from './resources/users/routes'
import { servers } from './resources/servers/routes'
import { browserApplications } from './resources/browser-applications/routes'
import { mobileApplications } from './resources/mobile-applications/routes'
import { labels } from './resources/labels/routes'
import { alerts } from './resources/alerts/routes'
import { compareCalls } from './compare/calls'
import { afterAnswer, comparisonLine } from './compare'

export interface AppOptions {
  /** More Prometheus text after the app's own on `/metrics` (the Node entry's process metrics). */
  moreMetrics?: () => string
  /** Explain without proving the key first: only the offline `v2bridge explain` (src/cli/explain.ts),
   * whose caller is the operator. */
  explainTrustsKey?: boolean
  /** Fixed configuration (Node entry, tests); otherwise read from Worker bindings. */
  config?: Config
  /** The fetch every upstream call goes through (tests pass the simulator's). */
  fetch?: typeof fetch
  /** The fetch of upstream calls (NerdGraph, and v2 for forwarded and compared calls) when `fetch`
   * is not given: the Node entry passes its own (src/node/transport.ts); the platform's when absent. */
  upstreamFetch?: typeof fetch
  /** Receives one structured line per request (src/core/request-log.ts); none when absent. */
  log?: RequestLog
  /** Per-key limits toward NerdGraph (src/upstream/limits.ts); tests shrink them. */
  limits?: Partial<LimitSettings>
  /** Clock and randomness of retries (tests make them deterministic). */
  clock?: RetryClock
  /** The table of v2 operations (mappings/operations.ts); tests may add rows. */
  operations?: readonly OperationRow[]
  /** The key's fingerprint: the runtime's fastest SHA-256 (the Node entry passes node:crypto's);
   * WebCrypto when absent, so the Worker's import graph never reaches node:crypto. */
  fingerprint?: Fingerprint
  /** The ETag digest (src/http/etag.ts): node:crypto's from the Node entry, WebCrypto when absent. */
  bodyDigest?: BodyDigest
  /** Where the migration report lives (src/report/store.ts); memory, or `REPORTS` on Workers. */
  report?: ReportStore
  /** The report's organisation view (src/report/org.ts `orgReport`): the Node entry passes it when
   * `REPORT_ADMIN_TOKEN` is set; the Workers store, one Durable Object per key, lists no keys, so
   * the Worker does not carry it. */
  reportOrg?: OrgView
  /** The static files (src/explorer/static-content.ts): the Node entry passes them; on Workers they are
   * static assets read through the `ASSETS` binding, so the Worker's script does not carry them. */
  files?: StaticFiles
  /** Node: whether the socket's peer is a trusted proxy (src/node/trusted-proxies.ts); without it,
   * `X-Forwarded-*` never count. */
  trustPeer?: TrustPeer
  /** The counters behind `/metrics` (src/upstream/telemetry.ts `createTelemetry`): the Node entry
   * passes them. Without them (Workers) nothing is counted and there is no `/metrics`: each isolate
   * would only count its own share of the calls; Workers Logs and Cloudflare's analytics see them all. */
  telemetry?: (queue: () => QueueState) => Telemetry
  /** The second tier of shared NRQL answers (src/upstream/answer-store.ts): the Worker's Cache API. */
  answerStore?: SharedAnswerStore
  /** The demo only (scripts/demo-server.ts): the explorer names the simulator as its region and
   * starts authorized with this demo key. Never set in production. */
  demo?: ExplorerDemo
}

/**
 * The app, in the order a request meets it: probes and `/metrics` answer first; then the request's
 * context and log line, HTTPS, CORS and the report's recorder; a v2 call then settles its operation,
 * key and the side that answers it, its NerdGraph client and parameters, compare mode's canary,
 * explain, rate-limit headers and ETag, before the resource routes.
 */
export function createApp(options: AppOptions = {}): Hono<Env> {
  const app = new Hono<Env>({ getPath: (req) => pathWithoutFormat(urlOf(req).pathname) })
  const limits = createUpstreamLimits(options.limits)
  const telemetry = options.telemetry?.(() => limits.snapshot()) ?? uncounted
  const fetch = options.fetch ?? options.upstreamFetch
  const upstream = { limits, telemetry, fetch, clock: options.clock, store: options.answerStore }
  const operationOf = operationRouter(options.operations)
  const fingerprint = options.fingerprint ?? keyFingerprint
  const readStatic = staticReader(options.files)
  const fieldTable = fieldTableReader(readStatic)
  const reportStore = reportStores(options.report)
  const verifiedKeys = new VerifiedKeys()
  const toV2 = forwarder(upstream, verifiedKeys)
  const log = options.log
  const compare = comparisons(app, { toV2, telemetry, reportStore, verifiedKeys, log })
  const caches = new CacheRegistry(telemetry.cacheLookup)

  app.route('/', healthRoutes(options.config))
  if (options.telemetry)
    app.get('/metrics', metricsAnswer(telemetry, options.config, options.moreMetrics))
  const { isInternal } = compare
  app.use(
    requestContext({ config: options.config, caches, telemetry, log, operationOf, isInternal })
  )
  app.use(headContentLength)
  app.use(httpsOnly(options.trustPeer))
  app.use('/v2/*', cors(operationOf))
  app.use('/v2/*', recordCalls(reportStore, verifiedKeys))
  app.use('/deployments', recordCalls(reportStore, verifiedKeys))
  app.route(
    '/v2bridge',
    reportRoutes(reportStore, fingerprint, fieldTable, readStatic, options.reportOrg)
  )

  // After its operation and key, a call meets: the side that answers it, its NerdGraph client and
  // parameters, compare mode's canary, explain.
  const answer = [
    answeringSide(toV2, compare.shadow),
    upstreamClient(upstream, verifiedKeys),
    requestParams(verifiedKeys),
    compare.canary,
    explainMode(fieldTable, { trustKey: options.explainTrustsKey === true }),
  ]
  app.use('/v2/*', operationRow(operationOf), callerKey(fingerprint, keyHeaders.v2), ...answer)
  app.use('/v2/*', rateUsage(), etag(options.bodyDigest))
  // The legacy deployments API v0: outside /v2, and it also takes a license key.
  const v0Key = callerKey(fingerprint, keyHeaders.v0)
  app.use('/deployments', v0OperationRow(operationOf), v0Key, ...answer)

  app.route('/v2', applications)
  app.route('/v2', metrics)
  app.route('/v2', hosts)
  app.route('/v2', deployments)
  app.route('/', deploymentsV0)
  app.route('/', explorerRoutes(readStatic, options.demo))
  app.route('/v2', keyTransactions)
  app.route('/v2', users)
  app.route('/v2', servers)
  app.route('/v2', browserApplications)
  app.route('/v2', mobileApplications)
  app.route('/v2', labels)
  app.route('/v2', alerts)

  app.notFound(notFound)
  app.onError(errorAnswer(log))
  return withExplainPrefix(withPostReads(app, operationOf))
}

/**
 * Which side answers a call: a kept alerts call goes to the real v2 (explain never forwards: a
 * forwarded row answers its plan, src/explain); in compare mode's `v2` side a served call is
 * answered by v2 (`shadow`, src/compare/calls.ts); a retired or unsupported row ends here (410,
 * 501). The rest is answered here, after one account-header rule for every route: a bad header is
 * 422 everywhere (src/entities/resolve.ts). A v0 deployment is a write sent to one side only: in `v2`
 * mode to v0 beside V2_URL (src/http/forward.ts `forwardUrl`), in `bridge` mode to NerdGraph.
 */
function answeringSide(
  toV2: ForwardCall,
  shadow: (c: Context<Env>, row: OperationRow) => Promise<Response>
): MiddlewareHandler<Env> {
  return async (c, next) => {
    const row = c.get('operation')
    const config = c.get('config')
    if (row.answer === 'forwarded' && config.v2Forwarding && c.req.header(explainHeader) !== '1')
      return toV2(c)
    if (compareModeOf(c, row) === 'v2') return shadow(c, row)
    const untranslated = untranslatedAnswer(row, config.v2Forwarding)
    if (untranslated) throw untranslated
    pinnedAccount(c)
    return next()
  }
}

/** Compare mode (src/compare/) of a call: served rows only, never an explanation or an internal call. */
function compareModeOf(c: Context<Env>, row: OperationRow) {
  const served = row.answer === 'served' && c.req.header(explainHeader) !== '1'
  return served && !c.get('internal') ? c.get('config').compare.mode : undefined
}

interface ComparisonParts {
  toV2: ForwardCall
  telemetry: Telemetry
  reportStore: (c: Context<Env>) => ReportStore
  verifiedKeys: VerifiedKeys
  log: RequestLog | undefined
}

/** Compare mode in the request's way (src/compare/calls.ts): v2bridge's own answer is the app again,
 * flagged internal; outcomes go to `/metrics`, the log (differing ones) and the key's report. */
function comparisons(app: Hono<Env>, parts: ComparisonParts) {
  const { telemetry, reportStore, verifiedKeys, log } = parts
  const internalCalls = new WeakSet<Request>()
  const calls = compareCalls({
    toV2: parts.toV2,
    own: (c, req) => {
      internalCalls.add(withoutBody(req))
      let ctx
      try {
        ctx = c.executionCtx
      } catch {
        // Node: no execution context
      }
      return Promise.resolve(app.fetch(req, c.env, ctx))
    },
    bodyParams: (c) => bodyParams(c.req.raw, c.env, bodyLimits.read),
    settle: (c, outcome) => {
      telemetry.compared(`${outcome.method} ${outcome.path}`, outcome.result)
      const config = c.get('config')
      if (outcome.result === 'differing' && log && passes(config.logLevel, 'info'))
        log(comparisonLine(c, outcome))
      const keyHash = c.get('keyHash')
      if (!c.get('keyVerified') && !verifiedKeys.has(keyHash)) return
      const pending = reportStore(c).compared?.(keyHash, outcome)
      if (pending) afterAnswer(c, () => pending)
    },
  })
  /** `bridge` mode, after v2bridge answered: v2 is asked and compared after the answer. */
  const canary: MiddlewareHandler<Env> = async (c, next) => {
    const row = c.get('operation')
    const comparing = compareModeOf(c, row)
    await next()
    if (comparing === 'bridge') calls.canary(c, row)
  }
  return { isInternal: (req: Request) => internalCalls.has(req), shadow: calls.shadow, canary }
}

function notFound(c: Context<Env>) {
  const format = c.get('format') ?? formatOf(urlOf(c.req.raw).pathname, undefined) ?? 'json'
  return render(format, { error: { title: titles.notFound } }, 404)
}

/** The one place an error becomes an answer: a V2Error as v2's error body (v0's for `/deployments`),
 * a client that left as 499, anything else as v2's generic 500, logged with the key scrubbed. */
function errorAnswer(log: RequestLog | undefined) {
  return (err: Error, c: Context<Env>) => {
    const format: Format = c.get('format') ?? 'json'
    if (err instanceof V2Error) {
      c.set('reason', err.reason ?? err.title)
      if (c.get('operation')?.path === '/deployments') return v0Error(format, err)
      const error: Record<string, unknown> = { title: err.title }
      if (err.messages) error['messages'] = err.messages
      return render(format, { error }, err.status, err.headers)
    }
    // A client that left mid-request is not a server fault: logged as status 499 (nginx's "client
    // closed request"), an answer nobody reads.
    if (err instanceof ClientAbort || c.req.raw.signal?.aborted) {
      return render(format, { error: { title: titles.clientClosed } }, 499)
    }
    // Unknown errors: logged (key scrubbed), answered with the generic v2 500, never echoed.
    const failure = describeFailure(err, c.get('apiKey'))
    c.set('failure', failure)
    if (!log) console.error(`[v2bridge] ${c.req.method} ${logPath(urlOf(c.req.raw))}: ${failure}`)
    return render(format, { error: { title: titles.serverError } }, 500)
  }
}

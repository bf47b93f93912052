/**
 * @module app
 * Builds the one Hono app both entries serve: format, key and parameters are settled in
 * middleware, each resource is a sub-app, and `onError` is the only place errors are rendered.
 */
import type { Context } from 'hono'
import { Hono } from './http/hono'
import { matchedRoutes } from 'hono/route'
import { CacheRegistry } from './core/cache'
import { parseConfig, type Config } from './core/config'
import type { Bindings, Env } from './http/env'
import { V2Error, titles } from './core/errors'
import { keyFingerprint, VerifiedKeys, type Fingerprint } from './core/identity'
import { createUpstream, type Upstream } from './upstream/nerdgraph'
import { pinnedAccount } from './entities/resolve'
import {
  bodyLimitOf,
  bodyLimits,
  checkEncoding,
  ClientAbort,
  getBodyOf,
  readCapped,
} from './http/body'
import { checkKey } from './upstream/key-check'
import { V2Params, paramsFromBody } from './http/params'
import { formatOf, pathWithoutFormat, type Format } from './http/render'
import { headContentLength, render } from './http/respond'
import type { OperationRow } from '../mappings/operations'
import { forward } from './http/forward'
import { operationRouter, untranslatedAnswer, type OperationRouter } from './http/operations'
import { httpsOnly, type TrustPeer } from './http/https'
import { urlOf } from './http/request-url'
import { healthRoutes } from './http/health'
import {
  describeFailure,
  logMethod,
  logPath,
  passes,
  requestIdFrom,
  requestLine,
  type RequestLog,
} from './core/request-log'
import { contentType } from './core/prometheus'
import type { QueueState, Telemetry } from './upstream/telemetry'
import type { RetryClock } from './upstream/retry'
import { createUpstreamLimits, type LimitSettings } from './upstream/limits'
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
import { upstreamKeyFor } from './core/keys'
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
  /** The demo only (scripts/demo-server.ts): the explorer names the simulator as its region and
   * starts authorized with this demo key. Never set in production. */
  demo?: ExplorerDemo
}

/** Counts nothing: the Worker's telemetry (see `AppOptions.telemetry`). */
const uncounted: Telemetry = {
  request() {},
  upstreamAttempt() {},
  upstreamRetry() {},
  upstreamFault() {},
  cacheLookup() {},
  compared() {},
  render: () => '',
}

const configByBindings = new WeakMap<object, Config>()

function configFrom(env: Bindings | undefined): Config {
  if (!env) return parseConfig({})
  let config = configByBindings.get(env)
  if (!config) configByBindings.set(env, (config = parseConfig(env as Record<string, unknown>)))
  return config
}

/** The route template a request matched, for logs and metrics: the v2 operation's path (also for
 * a 405 on a known path), another route's registered pattern, or `unmatched`. Never the raw path. */
function routeOf(c: Context<Env>, operationOf: OperationRouter): string {
  const row = c.get('operation')
  if (row) return row.path
  const known =
    c.res.status === 405
      ? operationOf(c.req.method, pathWithoutFormat(urlOf(c.req.raw).pathname)).path
      : undefined
  return known ?? matchedRoutes(c).findLast((r) => r.method !== 'ALL')?.path ?? 'unmatched'
}

/** A key NerdGraph could accept: printable ASCII without spaces, at most 256 characters. */
const plausibleKey = /^[\x21-\x7e]{1,256}$/

export function createApp(options: AppOptions = {}): Hono<Env> {
  const app = new Hono<Env>({
    getPath: (req) => pathWithoutFormat(urlOf(req).pathname),
  })
  // Per app instance: one caller's queue or in-flight request never touches another app's.
  const limits = createUpstreamLimits(options.limits)
  const telemetry = options.telemetry?.(() => limits.snapshot()) ?? uncounted
  const caches = new CacheRegistry(telemetry.cacheLookup)
  const operationOf = operationRouter(options.operations)
  const fingerprint = options.fingerprint ?? keyFingerprint
  const readStatic = staticReader(options.files)
  const fieldTable = fieldTableReader(readStatic)
  const upstreamFetch = options.fetch ?? options.upstreamFetch
  // One NerdGraph client per configuration (the Worker's bindings are one object per deployment).
  const upstreams = new WeakMap<Config, Upstream>()
  const upstreamFor = (config: Config) => {
    let upstream = upstreams.get(config)
    if (!upstream) {
      upstream = createUpstream({
        endpoint: config.nerdgraphUrl,
        limits,
        telemetry,
        maxAnswerBytes: config.upstreamMaxBytes,
        ...(upstreamFetch ? { fetch: upstreamFetch } : {}),
        ...(options.clock ? { clock: options.clock } : {}),
      })
      upstreams.set(config, upstream)
    }
    return upstream
  }

  app.route('/', healthRoutes(options.config))
  if (options.telemetry)
    app.get('/metrics', (c) => {
      const config = options.config ?? configFrom(c.env)
      if (config.metrics === false)
        return render('json', { error: { title: titles.notFound } }, 404)
      return c.body(telemetry.render() + (options.moreMetrics?.() ?? ''), 200, {
        'Content-Type': contentType,
        'Cache-Control': 'no-store',
      })
    })
  app.use(async (c, next) => {
    const started = Date.now()
    const requestId = requestIdFrom(c.req.header('x-request-id'))
    c.set('requestId', requestId)
    c.set('stats', { upstreamRequests: 0, upstreamMs: 0 })
    c.set('caches', caches)
    c.set('config', options.config ?? configFrom(c.env))
    // v2bridge's own answer for a comparison is not a request of its own: no line, no count.
    if (internalCalls.has(c.req.raw)) {
      c.set('internal', true)
      return next()
    }
    await next()
    try {
      c.res.headers.set('X-Request-Id', requestId)
    } catch {
      c.res = new Response(c.res.body, c.res) // headers of a fetched response are immutable
      c.res.headers.set('X-Request-Id', requestId)
    }
    const stats = c.get('stats')
    const route = routeOf(c, operationOf)
    const totalMs = Date.now() - started
    telemetry.request(route, c.req.method, c.res.status, totalMs / 1000)
    const line = requestLine({
      requestId,
      method: logMethod(c.req.method),
      route,
      path: logPath(urlOf(c.req.raw)),
      status: c.res.status,
      upstreamRequests: stats.upstreamRequests,
      upstreamMs: stats.upstreamMs,
      totalMs,
      ...logContext(c),
      ...(c.get('failure') ? { error: c.get('failure') } : {}),
    })
    if (options.log && passes(c.get('config').logLevel, line.level)) options.log(line)
  })

  app.use(headContentLength)
  app.use(httpsOnly(options.trustPeer))
  app.use('/v2/*', cors(operationOf))

  const reportStore = reportStores(options.report)
  const verifiedKeys = new VerifiedKeys()
  app.use('/v2/*', recordCalls(reportStore, verifiedKeys))
  app.use('/deployments', recordCalls(reportStore, verifiedKeys))
  app.route(
    '/v2bridge',
    reportRoutes(reportStore, fingerprint, fieldTable, readStatic, options.reportOrg)
  )

  app.use('/v2/*', async (c, next) => {
    const url = urlOf(c.req.raw)
    const format = formatOf(url.pathname, c.req.header('accept'))
    if (!format) throw new V2Error(404, titles.notFound)
    c.set('format', format)

    const { row, allowed } = operationOf(c.req.method, pathWithoutFormat(url.pathname))
    if (allowed.length === 0) throw new V2Error(404, titles.notFound)
    if (!row) {
      throw new V2Error(405, titles.methodNotAllowed, { headers: { Allow: allowed.join(', ') } })
    }
    c.set('operation', row)

    const upstreamKey = await identify(c, ['x-api-key', 'api-key'])
    const config = c.get('config')
    // Explain never forwards: a forwarded row answers its plan (src/explain).
    const explaining = c.req.header(explainHeader) === '1'
    if (row.answer === 'forwarded' && config.v2Forwarding && !explaining)
      return forwardCall(c, config)
    const comparing = compareModeOf(c, row)
    if (comparing === 'v2') return comparisons.shadow(c, row)
    const untranslated = untranslatedAnswer(row, config.v2Forwarding)
    if (untranslated) throw untranslated
    pinnedAccount(c) // one account-header rule for every route: a bad header is 422 everywhere
    await connect(c, upstreamKey, bodyLimitOf(row, c.req.method))
    await next()
    if (comparing === 'bridge') comparisons.canary(c, row)
  })

  /** Compare mode (src/compare/) of a call: served rows only, never an explanation or an internal call. */
  function compareModeOf(c: Context<Env>, row: OperationRow) {
    const served = row.answer === 'served' && c.req.header(explainHeader) !== '1'
    return served && !c.get('internal') ? c.get('config').compare.mode : undefined
  }

  const internalCalls = new WeakSet<Request>()
  const comparisons = compareCalls({
    toV2: (c, req, comparison) => forwardCall(c, c.get('config'), req, comparison),
    own: (c, req) => {
      internalCalls.add(req)
      postedBodies.set(req, null) // a GET of its own: never the caller's body stream
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
      if (outcome.result === 'differing' && options.log && passes(config.logLevel, 'info'))
        options.log(comparisonLine(c, outcome))
      const keyHash = c.get('keyHash')
      if (!c.get('keyVerified') && !verifiedKeys.has(keyHash)) return
      const pending = reportStore(c).compared?.(keyHash, outcome)
      if (pending) afterAnswer(c, () => pending)
    },
  })

  // The legacy deployments API v0 lives outside /v2 and also takes a license key (x-license-key).
  app.use('/deployments', async (c, next) => {
    c.set('format', formatOf(urlOf(c.req.raw).pathname, undefined) ?? 'xml')
    const { row, allowed } = operationOf(c.req.method, '/deployments')
    if (!row) {
      throw new V2Error(405, titles.methodNotAllowed, { headers: { Allow: allowed.join(', ') } })
    }
    c.set('operation', row)
    const upstreamKey = await identify(c, ['x-api-key', 'x-license-key', 'api-key'])
    // A v0 deployment is a write, sent to one side only: in `v2` mode to v0 beside V2_URL
    // (src/http/forward.ts `forwardUrl`), in `bridge` mode to NerdGraph; never compared.
    const comparing = compareModeOf(c, row)
    if (comparing === 'v2') return comparisons.shadow(c, row)
    pinnedAccount(c)
    await connect(c, upstreamKey, bodyLimitOf(row, c.req.method))
    await next()
    if (comparing === 'bridge') comparisons.canary(c, row)
  })

  /** A kept alerts call (or, in compare mode, `req`), passed unchanged to the real v2
   * (src/http/forward.ts) with the caller's own key. */
  async function forwardCall(
    c: Context<Env>,
    config: Config,
    req?: Request,
    comparison = false
  ): Promise<Response> {
    const stats = c.get('stats')
    const res = await forward(req ?? c.req.raw, req ? undefined : c.env?.getBody, {
      base: config.v2Url,
      timeoutMs: config.upstreamTimeoutMs,
      maxBytes: config.upstreamMaxBytes,
      // A comparison's own v2 reads wait in a lane of their own, never in the key's.
      partition: comparison ? `compare:${c.get('keyHash')}` : c.get('keyHash'),
      limits,
      origin: c.get('origin'),
      ...(upstreamFetch ? { fetch: upstreamFetch } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      onUpstream: (ms) => {
        stats.upstreamRequests += 1
        stats.upstreamMs += ms
      },
    })
    // v2 itself accepted the key unless it refused it or failed.
    if (res.status < 500 && res.status !== 401 && res.status !== 403) {
      c.set('keyVerified', true)
      verifiedKeys.add(c.get('keyHash'))
    }
    return res
  }

  /** The caller's key from the first of `headers` sent: 401 when none or unusable; the upstream
   * key it stands for (a legacy key through KEY_MAP, src/core/keys.ts). Caches partition by this key. */
  async function identify(c: Context<Env>, headers: string[]): Promise<string> {
    const header = headers.find((h) => c.req.header(h)?.trim())
    const apiKey = header && c.req.header(header)!.trim()
    if (!apiKey) throw new V2Error(401, titles.noKey)
    if (!plausibleKey.test(apiKey)) throw new V2Error(401, titles.badKey)
    const keyHash = await fingerprint(apiKey)
    c.set('apiKey', apiKey)
    c.set('keyHash', keyHash)
    const use = header === 'x-license-key' ? 'license' : 'rest'
    const { key, account, mapped } = upstreamKeyFor(apiKey, keyHash, c.get('config').keyMap, use)
    if (account !== undefined) c.set('keyAccount', account)
    if (mapped) c.set('keyVerified', true)
    c.set('upstreamKey', key)
    return key
  }

  /** Parameters (query and body, up to `limit` bytes) and the caller's NerdGraph client. */
  async function connect(c: Context<Env>, apiKey: string, limit: number) {
    const { config, stats } = { config: c.get('config'), stats: c.get('stats') }
    const keyHash = c.get('keyHash')
    c.set(
      'nerdgraph',
      upstreamFor(config).forCaller({
        apiKey,
        partition: c.get('keyHash'),
        timeoutMs: config.upstreamTimeoutMs,
        // One budget for the whole v2 request: every NerdGraph call, retry and queue wait in it.
        deadline: (options.clock?.now() ?? Date.now()) + config.upstreamTimeoutMs,
        onUpstream: (ms) => {
          stats.upstreamRequests += 1
          stats.upstreamMs += ms
        },
        onAccepted: () => {
          c.set('keyVerified', true)
          verifiedKeys.add(keyHash)
        },
      })
    )
    if (c.get('keyVerified')) verifiedKeys.add(keyHash)
    // A body larger than a read's is read only for a key NerdGraph accepted, now or lately: a
    // made-up key costs one key check, never the reading of a large body (issue 22, item 8).
    if (largeBody(c.req.raw) && !verifiedKeys.has(keyHash)) {
      await checkKey(c.get('nerdgraph'), { lookup: true })
      verifiedKeys.add(keyHash)
    }
    const params = new V2Params(urlOf(c.req.raw).searchParams)
    for (const pair of await bodyParams(c.req.raw, c.env, limit)) params.add(...pair)
    c.set('params', params)
  }

  const explainOptions = { trustKey: options.explainTrustsKey === true }
  app.use('/v2/*', explainMode(fieldTable, explainOptions))
  app.use('/deployments', explainMode(fieldTable, explainOptions))

  app.use('/v2/*', rateUsage())
  app.use('/v2/*', etag(options.bodyDigest))
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

  app.notFound((c) => {
    const format = c.get('format') ?? formatOf(urlOf(c.req.raw).pathname, undefined) ?? 'json'
    return render(format, { error: { title: titles.notFound } }, 404)
  })

  app.onError((err, c) => {
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
    if (!options.log)
      console.error(`[v2bridge] ${c.req.method} ${logPath(urlOf(c.req.raw))}: ${failure}`)
    return render(format, { error: { title: titles.serverError } }, 500)
  })

  return withExplainPrefix(withPostReads(app, operationOf))
}

/** What a request line says beyond the basics: the key's fingerprint, the operation and how it is
 * answered, the account, the reason of an error, and whether it is a write (an audit line). */
function logContext(c: Context<Env>) {
  const row = c.get('operation')
  const keyHash = c.get('keyHash')
  const account = c.get('account')
  const reason = c.get('reason')
  return {
    ...(keyHash ? { key: keyHash.slice(0, 12) } : {}),
    ...(row ? { operation: `${row.method} ${row.path}`, answer: row.answer } : {}),
    ...(account !== undefined ? { account } : {}),
    ...(reason && c.res.status >= 400 ? { reason } : {}),
    ...(row && row.method !== 'GET' && c.req.method !== 'GET' ? { audit: true as const } : {}),
  }
}

/**
 * A POST on a served read path that has no create reads as the GET it stands for (issue 23, item 2:
 * hubot-newrelic2 sends every call as POST with a form body): it goes on as a GET whose body is read
 * as a GET body is (src/http/params.ts). Rows marked `postReads` route POST themselves.
 */
/** The body of a POST read on as a GET (`withPostReads`), by the GET request that stands for it:
 * the bindings stay the same object, so nothing keyed by them (settings) is read again. */
const postedBodies = new WeakMap<Request, ReadableStream<Uint8Array> | null>()

function withPostReads<A extends Hono<Env>>(app: A, operationOf: OperationRouter): A {
  const fetch = app.fetch
  app.fetch = (req, env, ctx) => {
    if (req.method !== 'POST' || !req.url.includes('/v2/')) return fetch(req, env, ctx)
    const { row } = operationOf('POST', pathWithoutFormat(urlOf(req).pathname))
    if (!row || row.method !== 'GET' || row.postReads) return fetch(req, env, ctx)
    const read = new Request(req.url, { method: 'GET', headers: req.headers, signal: req.signal })
    postedBodies.set(read, req.body)
    return fetch(read, env, ctx)
  }
  return app
}

/** Parameters carried in the body (src/http/params.ts): form or JSON, also on GET via the Node entry,
 * whose `getBody` hands over the socket's body (fetch's Request cannot carry one on GET). */
/** A body that may be larger than a read's: declared so, or sent without a length (chunked). */
function largeBody(req: Request): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false
  const length = req.headers.get('content-length')
  if (length !== null) return Number(length) > bodyLimits.read
  return req.headers.has('transfer-encoding')
}

async function bodyParams(
  req: Request,
  env: Bindings | undefined,
  limit: number
): Promise<[string, string][]> {
  const stream =
    req.method === 'GET' || req.method === 'HEAD'
      ? postedBodies.has(req)
        ? postedBodies.get(req)
        : getBodyOf(req, env?.getBody)
      : req.body
  if (stream) checkEncoding(req.headers)
  const text = await readCapped(stream, limit, req.headers.get('content-length'))
  return paramsFromBody(text, req.headers.get('content-type') ?? undefined)
}

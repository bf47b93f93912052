/**
 * @module node
 * Node entry: the only module that reads `process.env`. Validates settings, then serves the app.
 */
import { getRequestListener, RequestError, serve } from '@hono/node-server'
import type { Http2Bindings, HttpBindings } from '@hono/node-server'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { pathToFileURL } from 'node:url'
import type { TLSSocket } from 'node:tls'
import { createApp, type AppOptions } from './app'
import { ConfigError, type Config } from './core/config'
import { nodeDefaults, parseNodeConfig, type NodeSettings } from './node/config'
import { processMetrics } from './node/process-metrics'
import { createTelemetry, type Telemetry } from './upstream/telemetry'
import { startMetricsServer } from './node/metrics-port'
import { nodeBodyDigest, nodeFingerprint } from './node/fingerprint'
import {
  applyServerLimits,
  checkIntervalMs,
  clientErrorTitles,
  requireHost,
} from './node/server-limits'
import { render } from './http/respond'
import { isTrusted } from './node/trusted-proxies'
import { titles } from './core/errors'
import type { RequestLog } from './core/request-log'
import { drainOnSignals } from './node/shutdown'
import { printLine, StartFailure, startFailure, startLine } from './node/lifecycle'
import { fileStore } from './report/file-store'
import { orgReport } from './report/org'
import { staticFiles } from './explorer/static-content'
import { nodeTransport } from './node/transport'
import '../mappings/schemas' // checks the mapping tables at start-up

export interface NodeServer {
  url: string
  /** Where `/metrics` answers when `METRICS_PORT` is set. */
  metricsUrl?: string
  close(): Promise<void>
  http: Server
  /** Writes the request lines still queued (`afterResponse`) now: before the process exits. */
  flushLog(): void
}

/** Starts v2bridge on `config.host:config.port`; resolves once it listens. Request lines go to
 * stdout as JSON unless `options.log` says otherwise. */
export function startServer(
  config: Config & Partial<NodeSettings>,
  fetchImpl?: typeof fetch,
  options: Pick<AppOptions, 'log' | 'limits' | 'report' | 'demo'> = {}
): Promise<NodeServer> {
  // With METRICS_PORT, /metrics moves to its own listener and the public port answers it 404.
  const separateMetrics = config.metricsPort !== undefined
  let telemetry: Telemetry | undefined
  const moreMetrics = processMetrics()
  const log = afterResponse(options.log)
  const app = createApp({
    config: separateMetrics ? { ...config, metrics: false } : config,
    fingerprint: nodeFingerprint,
    files: staticFiles,
    ...(config.trustedProxies?.length
      ? { trustPeer: (peer: string | undefined) => isTrusted(peer, config.trustedProxies!) }
      : {}),
    bodyDigest: nodeBodyDigest,
    telemetry: (queue) => (telemetry = createTelemetry(queue)),
    moreMetrics,
    ...(config.reportAdminToken ? { reportOrg: orgReport(config.reportAdminToken) } : {}),
    ...options,
    log,
    ...(fetchImpl ? { fetch: fetchImpl } : { upstreamFetch: nodeTransport() }),
  })
  return new Promise((resolve, reject) => {
    const fetchCallback = async (req: Request, env: HttpBindings | Http2Bindings) => {
      const incoming = env.incoming as IncomingMessage
      const res = await app.fetch(req, {
        getBody: () => getBody(incoming),
        connectionScheme: (incoming.socket as TLSSocket).encrypted ? 'https' : 'http',
        ...(incoming.socket.remoteAddress ? { peerAddress: incoming.socket.remoteAddress } : {}),
        // Compare mode's work starts once the answer has gone (src/compare/index.ts). A client that
        // left before the answer has closed the response already: no 'close' comes, so run it now.
        afterResponse: (job) => {
          const res = env.outgoing as ServerResponse
          if (res.closed) job()
          else res.once('close', job)
        },
      })
      // A body past its cap, or any body still arriving when the answer is ready (a made-up key
      // refused first), is not read to its end to keep the connection: the answer closes it (RFC
      // 9112 §9.6 lets the server close), so a client cannot make Node drain gigabytes after it.
      if (res.status === 413 || !incoming.complete)
        (env.outgoing as ServerResponse).shouldKeepAlive = false
      return res
    }
    const server = serve(
      {
        fetch: fetchCallback,
        hostname: config.host,
        port: config.port,
        serverOptions: { connectionsCheckingInterval: checkIntervalMs, requireHostHeader: false },
      },
      async (info) => {
        const closeMain = () =>
          new Promise<void>((done) => server.close(() => done())).then(log.flush)
        const url = `http://${config.host}:${info.port}`
        const common = { url, http: server as Server, flushLog: log.flush }
        if (!separateMetrics) return resolve({ ...common, close: closeMain })
        try {
          const metrics = await startMetricsServer(
            config.host,
            config.metricsPort!,
            () => telemetry!.render() + moreMetrics()
          ).catch((err: unknown) => {
            throw startFailure(err, config.host, config.metricsPort!, 'METRICS_PORT')
          })
          resolve({
            ...common,
            metricsUrl: metrics.url,
            close: () => Promise.all([closeMain(), metrics.close()]).then(() => {}),
          })
        } catch (err) {
          await closeMain()
          reject(err as Error)
        }
      }
    )
    // node-server's listener again, with v2's 400 for what it refuses before the app (a malformed
    // or missing Host) instead of an empty one.
    server.removeAllListeners('request')
    server.on(
      'request',
      requireHost(
        getRequestListener(fetchCallback, {
          hostname: config.host,
          errorHandler: (err) =>
            err instanceof RequestError
              ? render('json', { error: { title: clientErrorTitles[400] } }, 400)
              : render('json', { error: { title: titles.serverError } }, 500),
        })
      )
    )
    applyServerLimits(server as Server, config.server ?? nodeDefaults.server)
    // A port in use or an unresolvable HOST: one line naming the setting (src/node/lifecycle.ts).
    server.once('error', (err) => reject(startFailure(err, config.host, config.port) as Error))
  })
}

/** Request lines leave after the response: queued, and written together once the event loop has
 * sent what it was sending (`setImmediate` runs after I/O callbacks, Node docs "The Node.js Event
 * Loop"), so a slow stdout never delays an answer. Without `log`, the batch goes to stdout as JSON
 * lines in one write. `flush` writes the queue at once: a process about to exit (a drain's last
 * answer) has no next turn of the loop. */
export function afterResponse(log?: RequestLog): RequestLog & { flush: () => void } {
  let queue: Parameters<RequestLog>[0][] = []
  const flush = () => {
    const lines = queue
    queue = []
    if (log) for (const line of lines) log(line)
    else process.stdout.write(lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
  }
  const queued: RequestLog = (line) => {
    if (queue.push(line) === 1) setImmediate(flush)
  }
  return Object.assign(queued, { flush })
}

/** curl `-X GET -d …` sends a form body on GET (every curl example of the v2 docs does), which
 * fetch's Request drops: the app reads it from this stream with its byte cap (src/http/body.ts).
 * Cancelling discards the rest without closing the socket, so the 413 can still be written. */
function getBody(incoming: IncomingMessage): ReadableStream<Uint8Array> | null {
  const hasBody =
    Number(incoming.headers['content-length'] ?? 0) > 0 ||
    incoming.headers['transfer-encoding'] !== undefined
  if (!hasBody || incoming.readableEnded) return null
  let done = false
  const onData = (chunk: Buffer) => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length))
    if ((controller.desiredSize ?? 0) <= 0) incoming.pause()
  }
  const finish = (err?: Error) => {
    if (done) return
    done = true
    incoming.off('data', onData)
    if (err) controller.error(err)
    else controller.close()
  }
  let controller!: ReadableStreamDefaultController<Uint8Array>
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c
      incoming.on('data', onData)
      incoming.once('end', () => finish())
      incoming.once('error', (err) => finish(err))
      incoming.once('aborted', () => finish(new Error('aborted')))
    },
    pull: () => void incoming.resume(),
    cancel() {
      done = true
      incoming.off('data', onData)
      incoming.resume()
    },
  })
}

/** The migration report in `REPORT_FILE` (JSONL) when set; in memory otherwise. */
export function reportOption(file: string | undefined): Pick<AppOptions, 'report'> {
  return file ? { report: fileStore(file) } : {}
}

// Started as the server (`node dist/node.js`, `tsx src/node.ts`), not when bundled into another
// entry that is run itself (`node dist/cli.js doctor` never starts a server).
const isMain =
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(process.argv[1]).href &&
  /\/node\.[jt]s$/.test(import.meta.url)
if (isMain) {
  try {
    const config = parseNodeConfig(process.env)
    const server = await startServer(config, undefined, reportOption(process.env['REPORT_FILE']))
    void drainOnSignals(server.http, {
      graceMs: config.shutdownGraceMs,
      beforeExit: server.flushLog,
    })
    printLine(startLine(server.url, config, server.metricsUrl))
  } catch (err) {
    // A setting that cannot work (a bad value, a port in use, a HOST that does not resolve): what
    // to change on stderr, no stack, exit 2 as the `v2bridge` command's usage errors.
    if (err instanceof ConfigError) {
      console.error(err instanceof StartFailure ? `v2bridge: ${err.message}` : err.message)
      process.exit(2)
    }
    throw err
  }
}

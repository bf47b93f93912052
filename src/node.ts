/**
 * @module node
 * Node entry: the only module that reads `process.env`. Validates settings, then serves the app.
 */
import { serve } from '@hono/node-server'
import type { IncomingMessage } from 'node:http'
import type { TLSSocket } from 'node:tls'
import { createApp, type AppOptions } from './app'
import { ConfigError, parseConfig, type Config } from './config'
import { consoleLog } from './request-log'

export interface NodeServer {
  url: string
  close(): Promise<void>
}

/** Starts v2bridge on `config.host:config.port`; resolves once it listens. Request lines go to
 * stdout as JSON unless `options.log` says otherwise. */
export function startServer(
  config: Config,
  fetchImpl?: typeof fetch,
  options: Pick<AppOptions, 'log' | 'limits'> = {}
): Promise<NodeServer> {
  const app = createApp({
    config,
    log: consoleLog,
    ...options,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  })
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: (req, env) => {
          const incoming = env.incoming as IncomingMessage
          return app.fetch(req, {
            readGetBody: () => readGetBody(incoming),
            connectionScheme: (incoming.socket as TLSSocket).encrypted ? 'https' : 'http',
          })
        },
        hostname: config.host,
        port: config.port,
      },
      (info) =>
        resolve({
          url: `http://${config.host}:${info.port}`,
          close: () => new Promise((done) => server.close(() => done())),
        })
    )
    server.once('error', reject)
  })
}

/** curl `-X GET -d …` sends a form body on GET (contract §1.3.2); fetch's Request drops it. */
function readGetBody(incoming: IncomingMessage): Promise<string> {
  const hasBody =
    Number(incoming.headers['content-length'] ?? 0) > 0 ||
    incoming.headers['transfer-encoding'] !== undefined
  if (!hasBody || incoming.readableEnded) return Promise.resolve('')
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= 64 * 1024) chunks.push(chunk)
    })
    incoming.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    incoming.once('error', reject)
  })
}

const isMain = import.meta.url === `file://${process.argv[1]}`
if (isMain) {
  try {
    const config = parseConfig(process.env)
    const server = await startServer(config)
    console.log(`v2bridge on ${server.url}/v2 → ${config.nerdgraphUrl}`)
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }
}

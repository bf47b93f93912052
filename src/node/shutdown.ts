/**
 * @module node/shutdown
 * Graceful stop of the Node server on SIGTERM/SIGINT: stop listening, let every request in flight
 * finish within a bound, then exit 0. Answers written from then on say `Connection: close`; a
 * keep-alive connection is closed as soon as it is idle, and a connection that has not sent its first
 * request yet gets `firstRequestMs` to do so (http.Server#close would cut it at once, which loses a
 * request a client has already sent). After the bound, a request still waiting for its answer gets a
 * v2-shaped 503 (a write's says it may have happened), then the connections are cut: exit 1.
 * Each event is one JSON line on stdout, like the request lines (src/core/request-log.ts).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'
import { lifecycleLine, printLine, type LifecycleLine } from './lifecycle'

/** The 503 of a request the grace period cut (v2's error shape). A write may have reached
 * NerdGraph before the cut: its title says so, as every unconfirmed write's does. */
export const cutTitles = {
  read: 'v2bridge is restarting and did not finish this request: retry it',
  write:
    'v2bridge is restarting and did not finish this request, whose change may have been applied: check before retrying',
} as const

export interface DrainOptions {
  graceMs: number
  /** How long a connection that has not sent a request yet may take to send one (default 3 s). */
  firstRequestMs?: number
  /** One line per event (JSON on stdout by default). */
  say?: (line: LifecycleLine) => void
  exit?: (code: number) => void
  /** Runs before the last line and the exit: the Node entry writes the request lines still queued,
   * so every request answered during the drain has its line. */
  beforeExit?: () => void
  signals?: readonly NodeJS.Signals[]
}

interface Connection {
  open: Set<ServerResponse>
  served: number
}

/** Closes `server` gracefully on the first of `signals`; resolves with the exit code it used. */
export function drainOnSignals(server: Server, options: DrainOptions): Promise<number> {
  const say = options.say ?? printLine
  const exit = options.exit ?? ((code: number) => process.exit(code))
  const signals = options.signals ?? ['SIGTERM', 'SIGINT']
  const firstRequestMs = options.firstRequestMs ?? 3_000
  const connections = new Map<Socket, Connection>()
  let drainingSince: number | undefined

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { open: new Set(), served: 0 })
    socket.once('close', () => connections.delete(socket))
  })
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const connection = connections.get(req.socket)
    if (drainingSince !== undefined) res.setHeader('Connection', 'close')
    if (!connection) return
    connection.open.add(res)
    res.once('close', () => {
      connection.open.delete(res)
      connection.served++
    })
  })

  /** Closes every connection with no request in flight that has had its chance to send one. */
  const sweep = () => {
    const patient = Date.now() - drainingSince! < firstRequestMs
    for (const [socket, c] of connections)
      if (c.open.size === 0 && (c.served > 0 || !patient)) socket.destroy()
  }

  return new Promise((resolve) => {
    const finish = (code: number) => {
      options.beforeExit?.()
      for (const s of signals) process.off(s, onSignal)
      resolve(code)
      exit(code)
    }
    const onSignal = (signal: NodeJS.Signals) => {
      if (drainingSince !== undefined) return
      drainingSince = Date.now()
      say(
        lifecycleLine('info', 'stopping', `${signal}: finishing requests in flight`, {
          signal,
          graceMs: options.graceMs,
        })
      )
      for (const c of connections.values())
        for (const res of c.open) if (!res.headersSent) res.setHeader('Connection', 'close')
      const sweeper = setInterval(sweep, 25)
      const cut = setTimeout(() => {
        clearInterval(sweeper)
        options.beforeExit?.()
        const answered = [...connections.values()].flatMap((c) =>
          [...c.open].filter((res) => !res.headersSent).map(unavailable)
        )
        say(
          lifecycleLine('warn', 'grace-over', 'grace period over: cutting the connections left', {
            connections: connections.size,
            answered503: answered.length,
          })
        )
        // The 503s leave first (at most a second), then every connection is cut.
        const flushed = Promise.all(answered)
        const limit = new Promise((done) => setTimeout(done, 1_000).unref())
        void Promise.race([flushed, limit]).then(() => {
          for (const socket of connections.keys()) socket.destroy()
          finish(1)
        })
      }, options.graceMs)
      // net.Server#close: stop listening, called back once every connection has ended.
      NetServer.prototype.close.call(server, () => {
        clearInterval(sweeper)
        clearTimeout(cut)
        options.beforeExit?.() // the last answers' lines come before the stop line
        say(lifecycleLine('info', 'stopped', 'every request in flight answered'))
        finish(0)
      })
    }
    for (const s of signals) process.on(s, onSignal)
  })
}

/** Answers a cut request with its 503 and `Connection: close`; resolves once it is written. The
 * app's own answer, should it come later, finds the response finished and is dropped. */
function unavailable(res: ServerResponse): Promise<void> {
  const write = !['GET', 'HEAD', 'OPTIONS'].includes(res.req.method ?? 'GET')
  const body = JSON.stringify({ error: { title: write ? cutTitles.write : cutTitles.read } })
  return new Promise((done) => {
    res.writeHead(503, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
      'Retry-After': '5',
    })
    res.end(body, () => done())
    // Whatever the app writes later goes nowhere.
    res.writeHead = () => res
    res.write = () => true
    res.end = () => res
  })
}

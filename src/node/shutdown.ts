/**
 * @module node/shutdown
 * Graceful stop of the Node server on SIGTERM/SIGINT: stop listening, let every request in flight
 * finish within a bound, then exit 0. Answers written from then on say `Connection: close`; a
 * keep-alive connection is closed as soon as it is idle, and a connection that has not sent its first
 * request yet gets `firstRequestMs` to do so (http.Server#close would cut it at once, which loses a
 * request a client has already sent). After the bound the remaining connections are cut: exit 1.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'

export interface DrainOptions {
  graceMs: number
  /** How long a connection that has not sent a request yet may take to send one (default 3 s). */
  firstRequestMs?: number
  /** One line per event (stderr by default). */
  say?: (line: string) => void
  exit?: (code: number) => void
  signals?: readonly NodeJS.Signals[]
}

interface Connection {
  open: Set<ServerResponse>
  served: number
}

/** Closes `server` gracefully on the first of `signals`; resolves with the exit code it used. */
export function drainOnSignals(server: Server, options: DrainOptions): Promise<number> {
  const say = options.say ?? ((line: string) => console.error(line))
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
      for (const s of signals) process.off(s, onSignal)
      resolve(code)
      exit(code)
    }
    const onSignal = (signal: NodeJS.Signals) => {
      if (drainingSince !== undefined) return
      drainingSince = Date.now()
      say(`v2bridge: ${signal}, finishing requests in flight (at most ${options.graceMs} ms)`)
      for (const c of connections.values())
        for (const res of c.open) if (!res.headersSent) res.setHeader('Connection', 'close')
      const sweeper = setInterval(sweep, 25)
      const cut = setTimeout(() => {
        say(`v2bridge: grace period over, cutting ${connections.size} connection(s)`)
        for (const socket of connections.keys()) socket.destroy()
        clearInterval(sweeper)
        finish(1)
      }, options.graceMs)
      // net.Server#close: stop listening, called back once every connection has ended.
      NetServer.prototype.close.call(server, () => {
        clearInterval(sweeper)
        clearTimeout(cut)
        say('v2bridge: stopped')
        finish(0)
      })
    }
    for (const s of signals) process.on(s, onSignal)
  })
}

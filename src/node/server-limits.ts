/**
 * @module node/server-limits
 * The Node server's own limits against slow and broken clients (Node docs "HTTP": `headersTimeout`,
 * `requestTimeout`, `keepAliveTimeout`, `maxConnections`), and v2-shaped answers to what Node refuses
 * before v2bridge sees a request: 400 (unparsable), 408 (too slow), 431 (headers too large).
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { NodeSettings } from './config'

export const clientErrorTitles = {
  400: 'Bad request', // RFC 9110 §15.5.1 reason phrase
  408: 'Request timeout', // RFC 9110 §15.5.9
  431: 'Request header fields too large', // RFC 6585 §5
} as const

/** Node's error code → status of the answer. */
export function clientErrorStatus(code: string | undefined): keyof typeof clientErrorTitles {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408
  if (code === 'HPE_HEADER_OVERFLOW') return 431
  return 400
}

/** How often Node checks the two request timeouts (its default, 30 s, would let them run long). */
export const checkIntervalMs = 1000

export function applyServerLimits(server: Server, limits: NodeSettings['server']): void {
  server.headersTimeout = limits.headersTimeoutMs
  server.requestTimeout = limits.requestTimeoutMs
  server.keepAliveTimeout = limits.keepAliveTimeoutMs
  server.maxConnections = limits.maxConnections
  server.on('clientError', answerClientError)
}

type Listener = (req: IncomingMessage, res: ServerResponse) => unknown

/** RFC 9112 §3.2: an HTTP/1.1 request without Host is answered 400 — here in v2 shape, where Node's
 * own check (`requireHostHeader`, switched off in src/node.ts) sends an empty body. */
export function requireHost(listener: Listener): Listener {
  return (req, res) => {
    if (req.headers.host !== undefined || req.httpVersion !== '1.1') return listener(req, res)
    const body = JSON.stringify({ error: { title: clientErrorTitles[400] } })
    res.writeHead(400, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    })
    res.end(body)
  }
}

function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own handler: nothing to say to a gone client or over an answer already started.
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (err.code === 'ECONNRESET' || !socket.writable || started?.headersSent) {
    socket.destroy()
    return
  }
  const status = clientErrorStatus(err.code)
  const body = JSON.stringify({ error: { title: clientErrorTitles[status] } })
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  )
}

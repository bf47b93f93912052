/**
 * @module core/request-log
 * One structured line per request: ISO time, level, request id, method, route template, path,
 * status, upstream requests, upstream milliseconds, total milliseconds. The path is logged without
 * its query string (filter values, names and dates could carry anything); the key is never logged,
 * and is scrubbed from any error text. The line's format lives here only.
 */
import { legacyKeyPatterns } from '../../mappings/legacy-keys'

export const logLevels = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogLevel = (typeof logLevels)[number]

export type RequestLogLine = {
  /** ISO 8601, UTC, when the answer was ready. */
  time: string
  /** `error` for 5xx answers, `info` otherwise. */
  level: 'info' | 'error'
  /** The caller's `X-Request-Id` when it is a safe token, else generated; echoed in the answer. */
  requestId: string
  method: string
  /** The route template (`/v2/applications/{id}`), `unmatched` when no route matched. */
  route: string
  path: string
  status: number
  upstreamRequests: number
  upstreamMs: number
  totalMs: number
  /** The key's fingerprint as the migration report shows it (12 hex of its SHA-256), never the key. */
  key?: string
  /** The v2 operation row (`GET /v2/applications/{id}`), and how v2bridge answers it. */
  operation?: string
  answer?: string
  /** The one account the call acted for, when it needed one (src/entities/accounts.ts). */
  account?: number
  /** The v2 error title of a 4xx or 5xx answer. */
  reason?: string
  /** A write: an audit line (who: `key`, what: `operation`, which entity: `path`, result: `status`). */
  audit?: true
  /** Unexpected errors only (answered with a generic 500): the error's name and redacted message. */
  error?: string
  /** A comparison line of compare mode (src/compare/): the paths that differ beyond noise; never
   * their values. */
  differs?: string[]
}

export type RequestLog = (line: RequestLogLine) => void

/** The fields every request line carries, in the line's key order. */
export function requestLine(
  fields: Omit<RequestLogLine, 'time' | 'level'>,
  now = new Date()
): RequestLogLine {
  const { requestId, method, route, ...rest } = fields
  return {
    time: now.toISOString(),
    level: fields.status >= 500 ? 'error' : 'info',
    requestId,
    method,
    route,
    ...rest,
  }
}

/** Whether a line of `level` passes the `LOG_LEVEL` threshold. */
export function passes(threshold: LogLevel, level: RequestLogLine['level']): boolean {
  return logLevels.indexOf(level) >= logLevels.indexOf(threshold)
}

/** A request id a caller may choose: a short token that cannot break a log line or a header. */
const safeRequestId = /^[A-Za-z0-9._:+/=-]{1,128}$/

/** An id that could be a key (a user key `NRAK-…`, or a legacy key's shape) is never echoed: a
 * client that put its key there by mistake must not see it in answers and logs (issue 22, item 13). */
const keyLike = (id: string) =>
  /^NRAK-/i.test(id) || Object.values(legacyKeyPatterns).some((pattern) => pattern.test(id))

export function requestIdFrom(header: string | undefined): string {
  return header && safeRequestId.test(header) && !keyLike(header) ? header : crypto.randomUUID()
}

/** The default sink of the Node and Worker entries: JSON lines on stdout. */
export const consoleLog: RequestLog = (line) => console.log(JSON.stringify(line))

const maxPath = 200

/** The path as logged: no query, at most 200 characters. */
export function logPath(url: string | URL): string {
  const path = (typeof url === 'string' ? new URL(url) : url).pathname
  return path.length > maxPath ? `${path.slice(0, maxPath)}…` : path
}

/** At most 16 characters of the method (a fuzzer may send anything). */
export function logMethod(method: string): string {
  return method.slice(0, 16)
}

/** `Name: message` of an unexpected error with every occurrence of `secret` replaced. */
export function describeFailure(err: unknown, secret: string | undefined): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : `thrown: ${String(err)}`
  return redact(text, secret).slice(0, 500)
}

export function redact(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('[redacted]') : text
}

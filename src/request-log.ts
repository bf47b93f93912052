/**
 * @module request-log
 * One structured line per request: method, path, status, upstream requests, upstream milliseconds,
 * total milliseconds. The path is logged without its query string (filter values, names and dates
 * could carry anything); the key is never logged, and is scrubbed from any error text.
 */

export type RequestLogLine = {
  method: string
  path: string
  status: number
  upstreamRequests: number
  upstreamMs: number
  totalMs: number
  /** Unexpected errors only (answered with a generic 500): the error's name and redacted message. */
  error?: string
}

export type RequestLog = (line: RequestLogLine) => void

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

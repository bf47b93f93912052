/**
 * @module node/transport
 * The Node entry's way upstream, to NerdGraph and (forwarded and compared calls) to v2: each call over
 * node:http(s) on kept-alive connections, answered with the Response members graphql-request and
 * src/http/forward.ts read (`status`, `ok`, `headers.get`, `text`, `arrayBuffer`: graphql-request's
 * build/legacy/helpers/runRequest.js). Node's global fetch (undici) spends about 0.2 ms of CPU on a
 * small call in web streams, a clone of every request and header objects (`npm run bench:overhead`),
 * as much as the rest of a small metric-data call. Only src/node.ts imports this module, so the
 * Worker keeps the platform's fetch. Like fetch, it asks for compressed answers and decodes them, and
 * follows no redirect (forward.ts asks for `redirect: 'manual'`).
 */
import { isAscii } from 'node:buffer'
import http from 'node:http'
import https from 'node:https'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'

/** Content codings a NerdGraph answer may come in (RFC 9110 §8.4.1), with their decoders. */
const decoders: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
}
const acceptEncoding = 'gzip, deflate, br'

/** The answer's headers, read as `Headers.get` reads them (names case-insensitive, lists joined). */
class AnswerHeaders {
  constructor(private readonly raw: http.IncomingHttpHeaders) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()]
    if (value === undefined) return null
    return Array.isArray(value) ? value.join(', ') : value
  }
}

class Answer {
  readonly ok: boolean
  readonly headers: AnswerHeaders
  constructor(
    readonly status: number,
    headers: http.IncomingHttpHeaders,
    private bytes: Buffer | undefined
  ) {
    this.ok = status >= 200 && status <= 299
    this.headers = new AnswerHeaders(headers)
  }
  text(): Promise<string> {
    // NerdGraph's JSON is mostly ASCII, which decodes as Latin-1 at a third of UTF-8's cost.
    return this.read((b) => (isAscii(b) ? b.toString('latin1') : b.toString()))
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.read((b) =>
      b.byteOffset === 0 && b.length === b.buffer.byteLength
        ? (b.buffer as ArrayBuffer)
        : (b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer)
    )
  }
  /** The body, once, as a fetch body is read once ("Body is unusable" after). The answer lets go of
   * it: the upstream response object still holds this answer while the call is reshaped and written
   * (issue 27), and the bytes are not needed once read. */
  private read<T>(as: (bytes: Buffer) => T): Promise<T> {
    const bytes = this.bytes
    if (bytes === undefined) return Promise.reject(new TypeError('Body is unusable'))
    this.bytes = undefined
    return Promise.resolve(as(bytes))
  }
}

/**
 * A fetch for upstream calls: string, byte or no bodies over node:http(s) with one keep-alive pool per
 * transport; anything else (a `Request` object, a streamed body) goes to the global fetch. A
 * connection idle for `idleMs` is closed, as undici's `keepAliveTimeout` (4 s) does, so a call
 * rarely meets one the server is closing; Node's agent shortens it further to a server's
 * `Keep-Alive: timeout` hint (Node docs, http.Agent).
 */
export function nodeTransport(
  fallback: typeof fetch = globalThis.fetch,
  idleMs = 4000
): typeof fetch {
  const settings = { keepAlive: true, scheduling: 'lifo', timeout: idleMs } as const
  const agents = { 'http:': new http.Agent(settings), 'https:': new https.Agent(settings) }
  const send = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const body = init.body ?? ''
    if (input instanceof Request || (typeof body !== 'string' && !(body instanceof Uint8Array))) {
      return fallback(input, init)
    }
    const endpoint = input instanceof URL ? input : new URL(input)
    const agent = endpoint.protocol === 'https:' ? agents['https:'] : agents['http:']
    const signal = init.signal ?? undefined
    if (signal?.aborted) return Promise.reject(signal.reason)
    const headers = headersOf(init.headers)
    headers['accept-encoding'] ??= acceptEncoding
    const method = init.method ?? 'GET'
    // A GET or HEAD without a body goes without a length, as fetch sends it (RFC 9110 §8.6).
    if (body.length > 0 || (method !== 'GET' && method !== 'HEAD'))
      headers['content-length'] = String(
        typeof body === 'string' ? Buffer.byteLength(body) : body.length
      )
    return new Promise((settle, settleFailed) => {
      // Not http.request's `signal` option, which also watches the request stream's end
      // (lib/internal/streams/add-abort-signal.js in nodejs/node): more work for the same effect.
      const abort = () => request.destroy(signal!.reason)
      signal?.addEventListener('abort', abort, { once: true })
      const resolve = (answer: Answer) => {
        signal?.removeEventListener('abort', abort)
        settle(answer as unknown as Response) // the members graphql-request reads, see above
      }
      // As fetch does: an aborted call rejects with the signal's reason.
      const reject = (err: unknown) => {
        signal?.removeEventListener('abort', abort)
        settleFailed(signal?.aborted ? signal.reason : err)
      }
      const request = (endpoint.protocol === 'https:' ? https : http).request(
        endpoint,
        { method, headers, agent },
        (res) => {
          const decoder = decoders[(res.headers['content-encoding'] ?? '').trim().toLowerCase()]
          const stream: Readable = decoder ? (res.pipe(decoder()) as unknown as Readable) : res
          let chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.once('error', reject)
          res.once('error', reject)
          res.once('close', () => res.complete || reject(new Error('answer cut off')))
          stream.once('end', () => {
            const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
            // The listener above stays on the response, which lives on while the call is reshaped
            // and written: it must not keep the chunks (issue 27).
            chunks = []
            resolve(new Answer(res.statusCode ?? 0, res.headers, bytes))
          })
        }
      )
      request.once('error', reject)
      request.end(body)
    })
  }
  return send as typeof fetch
}

/** Request headers as node:http takes them: lower-case names. */
function headersOf(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!init) return out
  if (init instanceof Headers) init.forEach((value, name) => (out[name] = value))
  else if (Array.isArray(init)) for (const [name, value] of init) out[name!.toLowerCase()] = value!
  else for (const [name, value] of Object.entries(init)) out[name.toLowerCase()] = value
  return out
}

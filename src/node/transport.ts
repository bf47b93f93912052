/**
 * @module node/transport
 * The Node entry's way upstream, to NerdGraph and (forwarded and compared calls) to v2: each call over
 * node:http(s) on kept-alive connections, answered with the Response members the GraphQL client
 * (src/upstream/worker-graphql-request.ts) and src/http/forward.ts read (`status`, `ok`,
 * `headers.get`, `text`, `arrayBuffer`, `json`). Node's global fetch (undici) spends about 0.2 ms of
 * CPU on a small call in web streams, a clone of every request and header objects (`npm run bench:overhead`),
 * as much as the rest of a small metric-data call. Only src/node.ts imports this module, so the
 * Worker keeps the platform's fetch. Like fetch, it asks for compressed answers and decodes them, and
 * follows no redirect (forward.ts asks for `redirect: 'manual'`).
 */
import { isAscii } from 'node:buffer'
import http from 'node:http'
import https from 'node:https'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { JsonReader } from './json-reader'
import { initFor, takesAbort } from '../upstream/abort'
import {
  AnswerTooLarge,
  boundedRead,
  declaredTooLarge,
  type BoundedAnswer,
  type ReadAs,
} from '../upstream/answer-body'

/** Decoded bytes per chunk a decoder hands on: a socket read's 64 KiB, not zlib's default 16 KiB,
 * so a large answer (or a bomb, read to the byte limit) takes a quarter of the callbacks (Node docs,
 * zlib "Class: Options", `chunkSize`). Not more: every decoder allocates one chunk as it starts, so
 * 256 KiB chunks, which halved a 32 MiB bomb's CPU (34-42 ms to 16-17 ms), cost a 6 KB answer 10-17 %
 * more CPU and 4.5 times the garbage collections (40,000 decodes: 400 against 89; issue 40). */
const decoded = { chunkSize: 64 * 1024 }

/** Content codings a NerdGraph answer may come in (RFC 9110 §8.4.1), with their decoders. */
const decoders: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: () => createGunzip(decoded),
  'x-gzip': () => createGunzip(decoded),
  deflate: () => createInflate(decoded),
  br: () => createBrotliDecompress(decoded),
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

/** UTF-8 text. NerdGraph's JSON is mostly ASCII, which decodes as Latin-1 at a third of the cost. */
const textOf = (bytes: Buffer) => (isAscii(bytes) ? bytes.toString('latin1') : bytes.toString())

/** What {@link pacedChunks} rejects with when the body closed before its end. */
export class CutOff extends Error {
  constructor() {
    super('answer cut off')
  }
}

/**
 * Hands `body`'s chunks to `take` as they come; past its first `from` bytes, at most `perTurn` bytes
 * in one turn of the event loop: the body then pauses until the next turn, so a fast sender never
 * holds other callers' requests (issue 40: libuv reads a socket up to 32 times, 2 MiB, per event,
 * and a hostile v2 sending 50 MB at loopback speed held every request for that long, turn after
 * turn). Most answers are smaller than `from` (the demo key's 200 applications with their
 * summaries: about 400 KB), a socket event or two, and are read as they come.
 * Settles at the body's end; rejects with what `take` throws, or with a {@link CutOff} if the body
 * closes before its end (destroyed while paused, by an abort or a cancel: it would never end).
 */
export function pacedChunks(
  body: Readable,
  take: (chunk: Buffer) => void,
  { perTurn = 256 * 1024, from = 512 * 1024 } = {}
): Promise<void> {
  return new Promise((resolve, reject) => {
    let total = 0
    let read = 0
    let ended = false
    let stopped = false
    const onData = (chunk: Buffer) => {
      try {
        take(chunk)
      } catch (err) {
        stopped = true // nothing more is handed on
        body.off('data', onData).pause()
        return reject(err)
      }
      if ((total += chunk.length) <= from || (read += chunk.length) < perTurn) return
      read = 0
      body.pause()
      setImmediate(() => stopped || body.destroyed || body.resume())
    }
    body.on('data', onData)
    body.once('end', () => {
      ended = true
      resolve()
    })
    body.once('close', () => ended || reject(new CutOff()))
  })
}

/** Bodies at least this large are parsed as they arrive (src/node/json-reader.ts). */
const readFrom = 64 * 1024

/** What the transport tells an answer's body reader, and what the reader tells it back. */
interface BodyControl {
  /** The error the call failed with, if it failed (aborted, cut off, a socket error). */
  failed(): { error: unknown } | undefined
  /** `reject` is called if the call fails while its body is read. */
  watch(reject: (err: unknown) => void): void
  /** Ends the call (the body could not be read as asked): its connection is not used again, and
   * nothing more of the body is read or decoded. */
  cancel(): void
  /** The body was read through. */
  done(): void
}

/**
 * An answer, given as soon as its head is in, as fetch gives a `Response`; its body is read once, as
 * a fetch body is, by `text`, `arrayBuffer` or `json`. `json` parses the chunks as they arrive
 * (src/node/json-reader.ts): the largest NerdGraph answer is never held whole (issue 27).
 * src/upstream/answer-body.ts `readAnswer` reads it within a byte limit (`boundedRead`).
 */
class Answer implements BoundedAnswer {
  readonly ok: boolean
  readonly headers: AnswerHeaders
  private used = false
  constructor(
    readonly status: number,
    headers: http.IncomingHttpHeaders,
    private readonly body: Readable,
    private readonly control: BodyControl
  ) {
    this.ok = status >= 200 && status <= 299
    this.headers = new AnswerHeaders(headers)
  }
  text(): Promise<string> {
    return this.bytes().then(textOf)
  }
  /** The body read as `as` says, failing with `AnswerTooLarge` once more than `maxBytes` decoded
   * bytes arrive: the call is then ended, so no more is read or inflated. */
  [boundedRead](as: ReadAs, maxBytes: number): Promise<unknown> {
    if (declaredTooLarge(this.headers, maxBytes)) {
      this.used = true
      this.control.cancel()
      return Promise.reject(new AnswerTooLarge(maxBytes))
    }
    if (as === 'json') return this.json(maxBytes)
    const bytes = this.bytes(maxBytes)
    return as === 'text' ? bytes.then(textOf) : bytes
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.bytes().then((b) =>
      b.byteOffset === 0 && b.length === b.buffer.byteLength
        ? (b.buffer as ArrayBuffer)
        : (b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer)
    )
  }
  /** `JSON.parse` of the body's text. A body past `readFrom` bytes is parsed chunk by chunk as it
   * arrives; a smaller one, most answers, at once. */
  json(maxBytes = Infinity): Promise<unknown> {
    let chunks: Buffer[] = []
    let size = 0
    let reader: JsonReader | undefined
    const take = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) throw new AnswerTooLarge(maxBytes)
      if (reader) return reader.push(chunk)
      chunks.push(chunk)
      if (size < readFrom) return
      reader = new JsonReader()
      for (const early of chunks) reader.push(early)
      chunks = []
    }
    return this.consume(take).then(() =>
      reader
        ? reader.end()
        : JSON.parse(textOf(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)))
    )
  }
  private bytes(maxBytes = Infinity): Promise<Buffer> {
    const chunks: Buffer[] = []
    let size = 0
    const take = (chunk: Buffer) => {
      if ((size += chunk.length) > maxBytes) throw new AnswerTooLarge(maxBytes)
      chunks.push(chunk)
    }
    return this.consume(take).then(() => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)))
  }
  /** Hands every chunk to `take`, paced ({@link pacedChunks}); settles at the body's end, or fails
   * as the call or `take` does. */
  private consume(take: (chunk: Buffer) => unknown): Promise<void> {
    if (this.used) return Promise.reject(new TypeError('Body is unusable'))
    this.used = true
    const { body, control } = this
    return new Promise<void>((resolve, reject) => {
      const failed = control.failed()
      if (failed) return reject(failed.error)
      control.watch(reject)
      pacedChunks(body, take).then(
        () => {
          control.done() // a failure is done when it happens (the transport's `fail`)
          const failed = control.failed()
          if (failed) reject(failed.error)
          else resolve()
        },
        (err: unknown) => {
          // Cut off: the call's own failure (an abort's reason) says why, if it is known yet.
          reject(err instanceof CutOff ? (control.failed()?.error ?? err) : err)
          control.cancel()
        }
      )
    })
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
  let last: { input: string; url?: URL } = { input: '' }
  const send = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const body = init.body ?? ''
    if (input instanceof Request || (typeof body !== 'string' && !(body instanceof Uint8Array))) {
      return fallback(input, initFor(fallback, init))
    }
    // NerdGraph's URL is the same on every call: parsed once, not per call.
    if (typeof input === 'string' && input !== last.input) last = { input, url: new URL(input) }
    const endpoint = input instanceof URL ? input : last.url!
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
      const done = () => signal?.removeEventListener('abort', abort)
      let headIn = false
      let failure: { error: unknown } | undefined
      let watcher: ((err: unknown) => void) | undefined
      // As fetch does: an aborted call rejects with the signal's reason.
      const reject = (err: unknown) => {
        done()
        settleFailed(signal?.aborted ? signal.reason : err)
      }
      /** The call failed after its head came in: the body's reader, if any, hears it. */
      const fail = (err: unknown) => {
        if (failure) return
        failure = { error: signal?.aborted ? signal.reason : err }
        watcher?.(failure.error)
        done()
      }
      const request = (endpoint.protocol === 'https:' ? https : http).request(
        endpoint,
        { method, headers, agent },
        (res) => {
          headIn = true
          const decoder = decoders[(res.headers['content-encoding'] ?? '').trim().toLowerCase()]
          const stream: Readable = decoder ? (res.pipe(decoder()) as unknown as Readable) : res
          stream.once('error', fail)
          res.once('error', fail)
          res.once('close', () => res.complete || fail(new CutOff()))
          const answer = new Answer(res.statusCode ?? 0, res.headers, stream, {
            failed: () => failure,
            watch: (reject) => (watcher = reject),
            cancel: () => {
              request.destroy()
              if (stream !== res) stream.destroy() // the decoder: no more inflating
            },
            done,
          })
          // As fetch does: the answer is given at its head; the abort signal still holds while
          // its body is read.
          settle(answer as unknown as Response) // the members read, see above
        }
      )
      request.on('error', (err) => (headIn ? fail(err) : reject(err)))
      request.end(body)
    })
  }
  // `init.signal` is read only for `aborted`, `reason` and its `abort` listener: an Abort will do.
  return Object.assign(send, { [takesAbort]: true }) as typeof fetch
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

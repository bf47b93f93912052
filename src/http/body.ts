/**
 * @module http/body
 * Request bodies, read as a stream with a byte cap: 413 as soon as the cap is passed and the rest is
 * never read (a chunked upload has no Content-Length to check first). A body that stops because the
 * client went away is a `ClientAbort`, not a server error.
 */
import { V2Error, titles } from '../core/errors'

export const bodyLimits = {
  /** Parameters of a read (GET, HEAD, POST-as-read): a few KiB at most in every v2 client. */
  read: 64 * 1024,
  /** A write without a limit of its own (an application's settings, a browser or mobile app, an
   * incident acknowledgement): a few hundred bytes in v2's explorer models. */
  write: 16 * 1024,
  /** A write forwarded to v2 (a policy or condition): v2's models hold a few KiB of fields. */
  forwarded: 64 * 1024,
} as const

/** The body cap of an operation row (mappings/operations.ts `maxBodyKiB`): a deployment carries up
 * to 1 MiB, since v2 caps `changelog` and `description` at 65,535 characters each (New Relic docs
 * "Track changes using NerdGraph", v2 deployment fields) and even escaped as `\uXXXX` (6 bytes a
 * character) a maximal deployment is under 800 KiB. A POST that reads a list reads as a GET. */
export function bodyLimitOf(
  row: { method: string; maxBodyKiB?: number; postReads?: true; answer?: string },
  method: string
): number {
  if (row.maxBodyKiB !== undefined) return row.maxBodyKiB * 1024
  if (method === 'GET' || method === 'HEAD' || row.method === 'GET') return bodyLimits.read
  return row.answer === 'forwarded' ? bodyLimits.forwarded : bodyLimits.write
}

/** The client closed the connection before its body arrived (logged as an abort, src/app.ts). */
export class ClientAbort extends Error {
  override name = 'ClientAbort'
}

/** A body v2bridge can read is sent as it is: `Content-Encoding` other than `identity` is 415
 * (RFC 9110 §15.5.16), never read as text. */
export function checkEncoding(headers: Headers): void {
  const encoding = headers.get('content-encoding')?.trim().toLowerCase()
  if (encoding && encoding !== 'identity')
    throw new V2Error(415, 'Unsupported Content-Encoding: send the body without compression')
}

/**
 * The body of a GET (or HEAD) `req`: curl `-X GET -d …` sends a form body on GET, the command
 * template of New Relic's v2 docs (D-intro: `curl -X GET URL -H "Api-Key:$API_KEY" -d 'PAYLOAD'`).
 * The Worker's request carries it; on Node, fetch's `Request` drops it and the entry hands it over
 * as `getBody` (src/node.ts). Both entries read the same parameters from it (issue 40, item 5).
 * On Node `getBody` alone answers, null when there is no body: `req.body` there would build fetch's
 * whole `Request` (undici) from the incoming message for nothing, on every call (issue 39).
 */
export function getBodyOf(
  req: Request,
  getBody?: () => ReadableStream<Uint8Array> | null
): ReadableStream<Uint8Array> | null {
  return getBody ? getBody() : req.body
}

/** Reads `stream` as UTF-8 text of at most `limit` bytes; 413 once more arrives. */
export async function readCapped(
  stream: ReadableStream<Uint8Array> | null | undefined,
  limit: number,
  declaredLength?: string | null
): Promise<string> {
  if (!stream) return ''
  if (declaredLength && Number(declaredLength) > limit) {
    void stream.cancel().catch(() => {})
    throw new V2Error(413, titles.bodyTooLarge)
  }
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let size = 0
  let text = ''
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>
    try {
      chunk = await reader.read()
    } catch (err) {
      throw new ClientAbort('the client closed the connection while sending its body', {
        cause: err,
      })
    }
    if (chunk.done) return text + decoder.decode()
    size += chunk.value.byteLength
    if (size > limit) {
      void reader.cancel().catch(() => {})
      throw new V2Error(413, titles.bodyTooLarge)
    }
    text += decoder.decode(chunk.value, { stream: true })
  }
}

/** Deepest JSON nesting a v2 parameter body needs is 3 (`{"filter":{"ids":[1]}}`); 32 is ample. */
export const maxJsonDepth = 32

/**
 * Nesting depth and value separators (commas outside strings) of JSON text, in one pass without
 * parsing, stopping once the depth passes `maxDepth` or the commas pass `maxCommas`. A JSON text
 * holds at most commas + 1 values per level, so a body with too many parameters is refused before
 * `JSON.parse` builds them.
 */
export function jsonShape(
  text: string,
  maxDepth = maxJsonDepth,
  maxCommas = Infinity
): { depth: number; commas: number } {
  let depth = 0
  let deepest = 0
  let commas = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 0x5c)
        i++ // backslash: skip the escaped character
      else if (ch === 0x22) inString = false
    } else if (ch === 0x22) inString = true
    else if (ch === 0x2c) {
      if (++commas > maxCommas) break
    } else if (ch === 0x7b || ch === 0x5b) {
      depth++
      if (depth > deepest && (deepest = depth) > maxDepth) break
    } else if (ch === 0x7d || ch === 0x5d) depth--
  }
  return { depth: deepest, commas }
}

/** Non-empty `&`-separated parts of a form body: an upper bound of the pairs URLSearchParams
 * reads, counted without decoding, stopping past `max`. */
export function formParts(text: string, max = Infinity): number {
  let parts = 0
  let empty = true
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 0x26) {
      if (!empty && ++parts > max) return parts
      empty = true
    } else empty = false
  }
  return empty ? parts : parts + 1
}

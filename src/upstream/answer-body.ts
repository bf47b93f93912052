/**
 * @module upstream/answer-body
 * The one reader of every upstream answer's body: NerdGraph's (src/upstream/worker-graphql-request.ts),
 * v2's forwarded and compared answers (src/http/forward.ts) and the command line's
 * (src/cli/key-transport.ts). It reads at most `UPSTREAM_MAX_BYTES` of the body as decoded (after
 * gzip, deflate or br) and stops there: past it the rest is never read or inflated and the call
 * fails with {@link AnswerTooLarge}, which the callers answer as v2's 502 at once (issue 40, item 2:
 * a 10 GiB gzip bomb, a 200 MB string or a 50 MB v2 answer read whole took the process past 2 GB).
 */

export { defaultAnswerMaxBytes } from '../core/config'

/** An answer past the limit: nothing of it is used. */
export class AnswerTooLarge extends Error {
  override name = 'AnswerTooLarge'
  constructor(readonly limit: number) {
    super(`the answer is larger than ${limit} bytes`)
  }
}

/** How a body is read: parsed as JSON, as UTF-8 text, or as its bytes. */
export type ReadAs = 'json' | 'text' | 'bytes'

/** An answer whose body reads itself within a limit (the Node transport, src/node/transport.ts,
 * which parses a large JSON answer as it arrives): {@link readAnswer} asks it directly. */
export const boundedRead = Symbol.for('v2bridge.boundedRead')
export interface BoundedAnswer {
  [boundedRead](as: ReadAs, maxBytes: number): Promise<unknown>
}

/** A body declared larger than `maxBytes` and sent as it is (no content coding, so the declared
 * length is the decoded one): refused before a byte is read. */
export function declaredTooLarge(headers: { get(name: string): string | null }, maxBytes: number) {
  const encoding = headers.get('content-encoding')?.trim().toLowerCase()
  if (encoding && encoding !== 'identity') return false
  return Number(headers.get('content-length') ?? 0) > maxBytes
}

/**
 * `res`'s body read to its end within `maxBytes` decoded bytes, as `as` says; rejects with
 * {@link AnswerTooLarge} as soon as more arrives, the rest cancelled.
 * @example const data = await readAnswer(res, 'json', config.upstreamMaxBytes)
 */
export function readAnswer(res: Response, as: 'json', maxBytes: number): Promise<unknown>
export function readAnswer(res: Response, as: 'text', maxBytes: number): Promise<string>
export function readAnswer(
  res: Response,
  as: 'bytes',
  maxBytes: number
): Promise<Uint8Array<ArrayBuffer>>
export async function readAnswer(res: Response, as: ReadAs, maxBytes: number): Promise<unknown> {
  if (boundedRead in res) return (res as unknown as BoundedAnswer)[boundedRead](as, maxBytes)
  if (declaredTooLarge(res.headers, maxBytes)) {
    void res.body?.cancel().catch(() => {})
    throw new AnswerTooLarge(maxBytes)
  }
  const bytes = await boundedBytes(res.body, maxBytes)
  if (as === 'bytes') return bytes
  const text = new TextDecoder().decode(bytes)
  return as === 'text' ? text : JSON.parse(text)
}

/** The stream's bytes, at most `maxBytes` of them; the stream is cancelled past it. */
async function boundedBytes(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number
): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array(0)
  const reader = body.getReader()
  const chunks: Uint8Array<ArrayBuffer>[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      void reader.cancel().catch(() => {})
      throw new AnswerTooLarge(maxBytes)
    }
    chunks.push(value as Uint8Array<ArrayBuffer>)
  }
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}

/**
 * A fetch whose answers' bodies, read any way (`json`, `text`, `arrayBuffer`, the stream), fail
 * with {@link AnswerTooLarge} past `maxBytes` decoded bytes: for code that reads answers itself
 * (the command line's).
 */
export function boundedFetch(fetchImpl: typeof fetch, maxBytes: number): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await fetchImpl(input, init)
    if (!res.body) return res
    if (declaredTooLarge(res.headers, maxBytes)) {
      void res.body.cancel().catch(() => {})
      throw new AnswerTooLarge(maxBytes)
    }
    let size = 0
    const counted = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength
          if (size > maxBytes) controller.error(new AnswerTooLarge(maxBytes))
          else controller.enqueue(chunk)
        },
      })
    )
    return new Response(counted, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    })
  }) as typeof fetch
}

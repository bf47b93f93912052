/**
 * @module upstream/worker-graphql-request
 * What the Worker bundle gets for `import … from 'graphql-request'` (wrangler.toml `[alias]`): the
 * part v2bridge uses (`gql`, `GraphQLClient#rawRequest` with string documents, `ClientError`), with
 * graphql-request 7's observable behaviour (build/legacy/helpers/runRequest.js): one POST of
 * `{"query","variables"}` as JSON; a non-2xx answer throws `ClientError` carrying `status`, `headers`
 * and, when the body is a GraphQL result, its `errors`; a 2xx body that is not a GraphQL JSON result
 * throws; with `errorPolicy: 'all'` a 2xx result's `errors` come back beside `data`. Both entries send
 * through this client (src/upstream/nerdgraph.ts imports it): on Node it spares graphql-request's
 * per-request building; the package stays for `gql` on Node and as the reference
 * test/upstream/worker-graphql-request.test.ts holds this client to (same requests, same answers).
 * About 8 KiB of the Worker, minified, that the Worker's size budget (scripts/size.sh) needs.
 */

import type { AbortLike } from './abort'
import { readAnswer } from './answer-body'

/** A tagged template that returns the document as written (graphql-request's `gql`). */
export const gql = (chunks: TemplateStringsArray, ...values: unknown[]): string =>
  chunks.reduce(
    (out, chunk, i) => `${out}${chunk}${i < values.length ? String(values[i]) : ''}`,
    ''
  )

interface Answer {
  status: number
  headers: Headers
  /** The body's text; empty for a 2xx JSON answer, which is parsed as it is read. */
  body: string
  data?: unknown
  errors?: unknown
  extensions?: unknown
}

export class ClientError extends Error {
  constructor(
    readonly response: Answer,
    readonly request: { query: string; variables?: unknown }
  ) {
    super(
      (response.errors as { message?: string }[] | undefined)?.[0]?.message ??
        `GraphQL Error (Code: ${response.status})`
    )
    this.name = 'ClientError'
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const isJson = (contentType: string | null) => {
  const type = (contentType ?? '').toLowerCase()
  return type.includes('application/json') || type.includes('application/graphql-response+json')
}

/** At most this much of an answer that is not a 2xx JSON is read: GraphQL errors or a proxy's
 * page. Reading a hostile endless 500 to the full `maxBytes` cost tens of milliseconds of decoding
 * per call on the main thread (issue 40, `npm run bench:hostile`). */
export const otherMaxBytes = 1024 * 1024

/** The execution result of a body, or an Error when it is not one. */
function resultOf(body: string, contentType: string | null): Error | Record<string, unknown> {
  try {
    return checked(isJson(contentType) ? JSON.parse(body) : body)
  } catch (err) {
    return err as Error
  }
}

/** `value` if it is a GraphQL execution result; throws otherwise. */
function checked(value: unknown): Record<string, unknown> {
  if (!isObject(value)) throw new Error('Invalid execution result: result is not object')
  if ('errors' in value && !isObject(value['errors']) && !Array.isArray(value['errors']))
    throw new Error('Invalid execution result: errors is not plain object OR array')
  if ('data' in value && !isObject(value['data']) && value['data'] !== null)
    throw new Error('Invalid execution result: data is not plain object')
  if ('extensions' in value && !isObject(value['extensions']))
    throw new Error('Invalid execution result: extensions is not plain object')
  return value
}

export interface ClientOptions {
  fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>
  headers?: Record<string, string>
  errorPolicy?: 'none' | 'all'
  excludeOperationName?: boolean
  /** v2bridge's own addition: the answer's body is read within this many decoded bytes
   * (src/upstream/answer-body.ts); past it the call rejects with `AnswerTooLarge`. */
  maxBytes?: number
}

export class GraphQLClient {
  constructor(
    private readonly url: string,
    private readonly options: ClientOptions = {}
  ) {}

  async rawRequest<T>(
    request:
      | string
      | {
          query: string
          variables?: Record<string, unknown>
          requestHeaders?: Record<string, string>
          signal?: AbortLike
          /** The body already serialised, `JSON.stringify({ query, variables })`: v2bridge's own
           * addition, so the client that keys coalescing by it does not serialise it twice. */
          json?: string
        }
  ): Promise<Answer & { data: T }> {
    const { query, variables, requestHeaders, signal, json } =
      typeof request === 'string' ? { query: request } : request
    const init: RequestInit = {
      method: 'POST',
      headers: {
        ...this.options.headers,
        ...requestHeaders,
        Accept: 'application/graphql-response+json, application/json',
        'Content-Type': 'application/json',
      },
      body: json ?? JSON.stringify({ query, variables }),
    }
    // An Abort stays one until the fetch: src/upstream/nerdgraph.ts makes it real where needed.
    if (signal) init.signal = signal as AbortSignal
    const res = await (this.options.fetch ?? fetch)(this.url, init)
    const type = res.headers.get('content-type')
    // A JSON answer of a 2xx is parsed as its body is read (on Node, chunk by chunk:
    // src/node/transport.ts), never held as text; `body` is then empty. Any other is read as text.
    // Both within `maxBytes`, any other within `otherMaxBytes` (it is read for its errors or
    // status only): an answer past it rejects (AnswerTooLarge), whatever its status.
    const maxBytes = this.options.maxBytes ?? Infinity
    let body = ''
    let result: Error | Record<string, unknown>
    if (res.ok && isJson(type))
      result = await readAnswer(res, 'json', maxBytes).then(checked, (err: unknown) => err as Error)
    else {
      body = await readAnswer(res, 'text', Math.min(maxBytes, otherMaxBytes))
      result = resultOf(body, type)
    }
    const base = { status: res.status, headers: res.headers, body }
    if (!res.ok) {
      const answer = result instanceof Error ? base : { ...result, ...base }
      throw new ClientError(answer, { query, variables })
    }
    if (result instanceof Error) throw result
    const errors = result['errors']
    const hasErrors = Array.isArray(errors) ? errors.length > 0 : Boolean(errors)
    if (hasErrors && this.options.errorPolicy !== 'all')
      throw new ClientError({ ...result, ...base }, { query, variables })
    return {
      ...base,
      extensions: result['extensions'],
      data: result['data'] as T,
      errors: this.options.errorPolicy === 'all' ? errors : undefined,
    }
  }
}

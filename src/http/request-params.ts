/**
 * @module http/request-params
 * The request's v2 parameters (`params`): the query's, then the body's (form or JSON, also on GET:
 * src/http/params.ts, src/http/body.ts), up to the operation's body cap. A body larger than a read's
 * is read only for a key NerdGraph accepted, now or lately: a made-up key costs one key check, never
 * the reading of a large body. A POST on a read path reads as the GET it stands for (`withPostReads`).
 */
import type { MiddlewareHandler } from 'hono'
import type { VerifiedKeys } from '../core/identity'
import { checkKey } from '../upstream/key-check'
import { bodyLimitOf, bodyLimits, checkEncoding, getBodyOf, readCapped } from './body'
import type { Bindings, Env } from './env'
import type { Hono } from './hono'
import type { OperationRouter } from './operations'
import { V2Params, paramsFromBody } from './params'
import { pathWithoutFormat } from './render'
import { urlOf } from './request-url'

export function requestParams(verifiedKeys: VerifiedKeys): MiddlewareHandler<Env> {
  return async (c, next) => {
    const keyHash = c.get('keyHash')
    if (largeBody(c.req.raw) && !verifiedKeys.has(keyHash)) {
      await checkKey(c.get('nerdgraph'), { lookup: true })
      verifiedKeys.add(keyHash)
    }
    const params = new V2Params(urlOf(c.req.raw).searchParams)
    const limit = bodyLimitOf(c.get('operation'), c.req.method)
    for (const pair of await bodyParams(c.req.raw, c.env, limit)) params.add(...pair)
    c.set('params', params)
    return next()
  }
}

/** A body that may be larger than a read's: declared so, or sent without a length (chunked). */
function largeBody(req: Request): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false
  const length = req.headers.get('content-length')
  if (length !== null) return Number(length) > bodyLimits.read
  return req.headers.has('transfer-encoding')
}

/** The body of a POST read on as a GET (`withPostReads`), by the GET request that stands for it:
 * the bindings stay the same object, so nothing keyed by them (settings) is read again. */
const postedBodies = new WeakMap<Request, ReadableStream<Uint8Array> | null>()

/** A GET of v2bridge's own (a comparison's): never the caller's body stream. */
export function withoutBody(req: Request): Request {
  postedBodies.set(req, null)
  return req
}

/** Parameters carried in the body (src/http/params.ts): form or JSON, also on GET via the Node entry,
 * whose `getBody` hands over the socket's body (fetch's Request cannot carry one on GET). */
export async function bodyParams(
  req: Request,
  env: Bindings | undefined,
  limit: number
): Promise<[string, string][]> {
  const stream =
    req.method === 'GET' || req.method === 'HEAD'
      ? postedBodies.has(req)
        ? postedBodies.get(req)
        : getBodyOf(req, env?.getBody)
      : req.body
  if (stream) checkEncoding(req.headers)
  const text = await readCapped(stream, limit, req.headers.get('content-length'))
  return paramsFromBody(text, req.headers.get('content-type') ?? undefined)
}

/**
 * A POST on a served read path that has no create reads as the GET it stands for (hubot-newrelic2
 * sends every call as POST with a form body): it goes on as a GET whose body is read as a GET body
 * is. Rows marked `postReads` route POST themselves.
 */
export function withPostReads<A extends Hono<Env>>(app: A, operationOf: OperationRouter): A {
  const fetch = app.fetch
  app.fetch = (req, env, ctx) => {
    if (req.method !== 'POST' || !req.url.includes('/v2/')) return fetch(req, env, ctx)
    const { row } = operationOf('POST', pathWithoutFormat(urlOf(req).pathname))
    if (!row || row.method !== 'GET' || row.postReads) return fetch(req, env, ctx)
    const read = new Request(req.url, { method: 'GET', headers: req.headers, signal: req.signal })
    postedBodies.set(read, req.body)
    return fetch(read, env, ctx)
  }
  return app
}

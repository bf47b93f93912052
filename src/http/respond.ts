/**
 * @module http/respond
 * Turns a v2 body into a response in the caller's format, with v2's caching headers
 * (D-extract, D-deploy show `Cache-Control: max-age=0, private, must-revalidate`).
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Env } from './env'
import { renderers, type Format } from './render'

export function respond(
  c: Context<Env>,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
  status: ContentfulStatusCode = 200
): Response {
  return render(c.get('format') ?? 'json', body, status, {
    'Cache-Control': 'max-age=0, private, must-revalidate',
    ...headers,
  })
}

export function render(
  format: Format,
  body: Record<string, unknown>,
  status: number,
  headers: Record<string, string> = {}
): Response {
  const renderer = renderers[format]
  // Encoded once: the ETag digest (src/http/etag.ts) and the runtime's write share these bytes.
  return bytesResponse(renderer.bytes(body), {
    status,
    headers: { 'Content-Type': renderer.contentType, ...headers },
  })
}

const rendered = new WeakMap<Response, Uint8Array<ArrayBuffer>>()

/** A response of `bytes` whose body can be read again without reading it (`renderedBytes`). */
export function bytesResponse(bytes: Uint8Array<ArrayBuffer>, init: ResponseInit): Response {
  const response = new Response(bytes, init)
  rendered.set(response, bytes)
  return response
}

/** The body of a response of `render` or `bytesResponse`, without reading it: the ETag digest
 * (src/http/etag.ts) and compare mode (src/compare/calls.ts) read it so, since a `clone()` would tee
 * the body into streams that the runtime then reads in place of the bytes. */
export function renderedBytes(response: Response): Uint8Array<ArrayBuffer> | undefined {
  return rendered.get(response)
}

/** HEAD answers carry the Content-Length of the GET (RFC 9110 §9.3.2); Hono drops the body, and
 * with it the length, after this middleware has seen it. */
export const headContentLength: MiddlewareHandler<Env> = async (c, next) => {
  await next()
  if (c.req.method !== 'HEAD' || c.res.headers.has('content-length') || !c.res.body) return
  const length = (await c.res.clone().arrayBuffer()).byteLength
  c.res.headers.set('Content-Length', String(length))
}

/**
 * @module http/request-url
 * The parsed URL of a request, parsed once: routing, the `/v2` middleware, `Link` headers and the
 * request log all read the same `URL` (WHATWG URL parsing is a measurable share of a small call).
 */
const parsed = new WeakMap<Request, URL>()

export function urlOf(req: Request): URL {
  let url = parsed.get(req)
  if (!url) parsed.set(req, (url = new URL(req.url)))
  return url
}

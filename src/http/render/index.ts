/**
 * @module http/render
 * Output formats as a table chosen by the path suffix (D-intro: paths end in `.json` or `.xml`).
 */
import { renderJsonBytes } from './json'
import { renderXml, type V2Body } from './xml'

const encoder = new TextEncoder()

/** Each format's content type and the UTF-8 bytes an answer in it carries (src/http/respond.ts). */
export const renderers = {
  // As the real API sends them (docs "Extract metric timeslice data" and
  // "API overload protection" show `Content-Type: application/json`, no charset).
  json: { contentType: 'application/json', bytes: renderJsonBytes },
  xml: { contentType: 'application/xml', bytes: (body: V2Body) => encoder.encode(renderXml(body)) },
} as const

export type Format = keyof typeof renderers

/** `.json` / `.xml` at the end of the path; no suffix → from `Accept` (D-200 "200 Status with API
 * Explorer"). */
export function formatOf(pathname: string, accept: string | undefined): Format | undefined {
  const m = /\.([A-Za-z0-9]+)$/.exec(withoutTrailingSlash(pathname))
  if (m) {
    const ext = m[1]!.toLowerCase()
    return ext in renderers ? (ext as Format) : undefined
  }
  return accept && /\b(application|text)\/xml\b/i.test(accept) && !/application\/json/i.test(accept)
    ? 'xml'
    : 'json'
}

/** The path routes match on: the suffix removed once, so `/v2/applications.json` → `/v2/applications`. */
export function pathWithoutFormat(pathname: string): string {
  return withoutTrailingSlash(pathname).replace(/\.(json|xml)$/i, '')
}

/** Rails routing drops a trailing slash before it matches a route (`/v2/applications.json/` is
 * `/v2/applications.json`; ActionDispatch::Journey::Router::Utils.normalize_path). */
function withoutTrailingSlash(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/(?<=.)\/+$/, '') : pathname
}

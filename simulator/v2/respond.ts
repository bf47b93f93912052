/**
 * @module simulator/v2/respond — what every stand-in route shares: the Hono environment, answers
 * (JSON or XML by suffix, through `finish` of perturb.ts), v2 errors, parameters as clients send them
 * (query and form or JSON body; `x[]`, `x`, `x[0]`) and page-number paging with its `Link` header.
 */
import type { Context } from 'hono'
import { finish, type V2Switches } from './perturb'
import { v2Json, v2Xml } from './render'

export type Body = Record<string, unknown>
export type Env = { Variables: { accountId: number; switches: V2Switches } }

/** The path routes match on: a trailing slash dropped as Rails routing drops it
 * (ActionDispatch::Journey::Router::Utils.normalize_path), then the `.json`/`.xml` suffix. */
export const routePath = (pathname: string) =>
  pathname.replace(/(?<=.)\/+$/, '').replace(/\.(json|xml)$/, '')
export type C = Context<Env>

/** A v2 answer; a 2xx body goes through `finish` (the perturbation and noise switches) first. */
export function answer(c: C, body: Body, status = 200, headers: Record<string, string> = {}) {
  const xml = new URL(c.req.url).pathname.replace(/\/+$/, '').endsWith('.xml')
  const out = status < 300 ? finish(c, body) : body
  return new Response(xml ? v2Xml(out) : v2Json(out), {
    status,
    headers: { 'Content-Type': xml ? 'application/xml' : 'application/json', ...headers },
  })
}

/** `{"error":{"title"}}`; a 400 carries `Cache-Control: no-cache` as docs-website issue #7091 recorded. */
export const error = (c: C, status: number, title: string) =>
  answer(c, { error: { title } }, status, status === 400 ? { 'Cache-Control': 'no-cache' } : {})

/** Every parameter of the query and of a form or JSON body (POST-as-read, GET with a curl `-d`
 * body: New Relic docs' own examples), by base name: `names[]`, `names` and `names[0]` are `names`. */
export async function params(c: C): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>()
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null) return
    const name = key.replace(/\[\d*\]$/, '')
    const values = Array.isArray(value) ? value.map(String) : [String(value)]
    out.set(name, [...(out.get(name) ?? []), ...values])
  }
  for (const [k, v] of new URL(c.req.url).searchParams) add(k, v)
  const type = c.req.header('content-type') ?? ''
  try {
    const text = await c.req.raw.clone().text()
    if (text.trim() && type.includes('json'))
      for (const [k, v] of Object.entries(JSON.parse(text) as Body)) add(k, v)
    else if (text.trim()) for (const [k, v] of new URLSearchParams(text)) add(k, v)
  } catch {
    // an unreadable body adds nothing
  }
  return out
}

/** A scalar parameter: the last of repeated keys, as Rack (v2 is a Rails application) parses a
 * query (rack/rack test/spec_utils.rb: `parse_nested_query("foo=bar&foo=quux")` is
 * `{"foo" => "quux"}`). */
export const param = (p: Map<string, string[]>, name: string) => p.get(name)?.at(-1)?.trim()
/** Rails-style booleans: true, 1, yes. */
export const flag = (p: Map<string, string[]>, name: string) =>
  /^(true|1|yes)$/i.test(param(p, name) ?? '')
/** Ruby's `String#to_i`, as Rails code reads a number from a parameter: leading blanks, a sign and
 * digits; anything else is 0 (`'abc'` → 0, `'2x'` → 2). */
export const toI = (text: string) => {
  const m = /^\s*([+-]?\d+)/.exec(text)
  return m ? Number(m[1]) : 0
}
/** A list filter: comma-separated, repeated keys unioned (the ID filters read each with `toI`). */
export const listOf = (p: Map<string, string[]>, name: string) =>
  (p.get(name) ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)

/** An ID filter (`filter[ids]`, `filter[id]`): each ID read with `toI`, as Rails code reads one, so
 * `abc` asks for ID 0, which nothing has. Strings, to compare with `String(id)`. */
export const idsOf = (p: Map<string, string[]>, ...names: string[]) =>
  names.flatMap((n) => listOf(p, n)).map((v) => String(toI(v)))

/**
 * One page of `items` (page-number paging, 1-based; past the end an empty list, as Harness's client
 * relies on) and its `Link` header: `next`, `last`, then `first`, `prev` (New Relic docs "Pagination
 * for API output"; next first for Backstage's client), absolute, with every other parameter kept.
 */
export function page<T>(c: C, p: Map<string, string[]>, items: readonly T[], size: number) {
  // `page` read with `to_i`, at least 1: `abc`, `0` and `-1` are the first page (Rails paginators).
  const n = Math.min(Math.max(1, toI(param(p, 'page') ?? '1')), 999_999_999)
  const last = Math.max(1, Math.ceil(items.length / size))
  const url = new URL(c.req.url)
  const to = (k: number) => {
    url.searchParams.delete('cursor')
    url.searchParams.set('page', String(k))
    return `<${url.toString()}>`
  }
  const rels: string[] = []
  if (n < last) rels.push(`${to(n + 1)}; rel="next"`, `${to(last)}; rel="last"`)
  if (n > 1 && last > 1)
    rels.push(`${to(1)}; rel="first"`, `${to(Math.min(n - 1, last))}; rel="prev"`)
  return {
    items: items.slice((n - 1) * size, n * size),
    headers: rels.length > 0 ? { Link: rels.join(', ') } : ({} as Record<string, string>),
  }
}

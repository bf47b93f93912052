/**
 * @module report/routes
 * `GET /v2bridge/report.json`: the caller's own report, found by the fingerprint of the key it sends
 * (`X-Api-Key` or `Api-Key`), never another key's. `GET /v2bridge/report`: the page that shows it
 * (src/report/page.ts), a static page that asks for the key and reads the JSON, served with a policy
 * that forbids inline code, other origins and framing. `GET /v2bridge/report/org.json` (Node): every
 * key's report summed up, for an admin token (src/report/org.ts).
 */
import { Hono } from '../http/hono'
import type { Context } from 'hono'
import type { Env } from '../http/env'
import { titles } from '../core/errors'
import type { Fingerprint } from '../core/identity'
import type { ReadStatic } from '../http/static-files'
import type { StoreOf } from './record'
import type { ReportFileName } from './page'
import { reportBody } from './view'
import type { FieldTable } from '../explain/fields'

/** Makes the organisation view's routes (src/report/org.ts `orgReport`). */
export type OrgView = (storeOf: StoreOf) => Hono<Env>

const plausibleKey = /^[\x21-\x7e]{1,256}$/

/** The report pages' headers: a strict policy, no sniffing, no referrer (the org view's too). */
export const pageHeaders = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
}

const types: Record<ReportFileName, string> = {
  'report/page.html': 'text/html; charset=utf-8',
  'report/app.js': 'text/javascript; charset=utf-8',
  'report/app.css': 'text/css; charset=utf-8',
}

export function reportRoutes(
  storeOf: StoreOf,
  fingerprint: Fingerprint,
  fieldTable: (c: Context<Env>) => Promise<FieldTable>,
  read: ReadStatic,
  org?: OrgView
): Hono<Env> {
  const routes = new Hono<Env>()
  const serve = (name: ReportFileName) => async (c: Context<Env>) => {
    const text = await read(c, name)
    if (text === undefined) return c.notFound()
    return new Response(text, { headers: { 'Content-Type': types[name], ...pageHeaders } })
  }
  // `.json` is stripped by the app's routing (src/http/render/index.ts), so one route serves both.
  routes.get('/report', async (c) => {
    if (!new URL(c.req.url).pathname.endsWith('.json')) return serve('report/page.html')(c)
    const key = (c.req.header('x-api-key') ?? c.req.header('api-key'))?.trim()
    if (!key || !plausibleKey.test(key)) {
      const title = key ? titles.badKey : titles.noKey
      return c.json({ error: { title } }, 401)
    }
    const keyHash = await fingerprint(key)
    const store = storeOf(c)
    const verification = (await store.verification?.(keyHash)) ?? []
    const body = reportBody(keyHash, await store.read(keyHash), await fieldTable(c), verification)
    c.header('Cache-Control', 'no-store')
    return c.json(body)
  })
  // The organisation view, for REPORT_ADMIN_TOKEN only (src/report/org.ts); Node only.
  if (org) routes.route('/report/org', org(storeOf))
  routes.get('/report/app.js', serve('report/app.js'))
  routes.get('/report/app.css', serve('report/app.css'))
  return routes
}

/**
 * @module routes/explorer
 * The API explorer page at `/` and `/explorer`: its HTML, script, stylesheet and the catalog of every
 * v2 operation (mappings/operations.ts) with the parameters to offer. Same origin only; the policy
 * forbids inline code, other origins, framing and forms posting elsewhere.
 */
import { Hono, type Context } from 'hono'
import { operations } from '../../mappings/operations'
import type { Env } from '../env'
import { explorerBodies, explorerParams } from '../explorer/params'
import { explorerCss, explorerHtml } from '../explorer/page'
import { explorerScript } from '../explorer/script'

export const explorer = new Hono<Env>()

const securityHeaders = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
}

/** The catalog the page lists, built once. */
const catalog = JSON.stringify(
  operations.map((row) => ({
    method: row.method,
    path: row.path,
    resource: row.resource,
    summary: row.summary,
    answer: row.answer,
    nerdgraph: 'nerdgraph' in row ? row.nerdgraph : [],
    params: (row.method === 'GET' && explorerParams[row.path]) || [],
    body: explorerBodies[`${row.method} ${row.path}`] ?? null,
  }))
)

const page = (c: Context<Env>) =>
  new Response(explorerHtml(c.get('config').region), {
    headers: { 'Content-Type': 'text/html; charset=utf-8', ...securityHeaders },
  })

const asset = (body: string, type: string) => () =>
  new Response(body, { headers: { 'Content-Type': type, ...securityHeaders } })

explorer.get('/', page)
explorer.get('/explorer', page)
explorer.get('/explorer/app.js', asset(explorerScript, 'text/javascript; charset=utf-8'))
explorer.get('/explorer/app.css', asset(explorerCss, 'text/css; charset=utf-8'))
explorer.get('/explorer/catalog', asset(catalog, 'application/json; charset=utf-8'))

/**
 * @module report/routes
 * `GET /v2bridge/report.json` and `GET /v2bridge/report` (HTML): the caller's own report, found by
 * the fingerprint of the key it sends (`X-Api-Key` or `Api-Key`), never another key's.
 */
import { Hono } from '../http/hono'
import type { Context } from 'hono'
import type { Env } from '../http/env'
import { titles } from '../core/errors'
import type { Fingerprint } from '../core/identity'
import type { StoreOf } from './record'
import { reportHtml } from './html'
import { reportBody } from './view'
import type { FieldTable } from '../explain/fields'

const plausibleKey = /^[\x21-\x7e]{1,256}$/

export function reportRoutes(
  storeOf: StoreOf,
  fingerprint: Fingerprint,
  fieldTable: (c: Context<Env>) => Promise<FieldTable>
): Hono<Env> {
  const routes = new Hono<Env>()
  // `.json` is stripped by the app's routing (src/http/render/index.ts), so one route serves both.
  routes.get('/report', async (c) => {
    const json = new URL(c.req.url).pathname.endsWith('.json')
    const key = (c.req.header('x-api-key') ?? c.req.header('api-key'))?.trim()
    if (!key || !plausibleKey.test(key)) {
      const title = key ? titles.badKey : titles.noKey
      return c.json({ error: { title } }, 401)
    }
    const keyHash = await fingerprint(key)
    const body = reportBody(keyHash, await storeOf(c).read(keyHash), await fieldTable(c))
    c.header('Cache-Control', 'no-store')
    if (json) return c.json(body)
    // The page runs no script and is never framed (issue 22, item 13).
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
    )
    c.header('X-Content-Type-Options', 'nosniff')
    // The public origin (src/http/origin.ts): PUBLIC_URL or the trusted arrival, never a forged header.
    return c.html(reportHtml(body, c.get('origin')))
  })
  return routes
}

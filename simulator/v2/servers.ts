/**
 * @module simulator/v2/servers — Servers, the product New Relic retired on 15 May 2018
 * (paultyng/go-newrelic issue #1): the account has none, yet v2 applications still carry
 * `links.servers: []`. The list answers 200 `{"servers": []}` (in XML `<servers/>`), and every server
 * ID, for its show, rename (PUT), delete and metrics, is v2's 404 "No Server found with the given
 * ID" (v2 explorer servers errorResponses) [UNCONFIRMED: New Relic's live answer is unknown; this is
 * the proposal of the contract's servers section, which keeps pollers of `servers.json` running].
 */
import type { Hono } from 'hono'
import { answer, error, page, params, type Env } from './respond'

export const NO_SERVER = 'No Server found with the given ID'

/** Servers lists are paged as the other v2 lists (AMB users' reports: 200 servers a page). */
const PAGE = 200

export function serverRoutes(app: Hono<Env>): void {
  app.on(['GET', 'POST'], '/servers', async (c) => {
    const { items, headers } = page(c, await params(c), [], PAGE)
    return answer(c, { servers: items }, 200, headers)
  })
  app.on(['GET', 'PUT', 'DELETE'], '/servers/:id', (c) => error(c, 404, NO_SERVER))
  app.on(
    ['GET', 'POST'],
    ['/servers/:server_id/metrics', '/servers/:server_id/metrics/data'],
    (c) => error(c, 404, NO_SERVER)
  )
}

/**
 * @module resources/servers/routes
 * Servers (retired product, src/resources/servers/servers.ts): an empty list, and 404 for every server.
 */
import { Hono } from '../../http/hono'
import type { Env } from '../../http/env'
import { respond } from '../../http/respond'
import { listServers, unknownServer } from './servers'

export const servers = new Hono<Env>()

servers.on(['GET', 'POST'], '/servers', async (c) => respond(c, await listServers(c)))

servers.on(['GET', 'PUT', 'DELETE'], '/servers/:id', (c) => unknownServer(c))
servers.on(['GET', 'POST'], ['/servers/:id/metrics', '/servers/:id/metrics/data'], (c) =>
  unknownServer(c)
)

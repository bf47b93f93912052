/**
 * @module routes/servers
 * Servers (retired product, src/servers/servers.ts): an empty list, and 404 for every server.
 */
import { Hono } from '../hono'
import type { Env } from '../env'
import { respond } from '../respond'
import { listServers, unknownServer } from '../servers/servers'

export const servers = new Hono<Env>()

servers.on(['GET', 'POST'], '/servers', async (c) => respond(c, await listServers(c)))

servers.on(['GET', 'PUT', 'DELETE'], '/servers/:id', (c) => unknownServer(c))
servers.on(['GET', 'POST'], ['/servers/:id/metrics', '/servers/:id/metrics/data'], (c) =>
  unknownServer(c)
)

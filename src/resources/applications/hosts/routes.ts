/**
 * @module resources/applications/hosts/routes
 * Application hosts and instances; POST on list paths is a read (src/http/params.ts).
 */
import { Hono } from '../../../http/hono'
import type { Env } from '../../../http/env'
import { listHosts, listInstances, showHost, showInstance } from './list'
import { respond } from '../../../http/respond'

export const hosts = new Hono<Env>()

hosts.on(['GET', 'POST'], '/applications/:id/hosts', async (c) => {
  const { body, link } = await listHosts(c)
  return respond(c, body, link ? { Link: link } : {})
})

hosts.get('/applications/:id/hosts/:hostId{[0-9]+}', async (c) => respond(c, await showHost(c)))

hosts.on(['GET', 'POST'], '/applications/:id/instances', async (c) => {
  const { body, link } = await listInstances(c)
  return respond(c, body, link ? { Link: link } : {})
})

hosts.get('/applications/:id/instances/:instanceId{[0-9]+}', async (c) =>
  respond(c, await showInstance(c))
)

/**
 * @module routes/hosts
 * Application hosts and instances (src/hosts); POST on list paths is a read (src/params.ts).
 */
import { Hono } from '../hono'
import type { Env } from '../env'
import { listHosts, listInstances, showHost, showInstance } from '../hosts/list'
import { respond } from '../respond'

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

/**
 * @module resources/applications/routes
 * Applications (hosts and instances: hosts/routes.ts). POST on list paths is a read (ansible `newrelic_deployment`, hubot-newrelic2). PUT and DELETE write through NerdGraph
 * (src/resources/applications/writes.ts).
 */
import { Hono } from '../../http/hono'
import type { Env } from '../../http/env'
import { listApplications } from './list'
import { showApplication } from './show'
import { deleteApplication, updateApplication } from './writes'
import { respond } from '../../http/respond'

export const applications = new Hono<Env>()

applications.on(['GET', 'POST'], '/applications', async (c) => {
  const { body, link } = await listApplications(c)
  return respond(c, body, link ? { Link: link } : {})
})

applications.get('/applications/:id', async (c) => respond(c, await showApplication(c)))

applications.put('/applications/:id', async (c) => respond(c, await updateApplication(c)))

applications.delete('/applications/:id', async (c) => respond(c, await deleteApplication(c)))

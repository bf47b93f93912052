/**
 * @module routes/applications
 * Applications, their hosts and instances (src/applications, src/hosts). POST on list paths is a
 * read (ansible `newrelic_deployment`, hubot-newrelic2). PUT and DELETE write through NerdGraph
 * (src/applications/writes.ts).
 */
import { Hono } from '../hono'
import type { Env } from '../env'
import { listApplications } from '../applications/list'
import { showApplication } from '../applications/show'
import { deleteApplication, updateApplication } from '../applications/writes'
import { respond } from '../respond'

export const applications = new Hono<Env>()

applications.on(['GET', 'POST'], '/applications', async (c) => {
  const { body, link } = await listApplications(c)
  return respond(c, body, link ? { Link: link } : {})
})

applications.get('/applications/:id', async (c) => respond(c, await showApplication(c)))

applications.put('/applications/:id', async (c) => respond(c, await updateApplication(c)))

applications.delete('/applications/:id', async (c) => respond(c, await deleteApplication(c)))

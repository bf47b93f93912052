/**
 * @module resources/mobile-applications/routes
 * Mobile applications: list, show, create. Their metric names and data are served with every other
 * metric route (src/resources/metrics/routes.ts).
 */
import type { Context } from 'hono'
import { Hono } from '../../http/hono'
import type { Env } from '../../http/env'
import {
  createMobileApplication,
  listMobileApplications,
  showMobileApplication,
} from './mobile-applications'
import { respond } from '../../http/respond'

export const mobileApplications = new Hono<Env>()

async function list(c: Context<Env>) {
  const { body, link } = await listMobileApplications(c)
  return respond(c, body, link ? { Link: link } : {})
}

mobileApplications.get('/mobile_applications', list)

/** A create carries `mobile_application` or `application`; without either a POST reads the list. */
mobileApplications.post('/mobile_applications', async (c) => {
  const creates = c
    .get('params')
    .entries()
    .some(([k]) => k.startsWith('mobile_application[') || k.startsWith('application['))
  return creates ? respond(c, await createMobileApplication(c), {}, 201) : list(c)
})

mobileApplications.get('/mobile_applications/:id', async (c) =>
  respond(c, await showMobileApplication(c))
)

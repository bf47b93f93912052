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

/** A POST here is always a create: without a readable `mobile_application` (or `application`)
 * wrapper it is 400 `missing parameter: mobile_application`, never a list read. */
mobileApplications.post('/mobile_applications', async (c) =>
  respond(c, await createMobileApplication(c), {}, 201)
)

mobileApplications.get('/mobile_applications/:id', async (c) =>
  respond(c, await showMobileApplication(c))
)

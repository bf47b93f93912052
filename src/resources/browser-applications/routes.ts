/**
 * @module resources/browser-applications/routes
 * Browser applications: list (POST with `filter[…]` only reads, as on other lists) and create.
 */
import { Hono } from '../../http/hono'
import type { Env } from '../../http/env'
import { createBrowserApplication, listBrowserApplications } from './browser-applications'
import { respond } from '../../http/respond'

export const browserApplications = new Hono<Env>()

browserApplications.get('/browser_applications', async (c) => {
  const { body, link } = await listBrowserApplications(c)
  return respond(c, body, link ? { Link: link } : {})
})

/** A POST here is always a create (D-browser): without a readable `browser_application` wrapper it
 * is 400 `missing parameter: browser_application` (src/http/create-params.ts), never a list read. */
browserApplications.post('/browser_applications', async (c) =>
  respond(c, await createBrowserApplication(c), {}, 201)
)

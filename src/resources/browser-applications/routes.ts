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

/** A create carries `browser_application` (D-browser); without it a POST reads the list
 * (src/http/params.ts). */
browserApplications.post('/browser_applications', async (c) => {
  const creates = c
    .get('params')
    .entries()
    .some(([k]) => k.startsWith('browser_application['))
  if (creates) return respond(c, await createBrowserApplication(c), {}, 201)
  const { body, link } = await listBrowserApplications(c)
  return respond(c, body, link ? { Link: link } : {})
})

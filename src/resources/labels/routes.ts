/**
 * @module resources/labels/routes
 * Labels as entity tags (src/resources/labels/labels.ts): list, create (PUT, as v2 did) and delete.
 */
import { Hono } from '../../http/hono'
import type { Env } from '../../http/env'
import { createLabel, deleteLabel, listLabels } from './labels'
import { respond } from '../../http/respond'

export const labels = new Hono<Env>()

labels.get('/labels', async (c) => {
  const { body, link } = await listLabels(c)
  return respond(c, body, link ? { Link: link } : {})
})

labels.put('/labels', async (c) => {
  const { status, body } = await createLabel(c)
  return body ? respond(c, body, {}, status as 201) : new Response(null, { status: 304 })
})

labels.delete('/labels/:key', async (c) => respond(c, await deleteLabel(c)))

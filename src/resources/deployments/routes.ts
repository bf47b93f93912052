/**
 * @module resources/deployments/routes
 * Application deployments (D-deploy): list, record, and delete (which NerdGraph cannot do:
 * D-migrate); and the legacy deployments API v0.
 */
import { Hono } from '../../http/hono'
import type { Env } from '../../http/env'
import { createDeployment } from './create'
import { deleteDeployment } from './delete'
import { recordLegacyDeployment } from './legacy'
import { v0Created } from './v0-render'
import { listDeployments } from './list'
import { respond } from '../../http/respond'

export const deployments = new Hono<Env>()

deployments.get('/applications/:id/deployments', async (c) => {
  const { body, link } = await listDeployments(c)
  return respond(c, body, link ? { Link: link } : {})
})

deployments.post('/applications/:id/deployments', async (c) =>
  respond(c, await createDeployment(c), {}, 201)
)

deployments.delete('/applications/:id/deployments/:deploymentId', (c) => deleteDeployment(c))

/** The legacy deployments API v0 (`POST /deployments.xml`), outside /v2 (src/app.ts sets it up). */
export const deploymentsV0 = new Hono<Env>()

deploymentsV0.post('/deployments', async (c) =>
  v0Created(c.get('format'), await recordLegacyDeployment(c))
)

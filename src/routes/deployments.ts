/**
 * @module routes/deployments
 * Application deployments (D-deploy): list, record, and delete (which NerdGraph cannot do:
 * D-migrate); and the legacy deployments API v0.
 */
import { Hono } from '../hono'
import type { Env } from '../env'
import { createDeployment } from '../deployments/create'
import { deleteDeployment } from '../deployments/delete'
import { recordLegacyDeployment } from '../deployments/legacy'
import { v0Created } from '../deployments/v0-render'
import { listDeployments } from '../deployments/list'
import { respond } from '../respond'

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

/**
 * @module routes/deployments
 * Application deployments (contract §2.8): list, record, and delete (which NerdGraph cannot do).
 */
import { Hono } from 'hono'
import type { Env } from '../env'
import { createDeployment } from '../deployments/create'
import { deleteDeployment } from '../deployments/delete'
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

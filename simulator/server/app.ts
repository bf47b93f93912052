/** @module simulator/server/app — the Hono app: POST /graphql (auth, limits, faults, graphql-js) and /_sim/*. */
import { buildSchema, graphql } from 'graphql'
import { Hono } from 'hono'
import * as z from 'zod'
import { principalFor } from '../data/keys'
import type { GraphContext } from '../graphql/context'
import { rootValue } from '../graphql/resolvers'
import { SCHEMA_SDL } from '../graphql/schema'
import { v0StandIn, v2StandIn } from '../v2/standin'
import { adminRoutes } from './admin'
import { badApiKey, faultResponse, tooManyRequests, userLane, type FaultDecision } from './limits'
import type { SimulatorServices } from './services'

const schema = buildSchema(SCHEMA_SDL)

const GraphQLBody = z.object({
  query: z.string(),
  variables: z.record(z.string(), z.unknown()).nullish(),
  operationName: z.string().nullish(),
})

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

async function execute(request: Request, context: GraphContext): Promise<Response> {
  let body: unknown
  try {
    body = await request.json()
  } catch {
    return jsonResponse({ errors: [{ message: 'Request body is not valid JSON' }] }, 400)
  }
  const parsed = GraphQLBody.safeParse(body)
  if (!parsed.success) {
    return jsonResponse(
      { errors: [{ message: 'Expected {"query": string, "variables"?: object}' }] },
      400
    )
  }
  const result = await graphql({
    schema,
    source: parsed.data.query,
    rootValue,
    contextValue: context,
    variableValues: parsed.data.variables ?? null,
    operationName: parsed.data.operationName ?? null,
  })
  return jsonResponse(result)
}

/** A 200 whose body does not parse as the JSON a client expects. */
async function malformed(kind: 'html' | 'truncated', response: Response): Promise<Response> {
  if (kind === 'html') {
    const html =
      '<!DOCTYPE html><html><head><title>Service Unavailable</title></head><body></body></html>'
    return new Response(html, { status: 200, headers: { 'content-type': 'text/html' } })
  }
  const text = await response.text()
  return new Response(text.slice(0, Math.max(1, Math.floor(text.length / 2))), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  })
}

async function withFault(decision: FaultDecision | null, run: () => Promise<Response>) {
  if (decision && decision.latencyMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, decision.latencyMs))
  }
  const outcome = decision?.outcome
  if (!outcome) return run()
  if (outcome.kind === 'body') return malformed(outcome.body, await run())
  return faultResponse(outcome)
}

export function createSimulatorApp(services: SimulatorServices): Hono {
  const app = new Hono()
  app.post('/graphql', async (c) => {
    const principal = principalFor(c.req.header('api-key'))
    if (!principal) return badApiKey()
    services.stats.request(principal.label)
    // Per user, all of the user's keys together (New Relic docs "NerdGraph usage limits").
    const user = userLane(principal)
    const admittedAt = performance.now()
    if (!services.concurrency.acquire(user)) {
      services.refusals.answered('concurrency', principal.user.id)
      return tooManyRequests()
    }
    try {
      const { dataset, stats, nrqlLimits } = services
      const context: GraphContext = { principal, dataset, stats, nrqlLimits, admittedAt }
      const response = await withFault(services.faults.next(), () => execute(c.req.raw, context))
      // A query past the NRQL limits fails the whole request (docs "Rate limits with NRQL").
      if (!context.refused) return response
      services.refusals.answered(context.refused, principal.user.id)
      return tooManyRequests()
    } finally {
      services.concurrency.release(user)
    }
  })
  app.route('/_sim', adminRoutes(services))
  const standIn = v2StandIn(services.dataset)
  app.all('/v2/*', (c) => standIn.fetch(c.req.raw))
  const v0 = v0StandIn(services.dataset)
  app.post('/deployments.xml', (c) => v0.fetch(c.req.raw))
  app.notFound(() => jsonResponse({ errors: [{ message: 'Not Found' }] }, 404))
  app.onError((err) => {
    console.error('[simulator]', err)
    return jsonResponse({ errors: [{ message: 'Internal Server Error' }] }, 500)
  })
  return app
}

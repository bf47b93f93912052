/** @module simulator/server/admin — /_sim/* admin endpoints: stats, reset, faults, limits, ground-truth timeslices. */
import { Hono, type Context } from 'hono'
import * as z from 'zod'
import { alertsOf } from '../data/alerts/state'
import { MINUTE } from '../data/apm/timeslices'
import { PERTURBATIONS, v2SwitchesOf } from '../v2/perturb'
import { FaultSchema, LiveLimitsSchema, mergeLimits } from './limits'
import type { SimulatorServices } from './services'

/** Epoch ms (digits) or an ISO 8601 date. */
const Instant = z.string().transform((text, ctx) => {
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text)
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', message: `not epoch ms or ISO 8601: ${text}` })
    return z.NEVER
  }
  return ms
})

const TimeslicesQuery = z.object({
  appId: z.string().regex(/^\d+$/, 'appId must be a positive integer').transform(Number),
  name: z.string().min(1),
  host: z.string().optional(),
  instanceName: z.string().optional(),
  from: Instant.optional(),
  to: Instant.optional(),
  scope: z.string().optional(),
})

/** `POST /_sim/v2`: the stand-in's switches; an absent field is off, so `{}` clears. */
const V2SwitchesBody = z.strictObject({
  perturb: z.enum(PERTURBATIONS).nullish(),
  jitter: z.boolean().optional(),
})

function badRequest(message: string): Response {
  return Response.json({ error: message }, { status: 400 })
}

const issues = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')

/** The JSON body of a `POST`, checked by `schema`: its data, or the 400 to answer. */
async function jsonBody<T>(
  c: Context,
  schema: z.ZodType<T>
): Promise<{ data: T } | { error: Response }> {
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    return { error: badRequest('body is not valid JSON') }
  }
  const parsed = schema.safeParse(body)
  return parsed.success ? { data: parsed.data } : { error: badRequest(issues(parsed.error)) }
}

/** `POST /_sim/reset` and `Simulator.reset()`: stats, faults, writes, v2 switches and limits as at
 * start-up. */
export function resetSimulator(services: SimulatorServices): void {
  const { dataset, stats, faults, limits } = services
  stats.reset()
  services.refusals.reset()
  faults.clear()
  dataset.reset()
  alertsOf(dataset).reset()
  const v2 = v2SwitchesOf(dataset)
  v2.current = { ...v2.initial }
  limits.reset()
}

/** Infinity (a limit switched off) as `null`, which JSON can carry. */
const limitsJson = (limits: object) =>
  Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, v === Infinity ? null : v]))

export function adminRoutes(services: SimulatorServices): Hono {
  const { dataset, stats, faults, limits } = services
  const admin = new Hono()
  admin.get('/stats', (c) => c.json({ ...stats.snapshot(), limited: services.refusals.snapshot() }))
  admin.post('/reset', (c) => {
    resetSimulator(services)
    return c.json({ ok: true })
  })
  admin.get('/limits', (c) => c.json(limitsJson(limits.current())))
  admin.post('/limits', async (c) => {
    const parsed = await jsonBody(c, LiveLimitsSchema)
    if ('error' in parsed) return parsed.error
    limits.set(mergeLimits(limits.current(), parsed.data))
    return c.json(limitsJson(limits.current()))
  })
  admin.get('/v2', (c) => c.json(v2SwitchesOf(dataset).current))
  admin.post('/v2', async (c) => {
    const parsed = await jsonBody(c, V2SwitchesBody)
    if ('error' in parsed) return parsed.error
    const v2 = v2SwitchesOf(dataset)
    v2.current = { perturb: parsed.data.perturb ?? null, jitter: parsed.data.jitter ?? false }
    return c.json(v2.current)
  })
  admin.get('/faults', (c) => c.json({ faults: faults.current() }))
  admin.post('/faults', async (c) => {
    const parsed = await jsonBody(c, FaultSchema)
    if ('error' in parsed) return parsed.error
    faults.set(parsed.data)
    return c.json({ faults: faults.current() })
  })
  admin.get('/timeslices', (c) => {
    const parsed = TimeslicesQuery.safeParse(c.req.query())
    if (!parsed.success) return badRequest(issues(parsed.error))
    const q = parsed.data
    if (!dataset.application(q.appId))
      return Response.json({ error: 'unknown appId' }, { status: 404 })
    const to = q.to ?? dataset.window().end
    const from = q.from ?? to - 30 * MINUTE
    if (!(from < to)) return badRequest('from must be before to')
    const rows = dataset.timeslices({ ...q, from, to, scope: q.scope ?? null })
    return c.json({
      rows: rows.map((r) => ({
        timestamp: r.timestamp,
        host: r.host,
        instanceName: r.instanceName,
        ...r.value,
      })),
    })
  })
  return admin
}

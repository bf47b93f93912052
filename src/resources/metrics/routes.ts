/**
 * @module resources/metrics/routes
 * Metric names and metric data (D-names, D-extract) under `/applications/{id}`, `…/hosts/{host_id}`
 * and `…/instances/{instance_id}`; GET, and POST as a read (a browser extension POSTs form bodies).
 */
import type { Context } from 'hono'
import { Hono } from '../../http/hono'
import type { Env } from '../../http/env'
import { linkHeader, type PageLinks } from '../../http/link-header'
import type { MetricDataData } from './documents'
import { cachedMetricNames, listMetricNames, namesPageSize, toV2MetricNames } from './names'
import { coldMetricData, coldTarget } from './cold-scope'
import { planMetricData, type MetricDataRequest, type MetricScope } from './plan'
import { readableFor } from './readable'
import { metricDataRequest, metricNamesRequest } from './request'
import { toV2MetricData } from './reshape'
import { applicationScope, hostScope, instanceScope } from './scope'
import { mobileKind } from '../../entities/kinds'
import { confirmApplication, pathId, queryApplication, queryOwned } from '../../entities/resolve'
import { resolveEntity } from '../../entities/resolve-entity'
import { titles } from '../../core/errors'
import { respond } from '../../http/respond'

export const metrics = new Hono<Env>()

const read = ['GET', 'POST']

/** The three scopes share both routes; only the path, the scope resolver and the split of a cold
 * call (src/resources/metrics/cold-scope.ts) differ. */
const scopes = [
  ['/applications/:id', applicationScope, undefined],
  ['/applications/:id/hosts/:hostId', hostScope, 'host'],
  ['/applications/:id/instances/:instanceId', instanceScope, 'instance'],
] as const

for (const [base, scopeOf, split] of scopes) {
  metrics.on(read, `${base}/metrics`, async (c) => {
    const request = metricNamesRequest(c.get('params'), namesPageSize)
    const names = await listMetricNames(c, await scopeOf(c), request.name)
    if (names.length === 0) await confirmApplication(c, appIdOf(c))
    const { body, links } = toV2MetricNames(names, request)
    return respond(c, body, linkHeaders(c, links))
  })

  metrics.on(read, `${base}/metrics/data`, async (c) => {
    const request = metricDataRequest(c.get('params'), Date.now())
    const cold = split && (await coldTarget(c, split))
    const answer = cold ? await coldMetricData(c, request, cold) : undefined
    const body = answer ?? (await metricData(c, request, await scopeOf(c)))
    const found = (body['metric_data'] as { metrics_found: unknown[] }).metrics_found
    if (found.length === 0) await confirmApplication(c, appIdOf(c))
    return respond(c, body)
  })
}

const appIdOf = (c: Context<Env>) => pathId(c.req.param('id'), titles.noApplication)

async function metricData(c: Context<Env>, request: MetricDataRequest, scope: MetricScope) {
  readableFor(c, request, scope)
  const plan = planMetricData(request, scope, cachedMetricNames(c, scope))
  const { data } = await queryApplication<MetricDataData>(c, plan.document, plan.variables)
  return toV2MetricData(plan, data)
}

function linkHeaders(c: Context<Env>, links: PageLinks): Record<string, string> {
  const url = new URL(c.req.url)
  const value = linkHeader(url, c.get('origin'), c.get('params').entries(), links)
  return value ? { Link: value } : {}
}

/** Mobile applications: the same parameters, rounding and time rules. New Relic's own example (docs
 * "Mobile crash count and crash rate example") sends the data endpoint a singular `name=`: read as
 * `names[]` there. */
async function scope(c: Context<Env>): Promise<MetricScope> {
  const { accountId, guid } = await resolveEntity(c, mobileKind, { verify: true })
  return { accountId, guid }
}

metrics.on(read, '/mobile_applications/:id/metrics', async (c) => {
  const request = metricNamesRequest(c.get('params'), namesPageSize)
  const names = await listMetricNames(c, await scope(c), request.name)
  const { body, links } = toV2MetricNames(names, request)
  return respond(c, body, linkHeaders(c, links))
})

metrics.on(read, '/mobile_applications/:id/metrics/data', async (c) => {
  const params = c.get('params')
  const single = params.get('name')
  if (params.list('names').length === 0 && single) params.add('names[]', single)
  const request = metricDataRequest(params, Date.now())
  const mobile = await scope(c)
  readableFor(c, request, mobile)
  const plan = planMetricData(request, mobile)
  const { data } = await queryOwned<MetricDataData>(
    c,
    mobileKind.notFound,
    plan.document,
    plan.variables
  )
  return respond(c, toV2MetricData(plan, data))
})

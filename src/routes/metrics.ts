/**
 * @module routes/metrics
 * Metric names and metric data (D-names, D-extract) under `/applications/{id}`, `…/hosts/{host_id}`
 * and `…/instances/{instance_id}`; GET, and POST as a read (a browser extension POSTs form bodies).
 */
import type { Context } from 'hono'
import { Hono } from '../hono'
import type { Env } from '../env'
import { linkHeader, type PageLinks } from '../link-header'
import type { MetricDataData } from '../metrics/documents'
import {
  cachedMetricNames,
  listMetricNames,
  namesPageSize,
  toV2MetricNames,
} from '../metrics/names'
import { coldMetricData, coldTarget } from '../metrics/cold-scope'
import { planMetricData, type MetricDataRequest, type MetricScope } from '../metrics/plan'
import { metricDataRequest, metricNamesRequest } from '../metrics/request'
import { toV2MetricData } from '../metrics/reshape'
import { applicationScope, hostScope, instanceScope } from '../metrics/scope'
import { confirmApplication, pathId, queryApplication } from '../resolve'
import { titles } from '../errors'
import { respond } from '../respond'

export const metrics = new Hono<Env>()

const read = ['GET', 'POST']

/** The three scopes share both routes; only the path, the scope resolver and the split of a cold
 * call (src/metrics/cold-scope.ts) differ. */
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
  const plan = planMetricData(request, scope, cachedMetricNames(c, scope))
  const { data } = await queryApplication<MetricDataData>(c, plan.document, plan.variables)
  return toV2MetricData(plan, data)
}

function linkHeaders(c: Context<Env>, links: PageLinks): Record<string, string> {
  const url = new URL(c.req.url)
  const value = linkHeader(url, c.get('origin'), c.get('params').entries(), links)
  return value ? { Link: value } : {}
}

/**
 * @module routes/mobile-applications
 * Mobile applications (src/mobile-applications): list, show, create, and metric names and data with
 * the parameters, rounding and time rules of application metrics (src/metrics). New Relic's own
 * example (docs "Mobile crash count and crash rate example") sends the data endpoint a singular
 * `name=`: read as `names[]` there.
 */
import type { Context } from 'hono'
import { Hono } from '../hono'
import type { Env } from '../env'
import { linkHeader } from '../link-header'
import type { MetricDataData } from '../metrics/documents'
import { listMetricNames, namesPageSize, toV2MetricNames } from '../metrics/names'
import { planMetricData, type MetricScope } from '../metrics/plan'
import { metricDataRequest, metricNamesRequest } from '../metrics/request'
import { toV2MetricData } from '../metrics/reshape'
import {
  createMobileApplication,
  listMobileApplications,
  mobileKind,
  showMobileApplication,
} from '../mobile-applications/mobile-applications'
import { queryOwned } from '../resolve'
import { resolveEntity } from '../resolve-entity'
import { respond } from '../respond'

export const mobileApplications = new Hono<Env>()

async function list(c: Context<Env>) {
  const { body, link } = await listMobileApplications(c)
  return respond(c, body, link ? { Link: link } : {})
}

mobileApplications.get('/mobile_applications', list)

/** A create carries `mobile_application` or `application`; without either a POST reads the list. */
mobileApplications.post('/mobile_applications', async (c) => {
  const creates = c
    .get('params')
    .entries()
    .some(([k]) => k.startsWith('mobile_application[') || k.startsWith('application['))
  return creates ? respond(c, await createMobileApplication(c), {}, 201) : list(c)
})

mobileApplications.get('/mobile_applications/:id', async (c) =>
  respond(c, await showMobileApplication(c))
)

async function scope(c: Context<Env>): Promise<MetricScope> {
  const { accountId, guid } = await resolveEntity(c, mobileKind, { verify: true })
  return { accountId, guid }
}

mobileApplications.on(['GET', 'POST'], '/mobile_applications/:id/metrics', async (c) => {
  const request = metricNamesRequest(c.get('params'), namesPageSize)
  const names = await listMetricNames(c, await scope(c), request.name)
  const { body, links } = toV2MetricNames(names, request)
  const url = new URL(c.req.url)
  const link = linkHeader(url, c.get('origin'), c.get('params').entries(), links)
  return respond(c, body, link ? { Link: link } : {})
})

mobileApplications.on(['GET', 'POST'], '/mobile_applications/:id/metrics/data', async (c) => {
  const params = c.get('params')
  const single = params.get('name')
  if (params.list('names').length === 0 && single) params.add('names[]', single)
  const request = metricDataRequest(params, Date.now())
  const plan = planMetricData(request, await scope(c))
  const { data } = await queryOwned<MetricDataData>(
    c,
    mobileKind.notFound,
    plan.document,
    plan.variables
  )
  return respond(c, toV2MetricData(plan, data))
})

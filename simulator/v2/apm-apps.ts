/**
 * @module simulator/v2/apm-apps — applications (list with `filter[name|ids|language|host]`, show),
 * their hosts and instances (list with `filter[hostname|ids]`, show) and deployments (list), from the
 * dataset: shapes and key order of New Relic docs' and clients' recorded answers (docs "Summary data
 * examples (v2)", "Application reporting and health status", "Record and view deployments";
 * mrf/newrelic_exporter, ambitioninc/newrelic-api and newrelic-client-go fixtures), 200 a page.
 */
import type { Hono } from 'hono'
import type { SimDeployment } from '../data/apm/deployment-store'
import type { Dataset } from '../data/dataset'
import type { AlertSeverity, Application, Instance } from '../data/model'
import { formatTime } from './apm-time'
import { alertsOf } from '../data/alerts/state'
import { harvestOffsetMs } from '../data/apm/harvest'
import {
  appOf,
  hostById,
  hostIds,
  instanceById,
  instanceIdOf,
  instanceIds,
  NOT_FOUND,
} from './apm-scope'
import { recentMembers, summaryOf, type Summary } from './apm-summary'
import { idsInOrder, instanceMember } from './ids'
import {
  answer,
  error,
  param,
  flag,
  idsOf,
  listOf,
  page,
  params,
  type C,
  type Env,
} from './respond'

const PAGE = 200 // about 200 a page (Grafana plugins' and AMB users' reports)

/** New Relic docs "Application reporting and health status (v2)"; not reporting is gray. */
const HEALTH: Record<AlertSeverity, string> = {
  CRITICAL: 'red',
  WARNING: 'orange',
  NOT_ALERTING: 'green',
  NOT_CONFIGURED: 'unknown',
}
const health = (app: Application) => (app.reporting ? HEALTH[app.alertSeverity] : 'gray')

/** Top-level `links` template maps, verbatim (the `/v2/application/` typo included) from the
 * mrf/newrelic_exporter and ambitioninc/newrelic-api fixtures. */
const LINKS = {
  application: {
    'application.servers': '/v2/servers?ids={server_ids}',
    'application.server': '/v2/servers/{server_id}',
    'application.application_hosts': '/v2/application/{application_id}/hosts?ids={host_ids}',
    'application.application_host': '/v2/application/{application_id}/hosts/{host_id}',
    'application.application_instances':
      '/v2/application/{application_id}/instances?ids={instance_ids}',
    'application.application_instance': '/v2/application/{application_id}/instances/{instance_id}',
    'application.alert_policy': '/v2/alert_policies/{alert_policy_id}',
  },
  host: {
    'application_host.application': '/v2/applications/{application_id}',
    'application_host.application_instances':
      '/v2/application/{application_id}/instances?ids={instance_ids}',
    'application_host.application_instance':
      '/v2/application/{application_id}/instances/{instance_id}',
    'application_host.server': '/v2/servers/{server_id}',
  },
  instance: {
    'application_instance.application': '/v2/applications/{application_id}',
    'application_instance.application_host': '/v2/application/{application_id}/hosts/{instance_id}',
    'application_instance.server': '/v2/servers/{server_id}',
  },
  deployment: { 'deployment.agent': '/v2/applications/{application_id}' },
} as const

const summaries = (s: Summary) => ({
  ...(s.application ? { application_summary: s.application } : {}),
  ...(s.endUser ? { end_user_summary: s.endUser } : {}),
})

/** One application as v2 lists, shows, updates and deletes it. */
export function applicationOut(dataset: Dataset, app: Application) {
  const recent = recentMembers(dataset, app.id, app.accountId)
  const instances = instanceIds(app)
  const hosts = hostIds(app)
  return {
    id: app.id,
    name: app.name,
    language: app.language,
    health_status: health(app),
    reporting: app.reporting,
    ...(app.reporting ? { last_reported_at: formatTime(reportedAt(app)) } : {}),
    ...(app.reporting ? summaries(summaryOf(dataset, { app }, 'application')) : {}),
    settings: {
      app_apdex_threshold: app.apdexT,
      end_user_apdex_threshold: app.browserApdexT ?? 7, // v2's default T for browser (7 s)
      enable_real_user_monitoring: app.browserApdexT !== null,
      use_server_side_config: app.language === 'java', // the dataset's setting (data/apm/entity.ts)
    },
    links: {
      application_instances: [...recent.instances]
        .map((m) => instances.get(m)!)
        .sort((a, b) => a - b),
      ...alertPolicyLink(dataset, app),
      servers: [],
      application_hosts: [...recent.hosts].map((h) => hosts.get(h)!).sort((a, b) => a - b),
    },
  }
}

/** "Alert policy in which this application is a member" (v2 explorer ApplicationLinksResponse):
 * the policy of the oldest condition that targets the application (the conditions' own target
 * lists in the data set), present only then, between the instances and the servers (D-health). */
function alertPolicyLink(dataset: Dataset, app: Application) {
  const first = alertsOf(dataset)
    .conditions.filter((c) => c.accountId === app.accountId && c.appIds.includes(app.id))
    .sort((a, b) => a.id - b.id)[0]
  return first ? { alert_policy: first.policyId } : {}
}

function hostOut(dataset: Dataset, app: Application, host: string) {
  const ids = app.instances.filter((i) => i.host === host).map((i) => instanceIdOf(app, i))
  return {
    id: hostIds(app).get(host)!,
    application_name: app.name,
    host,
    language: app.language,
    health_status: health(app),
    ...summaries(summaryOf(dataset, { app, host }, 'member')),
    links: { application: app.id, application_instances: ids.sort((a, b) => a - b) },
  }
}

function instanceOut(dataset: Dataset, app: Application, inst: Instance) {
  return {
    id: instanceIdOf(app, inst),
    application_name: app.name,
    host: inst.host,
    port: Number(inst.instanceName.split(':')[1] ?? 0),
    language: app.language,
    health_status: health(app),
    ...summaries(summaryOf(dataset, { app, host: inst.host, instance: inst }, 'member')),
    links: { application: app.id, application_host: hostIds(app).get(inst.host)! },
  }
}

/** "The last time the application reported data" (v2 explorer applications.json), to the second as
 * v2 showed it (`2014-07-29T23:45:07+00:00`, New Relic docs "Application reporting and health status
 * (v2)"): the agent's report of its last minute of data (`lastReportedAt`, the minute's start), which
 * leaves at the agent's harvest second (data/apm/harvest.ts). */
export const reportedAt = (app: Application) => app.lastReportedAt + harvestOffsetMs(app)

const byName = (a: Application, b: Application) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id

async function listApplications(dataset: Dataset, c: C) {
  const p = await params(c)
  const name = param(p, 'filter[name]')?.toLowerCase()
  const ids = idsOf(p, 'filter[ids]', 'filter[id]')
  const languages = listOf(p, 'filter[language]').map((l) => l.toLowerCase())
  const host = param(p, 'filter[host]')?.toLowerCase()
  const apps = dataset
    .applications(c.get('accountId'))
    .filter((a) => !name || a.name.toLowerCase().includes(name))
    .filter((a) => ids.length === 0 || ids.includes(String(a.id)))
    .filter((a) => languages.length === 0 || languages.includes(a.language))
    .filter((a) => !host || a.hosts.some((h) => h.toLowerCase() === host))
    .sort(byName)
  const { items, headers } = page(c, p, apps, PAGE)
  const body = {
    applications: items.map((a) => applicationOut(dataset, a)),
    ...(flag(p, 'exclude_links') ? {} : { links: LINKS.application }),
  }
  return answer(c, body, 200, headers)
}

/** Members of a list: filter[hostname] a case-insensitive substring of the host, filter[ids] exact. */
async function members<T>(c: C, all: T[], hostOf: (m: T) => string, idOf: (m: T) => number) {
  const p = await params(c)
  const hostname = param(p, 'filter[hostname]')?.toLowerCase()
  const ids = idsOf(p, 'filter[ids]')
  const kept = all
    .filter((m) => !hostname || hostOf(m).toLowerCase().includes(hostname))
    .filter((m) => ids.length === 0 || ids.includes(String(idOf(m))))
  return page(c, p, kept, PAGE)
}

export function applicationRoutes(app: Hono<Env>, dataset: Dataset): void {
  const read = ['GET', 'POST']
  const appOr404 = (c: C, id: string | undefined) => appOf(dataset, c, id)
  app.on(read, '/applications', (c) => listApplications(dataset, c))
  app.on(read, '/applications/:id', (c) => {
    const a = appOr404(c, c.req.param('id'))
    if (!a) return error(c, 404, NOT_FOUND.application)
    return answer(c, { application: applicationOut(dataset, a), links: LINKS.application })
  })
  app.on(read, '/applications/:application_id/hosts', async (c) => {
    const a = appOr404(c, c.req.param('application_id'))
    if (!a) return error(c, 404, NOT_FOUND.application)
    const recent = recentMembers(dataset, a.id, a.accountId)
    const ids = hostIds(a)
    const hosts = [...recent.hosts].sort()
    const { items, headers } = await members(
      c,
      hosts,
      (h) => h,
      (h) => ids.get(h)!
    )
    const body = { application_hosts: items.map((h) => hostOut(dataset, a, h)), links: LINKS.host }
    return answer(c, body, 200, headers)
  })
  app.on(read, '/applications/:application_id/hosts/:id', (c) => {
    const a = appOr404(c, c.req.param('application_id'))
    if (!a) return error(c, 404, NOT_FOUND.application)
    const host = hostById(a, c.req.param('id'))
    if (host === undefined) return error(c, 404, NOT_FOUND.host)
    return answer(c, { application_host: hostOut(dataset, a, host), links: LINKS.host })
  })
  app.on(read, '/applications/:application_id/instances', async (c) => {
    const a = appOr404(c, c.req.param('application_id'))
    if (!a) return error(c, 404, NOT_FOUND.application)
    const recent = recentMembers(dataset, a.id, a.accountId)
    // By ID: v2 names no list order (New Relic docs "Pagination for API output": indeterminate);
    // the one order its docs show for instances is ascending IDs (New Relic docs "List an app's
    // host IDs and instance IDs", the `application_instances` list).
    const list = a.instances
      .filter((i) => recent.instances.has(instanceMember(i.host, i.instanceName)))
      .sort((x, y) => instanceIdOf(a, x) - instanceIdOf(a, y))
    const { items, headers } = await members(
      c,
      list,
      (i) => i.host,
      (i) => instanceIdOf(a, i)
    )
    const body = {
      application_instances: items.map((i) => instanceOut(dataset, a, i)),
      links: LINKS.instance,
    }
    return answer(c, body, 200, headers)
  })
  app.on(read, '/applications/:application_id/instances/:id', (c) => {
    const a = appOr404(c, c.req.param('application_id'))
    if (!a) return error(c, 404, NOT_FOUND.application)
    const inst = instanceById(a, c.req.param('id'))
    if (!inst) return error(c, 404, NOT_FOUND.instance)
    return answer(c, { application_instance: instanceOut(dataset, a, inst), links: LINKS.instance })
  })
  app.get('/applications/:application_id/deployments', async (c) => {
    const a = appOr404(c, c.req.param('application_id'))
    if (!a) return error(c, 404, NOT_FOUND.application)
    const ids = deploymentIds(dataset, a)
    const { items, headers } = page(c, await params(c), dataset.deployments.of(a.guid), PAGE)
    const deployments = items.map((d) => deploymentOut(a, d, ids))
    return answer(c, { deployments, links: LINKS.deployment }, 200, headers)
  })
}

/** The v2 ID of each deployment of `app`: minted in order, oldest first (ids.ts). */
export function deploymentIds(dataset: Dataset, app: Application) {
  const oldestFirst = [...dataset.deployments.of(app.guid)].sort(
    (x, y) => x.timestamp - y.timestamp || (x.deploymentId < y.deploymentId ? -1 : 1)
  )
  return idsInOrder(
    'deployment',
    app.id,
    oldestFirst.map((d) => d.deploymentId)
  )
}

/** One deployment as v2 lists and creates it. */
export const deploymentOut = (
  app: Application,
  d: SimDeployment,
  ids: ReadonlyMap<string, number>
) => ({
  id: ids.get(d.deploymentId)!,
  revision: d.version,
  changelog: d.changelog,
  description: d.description,
  user: d.user,
  timestamp: formatTime(d.timestamp),
  links: { application: app.id },
})

export const deploymentLinks = LINKS.deployment
export const applicationLinks = LINKS.application

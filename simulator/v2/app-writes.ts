/**
 * @module simulator/v2/app-writes — the stand-in's application writes, applied where the simulated
 * NerdGraph sees them (the dataset's applications, deployments and created browser and mobile apps):
 * - `PUT /v2/applications/{id}`: `{"application": {name, settings: {app_apdex_threshold,
 *   end_user_apdex_threshold, enable_real_user_monitoring}}}`, 200 with the application (New Relic
 *   docs-website application-examples-v2/change-alias-your-application-v2.mdx: all three settings
 *   sent; newrelic-client-go pkg/apm applications_test.go); 422 "Validation error occurred when updating the application" (v2
 *   explorer applications PUT) with Rails-style messages [INFERRED wording].
 * - `DELETE /v2/applications/{id}`: 200 with the application deleted; 409 "Cannot delete an
 *   application that is still reporting data." (v2 explorer applications DELETE).
 * - `DELETE /v2/applications/{application_id}/deployments/{id}`: 200 `{"deployment"}` (client-go
 *   deployments_test.go); 404 "No Deployment found with the given ID" (v2 explorer).
 * - `POST /v2/browser_applications` (docs "Add or list browser apps (API v2)": basic page load
 *   timing only, the Lite loader) and `POST /v2/mobile_applications` (`{"application": {id, name,
 *   application_token}}` [UNCONFIRMED proposal: no client or fixture shows it]); 201 as v2's other
 *   creates [INFERRED].
 * A missing wrapper is 400 `missing parameter: <wrapper>` (Rails, as docs-website issue #7091
 * recorded it for policy_id).
 */
import type { Hono } from 'hono'
import type { ApplicationChanges, Dataset } from '../data/dataset'
import type { Application } from '../data/model'
import { appOf, NOT_FOUND } from './apm-scope'
import { applicationLinks, applicationOut, deploymentIds, deploymentOut } from './apm-apps'
import { browserOut } from './resources'
import { answer, error, type C, type Env } from './respond'
import { at, isTree, text, writeParams, type Tree } from './write-body'

export const APP_WRITE_TITLES = {
  invalid: 'Validation error occurred when updating the application',
  reporting: 'Cannot delete an application that is still reporting data.',
  noDeployment: 'No Deployment found with the given ID',
} as const

/** The longest name v2 takes [INFERRED: the Rails string column's 255]. */
const MAX_NAME = 255
/** v2's default end-user Apdex T, seconds, when real user monitoring is turned on without one. */
const DEFAULT_BROWSER_T = 7

const nameMessages = (name: string) =>
  !name
    ? ["Name can't be blank"]
    : [...name].length > MAX_NAME
      ? [`Name is too long (maximum is ${MAX_NAME} characters)`]
      : []

/** Rails' boolean casting of a form or JSON value; undefined when it is neither. */
function booleanOf(raw: string): boolean | undefined {
  if (/^(true|1|t|yes|on)$/i.test(raw)) return true
  if (/^(false|0|f|no|off)$/i.test(raw)) return false
  return undefined
}

/** What a PUT asks of `app`, or the messages of what it refuses (nothing is applied then). The
 * dataset keeps an end-user T only while real user monitoring is on, as the simulated NerdGraph's
 * browser settings do: turning it off drops the T, turning it on takes the one sent, else the one
 * kept, else 7 s. */
function changesOf(dataset: Dataset, app: Application, input: Tree) {
  const messages: string[] = []
  const changes: ApplicationChanges = {}
  const name = text(input, 'name')
  if (name !== undefined) messages.push(...nameMessages(name))
  if (name && name !== app.name) changes.name = name
  const seconds = (key: string, label: string) => {
    const raw = text(input, 'settings', key)
    if (raw === undefined) return undefined
    const value = Number(raw)
    if (raw !== '' && Number.isFinite(value) && value > 0) return value
    messages.push(`${label} must be greater than 0`)
    return undefined
  }
  const apdexT = seconds('app_apdex_threshold', 'App apdex threshold')
  const browserT = seconds('end_user_apdex_threshold', 'End user apdex threshold')
  const rumText = text(input, 'settings', 'enable_real_user_monitoring')
  const rum = rumText === undefined ? undefined : booleanOf(rumText)
  if (rumText !== undefined && rum === undefined)
    messages.push('Enable real user monitoring must be true or false')
  if (apdexT !== undefined && apdexT !== app.apdexT) changes.apdexT = apdexT
  const on = rum ?? app.browserApdexT !== null
  const nextBrowserT = on ? (browserT ?? app.browserApdexT ?? DEFAULT_BROWSER_T) : null
  if (nextBrowserT !== app.browserApdexT) {
    changes.browserApdexT = nextBrowserT
    changes.browserApdexTSince = dataset.now()
  }
  return { changes, messages }
}

/** The `name` in the first of `wrappers` the body has, or v2's error. */
async function createdName(c: C, wrappers: readonly string[]): Promise<string | Response> {
  const p = await writeParams(c)
  const input = wrappers.map((w) => at(p, w)).find(isTree)
  if (!input) return error(c, 400, `missing parameter: ${wrappers[0]}`)
  const name = text(input, 'name') ?? ''
  const messages = nameMessages(name)
  if (messages.length) return answer(c, { error: { title: 'Validation failed', messages } }, 422)
  return name
}

export function appWriteRoutes(app: Hono<Env>, dataset: Dataset): void {
  app.put('/applications/:id', async (c) => {
    const a = appOf(dataset, c, c.req.param('id'))
    if (!a) return error(c, 404, NOT_FOUND.application)
    const input = at(await writeParams(c), 'application')
    if (!isTree(input)) return error(c, 400, 'missing parameter: application')
    const { changes, messages } = changesOf(dataset, a, input)
    if (messages.length)
      return answer(c, { error: { title: APP_WRITE_TITLES.invalid, messages } }, 422)
    if (Object.keys(changes).length > 0) dataset.updateApplication(a.id, changes)
    const application = applicationOut(dataset, dataset.application(a.id)!)
    return answer(c, { application, links: applicationLinks })
  })
  app.delete('/applications/:id', (c) => {
    const a = appOf(dataset, c, c.req.param('id'))
    if (!a) return error(c, 404, NOT_FOUND.application)
    if (a.reporting) return error(c, 409, APP_WRITE_TITLES.reporting)
    const body = { application: applicationOut(dataset, a), links: applicationLinks }
    dataset.deleteApplication(a.id)
    return answer(c, body)
  })
  app.delete('/applications/:application_id/deployments/:id', (c) => {
    const a = appOf(dataset, c, c.req.param('application_id'))
    if (!a) return error(c, 404, NOT_FOUND.application)
    const ids = deploymentIds(dataset, a)
    const id = c.req.param('id')
    const d = dataset.deployments.of(a.guid).find((x) => String(ids.get(x.deploymentId)) === id)
    if (!d) return error(c, 404, APP_WRITE_TITLES.noDeployment)
    const deployment = deploymentOut(a, d, ids)
    dataset.deployments.remove(d.deploymentId)
    return answer(c, { deployment })
  })
  app.post('/browser_applications', async (c) => {
    const name = await createdName(c, ['browser_application'])
    if (typeof name !== 'string') return name
    const created = dataset.resources.state.createBrowser(c.get('accountId'), name, 'LITE')
    return answer(c, { browser_application: browserOut(created) }, 201)
  })
  app.post('/mobile_applications', async (c) => {
    const name = await createdName(c, ['mobile_application', 'application'])
    if (typeof name !== 'string') return name
    const m = dataset.resources.state.createMobile(c.get('accountId'), name)
    const application = { id: m.id, name: m.name, application_token: m.applicationToken }
    return answer(c, { application }, 201)
  })
}

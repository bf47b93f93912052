/**
 * @module resources/applications/show
 * `GET /v2/applications/{id}`: the record of the list (AMB fixture, v2 explorer
 * `ApplicationResponse`) from one NerdGraph request.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { applicationLinkTemplates } from '../../../mappings/link-templates'
import { browserNrql, browserSummaryFrom, summaryWindow } from './browser'
import { showApplicationDocument, type ShowApplicationData } from './documents'
import { loadApplication } from './load'
import { toV2Application } from './reshape'
import { alertPolicyOf, conditionsFrom } from './alert-policy'
import { withOwnUpdates } from './own-updates'
import { rememberShown } from './shown'
import { lastEventNrql, lastEventsFrom } from '../../entities/last-report'
import { membershipWindow } from '../../entities/topology'

export async function showApplication(c: Context<Env>) {
  const { data, entity, topology } = await loadApplication<ShowApplicationData>(
    c,
    showApplicationDocument,
    (app, now) => ({
      browser: browserNrql({ guid: app.guid }, summaryWindow(now)),
      lastEvent: lastEventNrql([app.appId], membershipWindow(now)[1]),
    })
  )
  const lastEvent = lastEventsFrom(data.actor.account?.lastEvent).get(entity.applicationId)
  const browser = browserSummaryFrom(data.actor.account?.browser?.results[0])
  const policy = alertPolicyOf(conditionsFrom(data.actor.account?.conditions), entity)
  const application = withOwnUpdates(
    c,
    entity.accountId,
    toV2Application(entity, topology, browser, undefined, policy, lastEvent)
  )
  rememberShown(c, entity.accountId, application)
  return { application, links: applicationLinkTemplates }
}

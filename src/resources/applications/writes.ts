/**
 * @module resources/applications/writes
 * `PUT` and `DELETE /v2/applications/{id}` (v2 explorer; New Relic docs "Migrate from REST API
 * v2 to NerdGraph"). A GraphQL operation is a query or a mutation, and NerdGraph's mutation root has
 * no `actor`, so no one document both writes and reads the application. Each call answers with the
 * record GET or a list page last showed this key (src/resources/applications/shown.ts) and what the mutation
 * returns: one NerdGraph request. Only when nothing is remembered is the application read first.
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { V2Error, titles } from '../../core/errors'
import type { GraphQLErrorLike } from '../../upstream/nerdgraph'
import { pathId, resolveApplication } from '../../entities/resolve'
import { errorClassOf, graphqlFault } from '../../upstream/fault'
import { realUserMonitoringLoader } from '../../../mappings/application-settings'
import { applicationLinkTemplates } from '../../../mappings/link-templates'
import type { ResolvedApplication } from '../../entities/resolve'
import { showApplication } from './show'
import { recordOwnUpdate } from './own-updates'
import { forgetShown, recallShown, rememberShown } from './shown'
import {
  settingsInput,
  updatedRecord,
  updateTitles,
  v2SettingOf,
  type SettingsResult,
} from './update-plan'

export const updateSettingsDocument = gql`
  mutation UpdateApplicationSettings(
    $guid: EntityGuid!
    $settings: AgentApplicationSettingsUpdateInput!
  ) {
    agentApplicationSettingsUpdate(guid: $guid, settings: $settings) {
      guid
      alias
      name
      apmSettings {
        apmConfig {
          apdexTarget
          useServerSideConfig
        }
      }
      browserSettings {
        browserConfig {
          apdexTarget
        }
        browserMonitoring {
          loader
        }
      }
      errors {
        description
        errorClass
        field
      }
    }
  }
`

export const deleteApplicationDocument = gql`
  mutation DeleteApplication($guid: EntityGuid!) {
    agentApplicationDelete(guid: $guid) {
      success
    }
  }
`

interface UpdateData {
  agentApplicationSettingsUpdate:
    | (SettingsResult & {
        errors:
          | ({
              description: string | null
              errorClass: string | null
              field: string | null
            } | null)[]
          | null
      })
    | null
}

interface DeleteData {
  agentApplicationDelete: { success: boolean } | null
}

export const deleteTitles = {
  reporting: 'Cannot delete an application that is still reporting data.', // swagger 1.1, 409
} as const

const notFound = (classes: readonly string[]) =>
  classes.some((k) => k === 'NOT_FOUND' || k === 'FORBIDDEN' || k === 'ACCESS_DENIED')

/** GraphQL errors of a mutation the route did not expect: answered as every call answers them. */
function unexpected(errors: readonly GraphQLErrorLike[]): Error {
  return graphqlFault(errors).error
}

/** The record GET shows, remembered or read (the read checks the application exists too). */
async function shownRecord(c: Context<Env>, app: ResolvedApplication) {
  return recallShown(c, app.accountId, app.appId) ?? (await showApplication(c)).application
}

export async function updateApplication(c: Context<Env>) {
  const settings = settingsInput(c.get('params'))
  const app = await resolveApplication(c, pathId(c.req.param('id'), titles.noApplication))
  const shown = await shownRecord(c, app)
  // Enabling RUM where GET already shows it would only swap the loader (mappings/application-settings.ts).
  const rum = settings['browserMonitoring'] as { loader: string } | undefined
  const shownRum = (shown['settings'] as Record<string, unknown>)['enable_real_user_monitoring']
  if (rum && shownRum === (rum.loader !== realUserMonitoringLoader.false))
    delete settings['browserMonitoring']
  const { data, errors } = await c
    .get('nerdgraph')
    .query<UpdateData>(updateSettingsDocument, { guid: app.guid, settings })
  const result = data.agentApplicationSettingsUpdate
  if (!result) {
    if (notFound(errors.map(errorClassOf))) throw new V2Error(404, titles.noApplication)
    throw unexpected(errors)
  }
  const refused = (result.errors ?? []).filter((e) => e !== null)
  if (notFound(refused.map((e) => e.errorClass ?? ''))) throw new V2Error(404, titles.noApplication)
  if (refused.length) {
    const messages = refused.map((e) => `${v2SettingOf(e.field)} is invalid`)
    throw new V2Error(422, updateTitles.invalid, { messages })
  }
  const application = updatedRecord(shown, result, settings)
  rememberShown(c, app.accountId, application)
  recordOwnUpdate(c, app.accountId, shown, application)
  return { application, links: applicationLinkTemplates }
}

export async function deleteApplication(c: Context<Env>) {
  const app = await resolveApplication(c, pathId(c.req.param('id'), titles.noApplication))
  const application = await shownRecord(c, app)
  const { data, errors } = await c
    .get('nerdgraph')
    .query<DeleteData>(deleteApplicationDocument, { guid: app.guid })
  if (data.agentApplicationDelete?.success) {
    forgetShown(c, app.accountId, app.appId)
    return { application, links: applicationLinkTemplates }
  }
  const classes = errors.map(errorClassOf)
  if (notFound(classes)) throw new V2Error(404, titles.noApplication)
  if (classes.length === 0 || classes.includes('INVALID_INPUT')) {
    throw new V2Error(409, deleteTitles.reporting)
  }
  throw unexpected(errors)
}

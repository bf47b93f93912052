/**
 * @module applications/writes
 * `PUT` and `DELETE /v2/applications/{id}` (v2 contract §2.3; New Relic docs "Migrate from REST API
 * v2 to NerdGraph"). A GraphQL operation is a query or a mutation, never both, so each costs two
 * NerdGraph requests: PUT sends `agentApplicationSettingsUpdate` and then reads the application as GET
 * shows it; DELETE reads the application it will answer with, then sends `agentApplicationDelete`.
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import type { Env } from '../env'
import { V2Error, titles } from '../errors'
import type { GraphQLErrorLike } from '../nerdgraph'
import { pathId, resolveApplication } from '../resolve'
import { errorClassOf, graphqlFault } from '../upstream-fault'
import { showApplication } from './show'
import { settingsInput, updateTitles, v2SettingOf } from './update-plan'

export const updateSettingsDocument = gql`
  mutation UpdateApplicationSettings(
    $guid: EntityGuid!
    $settings: AgentApplicationSettingsUpdateInput!
  ) {
    agentApplicationSettingsUpdate(guid: $guid, settings: $settings) {
      guid
      browserSettings {
        browserConfig {
          apdexTarget
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
  agentApplicationSettingsUpdate: {
    browserSettings: { browserConfig: { apdexTarget: number | null } } | null
    errors:
      | ({ description: string | null; errorClass: string | null; field: string | null } | null)[]
      | null
  } | null
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

export async function updateApplication(c: Context<Env>) {
  const settings = settingsInput(c.get('params'))
  const app = await resolveApplication(c, pathId(c.req.param('id'), titles.noApplication))
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
  const body = await showApplication(c)
  // NerdGraph shows the browser apdex T only here, not on the entity GET reads.
  const browserT = result.browserSettings?.browserConfig.apdexTarget
  const shown = body.application['settings'] as Record<string, unknown>
  if ('browserConfig' in settings && typeof browserT === 'number') {
    shown['end_user_apdex_threshold'] = browserT
  }
  return body
}

export async function deleteApplication(c: Context<Env>) {
  const body = await showApplication(c)
  const app = await resolveApplication(c, pathId(c.req.param('id'), titles.noApplication))
  const { data, errors } = await c
    .get('nerdgraph')
    .query<DeleteData>(deleteApplicationDocument, { guid: app.guid })
  if (data.agentApplicationDelete?.success) return body
  const classes = errors.map(errorClassOf)
  if (notFound(classes)) throw new V2Error(404, titles.noApplication)
  if (classes.length === 0 || classes.includes('INVALID_INPUT')) {
    throw new V2Error(409, deleteTitles.reporting)
  }
  throw unexpected(errors)
}

/**
 * @module simulator/graphql/deployments — the `changeTrackingCreateDeployment` mutation, with
 * NerdGraph's own validation (schema descriptions: `version` required, `timestamp` within the past
 * or future 24 hours, text fields under 4,096 characters or trimmed with `…`). The entity fields
 * `deploymentSearch` and `deployments` are in data/apm/deployments.ts.
 */
import { GraphQLError } from 'graphql'
import type { SimDeployment } from '../data/apm/deployment-store'
import type { GraphContext } from './context'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const MAX_TEXT = 4095
const TEXT_FIELDS = ['changelog', 'commit', 'deepLink', 'description', 'groupId', 'user'] as const

function invalid(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { errorClass: 'INVALID_INPUT' } })
}

type DeploymentInput = Partial<Record<(typeof TEXT_FIELDS)[number], string | null>> & {
  entityGuid: string
  version: string
  timestamp?: number | null
  deploymentType?: string | null
}

interface CreateArgs {
  deployment: DeploymentInput
  dataHandlingRules?: { validationFlags?: string[] | null } | null
}

function text(value: string | null | undefined, failOnLength: boolean, field: string) {
  if (value == null) return null
  const chars = [...value]
  if (chars.length <= MAX_TEXT) return value
  if (failOnLength) throw invalid(`${field} must be less than 4,096 characters`)
  return chars.slice(0, MAX_TEXT - 1).join('') + '…'
}

export const deploymentMutations = {
  changeTrackingCreateDeployment(
    { deployment: input, dataHandlingRules }: CreateArgs,
    ctx: GraphContext
  ) {
    const app = ctx.dataset.applicationByGuid(input.entityGuid)
    if (!app || !ctx.principal.accountIds.has(app.accountId)) {
      throw new GraphQLError(`Entity not found: ${input.entityGuid}`, {
        extensions: { errorClass: 'NOT_FOUND' },
      })
    }
    if (input.version.trim() === '') throw invalid('version must not be blank')
    const now = ctx.dataset.now()
    const timestamp = input.timestamp ?? now
    if (Math.abs(timestamp - now) > DAY) {
      throw invalid(
        'timestamp can not be more than 24 hours in the past or future. Make sure to use epoch milliseconds for timestamp.'
      )
    }
    const fail = dataHandlingRules?.validationFlags?.includes('FAIL_ON_FIELD_LENGTH') ?? false
    const created: SimDeployment = {
      deploymentId: crypto.randomUUID(),
      entityGuid: app.guid,
      version: text(input.version, fail, 'version')!,
      changelog: text(input.changelog, fail, 'changelog'),
      commit: text(input.commit, fail, 'commit'),
      description: text(input.description, fail, 'description'),
      user: text(input.user, fail, 'user'),
      timestamp,
      deploymentType: input.deploymentType ?? 'BASIC',
      groupId: text(input.groupId, fail, 'groupId'),
      deepLink: text(input.deepLink, fail, 'deepLink'),
    }
    ctx.dataset.deployments.add(created)
    return created
  },
}

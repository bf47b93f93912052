/**
 * @module simulator/deployments — `deploymentSearch` and `deployments` on APM entities and the
 * `changeTrackingCreateDeployment` mutation, with NerdGraph's own validation (schema descriptions:
 * `version` required, `timestamp` within the past or future 24 hours, text fields under 4,096
 * characters or trimmed with `…`, search `limit` 100 by default and 2,000 at most).
 */
import { GraphQLError } from 'graphql'
import type { Dataset } from './dataset'
import type { SimDeployment } from './deployment-store'
import type { Application } from './model'
import type { GraphContext } from './resolvers'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const MAX_TEXT = 4095
const TEXT_FIELDS = ['changelog', 'commit', 'deepLink', 'description', 'groupId', 'user'] as const

function invalid(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { errorClass: 'INVALID_INPUT' } })
}

interface SearchFilter {
  limit?: number | null
  query?: string | null
  timeWindow?: { startTime?: number | null; endTime?: number | null } | null
}

/** Fields resolved per entity (merged into entityValue). */
export function deploymentFields(dataset: Dataset, app: Application) {
  return {
    deploymentSearch({ filter }: { filter?: SearchFilter | null }) {
      if (filter?.query?.trim()) {
        // The simulator does not evaluate deployment queries; it refuses instead of guessing.
        throw invalid('The simulator does not support deployment search queries')
      }
      const end = filter?.timeWindow?.endTime ?? dataset.now()
      const start = filter?.timeWindow?.startTime ?? end - HOUR
      if (start > end) throw invalid('startTime must be before endTime')
      const limit = Math.min(Math.max(filter?.limit ?? 100, 0), 2000)
      const results = dataset.deployments
        .of(app.guid)
        .filter((d) => d.timestamp >= start && d.timestamp <= end)
        .slice(0, limit)
      return { results }
    },
    deployments({ timeWindow }: { timeWindow?: { startTime: number; endTime: number } | null }) {
      const end = timeWindow?.endTime ?? dataset.now()
      const start = timeWindow?.startTime ?? end - DAY
      return dataset.deployments
        .of(app.guid)
        .filter((d) => d.timestamp >= start && d.timestamp <= end)
        .map((d) => ({
          changelog: d.changelog,
          description: d.description,
          permalink: `https://one.newrelic.com/redirect/entity/${app.guid}`,
          revision: d.version,
          timestamp: d.timestamp,
          user: d.user,
        }))
    },
  }
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

/**
 * @module simulator/data/apm/deployments — `deploymentSearch` and `deployments` on APM entities, with
 * NerdGraph's own limits (schema descriptions: search `limit` 100 by default and 2,000 at most, the
 * last hour by default; `deployments` the last day by default).
 */
import { GraphQLError } from 'graphql'
import type { Dataset } from '../dataset'
import type { Application } from '../model'

const HOUR = 3_600_000
const DAY = 24 * HOUR

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
      const { deployments } = dataset
      const results = deployments
        .shown(deployments.of(app.guid))
        .filter((d) => d.timestamp >= start && d.timestamp <= end)
        .slice(0, limit)
      return { results }
    },
    deployments({ timeWindow }: { timeWindow?: { startTime: number; endTime: number } | null }) {
      const end = timeWindow?.endTime ?? dataset.now()
      const start = timeWindow?.startTime ?? end - DAY
      const { deployments } = dataset
      return deployments
        .shown(deployments.of(app.guid))
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

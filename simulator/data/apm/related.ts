/**
 * @module simulator/data/apm/related — `relatedEntities` of an APM application: the SERVES edges to
 * the browser applications it serves (schema `EntityRelationshipEdgeType.SERVES`: "The source is an
 * Application that serves the target Browser application"). No other relationship is modelled, so
 * any other filter answers none. The target's browser apdex T is the application's current one, the
 * setting `agentApplicationSettingsUpdate` changes (graphql/app-writes.ts).
 */
import type { Dataset } from '../dataset'
import type { Application } from '../model'

interface EdgeFilter {
  direction?: 'BOTH' | 'INBOUND' | 'OUTBOUND' | null
  relationshipTypes?: { include?: string[] | null; exclude?: string[] | null } | null
}

export function relatedEntities(
  dataset: Dataset,
  app: Application,
  { filter, limit }: { filter?: EdgeFilter | null; limit?: number | null }
) {
  const types = filter?.relationshipTypes
  const serves =
    filter?.direction !== 'INBOUND' &&
    (types?.include == null || types.include.includes('SERVES')) &&
    !types?.exclude?.includes('SERVES')
  const browser = serves
    ? dataset.resources.browser().filter((b) => b.servingApmApplicationId === app.id)
    : []
  const results = browser.slice(0, Math.max(0, limit ?? 2000)).map((b) => {
    const outline = dataset.entityByGuid(b.guid)?.value('outline') ?? null
    const apdexTarget = app.browserApdexT ?? b.apdexTarget
    return {
      __typename: 'EntityRelationshipDetectedEdge',
      createdAt: app.lastReportingChangeAt,
      type: 'SERVES',
      source: {
        accountId: app.accountId,
        guid: app.guid,
        entity: dataset.entityByGuid(app.guid)?.value('outline') ?? null,
      },
      target: {
        accountId: b.accountId,
        guid: b.guid,
        entity: outline && { ...outline, settings: { apdexTarget } },
      },
    }
  })
  return { nextCursor: null, results }
}

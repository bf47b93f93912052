/** @module simulator/graphql/schema-relationships — entity relationships: an APM application's
 * `relatedEntities`, as far as the SERVES edge to the browser application it serves (April 2025
 * schema). */

/** Joined into SCHEMA_SDL (schema.ts); every name and type exists in the real schema. */
export const RELATIONSHIPS_SDL = /* GraphQL */ `
  extend type ApmApplicationEntity {
    relatedEntities(
      cursor: String
      filter: EntityRelationshipEdgeFilter
      limit: Int
    ): EntityRelationshipRelatedEntitiesResult
  }

  input EntityRelationshipEdgeFilter {
    direction: EntityRelationshipEdgeDirection
    relationshipTypes: EntityRelationshipEdgeTypeFilter
  }

  enum EntityRelationshipEdgeDirection {
    BOTH
    INBOUND
    OUTBOUND
  }

  input EntityRelationshipEdgeTypeFilter {
    exclude: [EntityRelationshipEdgeType!]
    include: [EntityRelationshipEdgeType!]
  }

  enum EntityRelationshipEdgeType {
    CALLS
    SERVES
  }

  type EntityRelationshipRelatedEntitiesResult {
    nextCursor: String
    results: [EntityRelationshipEdge!]!
  }

  interface EntityRelationshipEdge {
    createdAt: EpochMilliseconds!
    source: EntityRelationshipVertex!
    target: EntityRelationshipVertex!
    type: EntityRelationshipEdgeType!
  }

  type EntityRelationshipDetectedEdge implements EntityRelationshipEdge {
    createdAt: EpochMilliseconds!
    source: EntityRelationshipVertex!
    target: EntityRelationshipVertex!
    type: EntityRelationshipEdgeType!
  }

  type EntityRelationshipVertex {
    accountId: Int!
    entity: EntityOutline
    guid: EntityGuid!
  }
`

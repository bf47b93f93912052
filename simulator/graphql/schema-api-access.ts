/** @module simulator/graphql/schema-api-access — `actor.apiAccess.keySearch`, the API-key search (April 2025 schema). */

/**
 * Joined into SCHEMA_SDL (schema.ts); every name and type exists in the real schema. Only user keys
 * are modelled: ApiAccessUserKey is the one implementation of ApiAccessKey here.
 */
export const API_ACCESS_SDL = /* GraphQL */ `
  scalar EpochSeconds

  extend type Actor {
    apiAccess: ApiAccessActorStitchedFields
  }

  type ApiAccessActorStitchedFields {
    keySearch(cursor: String, query: ApiAccessKeySearchQuery!): ApiAccessKeySearchResult
  }

  enum ApiAccessKeyType {
    INGEST
    USER
  }

  enum ApiAccessIngestKeyType {
    BROWSER
    LICENSE
  }

  input ApiAccessKeySearchQuery {
    scope: ApiAccessKeySearchScope
    types: [ApiAccessKeyType]!
  }

  input ApiAccessKeySearchScope {
    accountIds: [Int]
    ingestTypes: [ApiAccessIngestKeyType]
    userIds: [Int]
  }

  type ApiAccessKeySearchResult {
    count: Int
    keys: [ApiAccessKey]
    nextCursor: String
  }

  interface ApiAccessKey {
    createdAt: EpochSeconds
    id: ID
    key: String
    name: String
    notes: String
    obfuscatedKey: String
    type: ApiAccessKeyType
  }

  type ApiAccessUserKey implements ApiAccessKey {
    account: AccountReference
    accountId: Int
    createdAt: EpochSeconds
    id: ID
    key: String
    name: String
    notes: String
    obfuscatedKey: String
    type: ApiAccessKeyType
    user: UserReference
    userId: Int
  }

  type AccountReference {
    id: Int
    name: String
  }

  type UserReference {
    email: String
    gravatar: String
    id: Int
    name: String
  }
`

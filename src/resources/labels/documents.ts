/**
 * @module resources/labels/documents
 * GraphQL of labels: APM applications with their tags (one search page), their current tags by
 * GUID, and the tagging mutations, one alias per application (nerdgraph-tagging-api-tutorial).
 */
import { gql } from 'graphql-request'
import { searchPageDocument } from '../../entities/search-pages'

const tagged = 'guid accountId reporting alertSeverity tags { key values }'

export const labelSearchDocument = searchPageDocument(
  'LabelSearch',
  `${tagged} ... on ApmApplicationEntityOutline { applicationId }`
)

export const labelEntitiesSelection = `${tagged} ... on ApmApplicationEntity { applicationId }`

const built = new Map<string, string>()

/** `n` aliases `t0…` of `mutation`, each on its own `$g<i>` GUID, sharing `$tags`. */
export function taggingDocument(mutation: 'add' | 'delete', n: number): string {
  const key = `${mutation}${n}`
  let doc = built.get(key)
  if (doc) return doc
  const idx = Array.from({ length: n }, (_, i) => i)
  const vars = idx.map((i) => `$g${i}: EntityGuid!`).join(', ')
  const field =
    mutation === 'add'
      ? (i: number) =>
          `t${i}: taggingAddTagsToEntity(guid: $g${i}, tags: $tags) { errors { message type } }`
      : (i: number) =>
          `t${i}: taggingDeleteTagValuesFromEntity(guid: $g${i}, tagValues: $tags) { errors { message type } }`
  const tagsType = mutation === 'add' ? '[TaggingTagInput!]!' : '[TaggingTagValueInput!]!'
  const name = mutation === 'add' ? 'AddLabel' : 'DeleteLabel'
  doc = gql`
    mutation ${name}(${vars}, $tags: ${tagsType}) {
      ${idx.map(field).join('\n      ')}
    }
  `
  built.set(key, doc)
  return doc
}

export interface TaggedEntity {
  guid: string
  accountId: number
  reporting: boolean | null
  alertSeverity: string | null
  tags: { key: string; values: string[] }[] | null
  applicationId?: number
}

export interface LabelSearchData {
  actor: {
    entitySearch: {
      count: number
      results: { nextCursor: string | null; entities: TaggedEntity[] }
    } | null
  }
}

export type TaggingData = Record<
  string,
  { errors: { message: string; type: string }[] | null } | null
>

/**
 * @module upstream/nrql-rows
 * Reading NRQL result rows as the live NerdGraph answers them (answers recorded from the live
 * NerdGraph, gripinvest/gi-analytics `backend/tests/fixtures/new_relic/`, NG-recorded): a `FACET a`
 * row carries `facet` (the value) and `a`; a `FACET a, b` row carries only `facet`, an array in the
 * order of `metadata.facets`, and no `a` or `b`. So a FACET value is read by its position in
 * `metadata.facets`, never by the attribute's key, and every document that reads FACET rows asks
 * for `metadata { facets }` (schema `NrdbMetadata.facets`).
 */

type Row = Record<string, unknown>

/** The part of `Account.nrql` a FACET reader needs. */
export interface FacetedNrql {
  results: Row[] | null
  metadata?: { facets?: readonly (string | null)[] | null } | null
}

/** The GraphQL selection of every NRQL field whose FACET rows are read. */
export const facetedNrqlFields = 'results metadata { facets }'

/** The position of FACET attribute `name` in `metadata.facets`, or -1. */
export function facetPosition(metadata: FacetedNrql['metadata'], name: string): number {
  return metadata?.facets?.indexOf(name) ?? -1
}

/**
 * The FACET value at `position` of `row`: `facet[position]` when `facet` is an array (several
 * attributes), `facet` itself at position 0 (one attribute); undefined otherwise.
 * @example facetAt({ facet: ['web-01', 'i-1'] }, 1) // 'i-1'
 */
export function facetAt(row: Row, position: number): unknown {
  const facet = row['facet']
  if (Array.isArray(facet)) return position >= 0 ? facet[position] : undefined
  return position === 0 ? facet : undefined
}

/** The value of FACET attribute `name` on `row`, by its position in `metadata.facets`. */
export function facetValue(row: Row, metadata: FacetedNrql['metadata'], name: string): unknown {
  return facetAt(row, facetPosition(metadata, name))
}

/**
 * The rows of `field` with the value of each FACET attribute of `names` read by position, as a
 * plain object beside the row (`row`), for readers that take several attributes of each row.
 */
export function facetedRows<const N extends string>(
  field: FacetedNrql | null | undefined,
  names: readonly N[]
): { row: Row; facet: Record<N, unknown> }[] {
  const positions = names.map((n) => facetPosition(field?.metadata, n))
  return (field?.results ?? []).map((row) => ({
    row,
    facet: Object.fromEntries(names.map((n, i) => [n, facetAt(row, positions[i]!)])) as Record<
      N,
      unknown
    >,
  }))
}

/** @module simulator/nrql/compare Orderings for uniques() values and facet groups. */
import type { AttributeValue } from './attributes'

/** Code-unit string order (not locale-aware), as a comparator. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Ascending facet-value order: numbers numerically, strings by code unit, nulls last. */
export function compareValues(a: AttributeValue, b: AttributeValue): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return compareStrings(String(a), String(b))
}

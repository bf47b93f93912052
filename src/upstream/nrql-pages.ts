/**
 * @module upstream/nrql-pages
 * A full NRQL page is detected and split until complete, never read as the whole answer. NRDB
 * answers at most 5,000 facets (`LIMIT MAX`) and 10,000 values of a `uniques()` (NRQL-syntax, the
 * `LIMIT` clause and `uniques()`); past them it answers a subset ("a subset of facet values is
 * selected", the `FACET` clause; "the first set of unique attribute values discovered", `uniques()`).
 * A cut shows as `otherResult`, "the aggregates representing the events not contained in an
 * individual `results` facet" (schema `NrdbResultContainer.otherResult`), as facets reaching
 * `LIMIT MAX`, or as a `uniques()` shorter than the `uniqueCount()` beside it. A cut answer is asked
 * again in two halves of the attribute it is split by (`attribute < pivot`, `attribute >= pivot`,
 * the pivot the median of the values it carried: NRQL's WHERE takes `<` and `>=`, NRQL-syntax), each
 * half again while it is cut, all halves of a round in one request, at most `maxPageQueries` queries.
 * Past that, a 502 rather than a partial list (docs/errors-and-limits.md).
 */
import { gql } from 'graphql-request'
import { V2Error } from '../core/errors'
import { quote } from '../core/nrql'
import type { FacetedNrql } from './nrql-rows'

/** NRDB's caps (NRQL-syntax): facets of `LIMIT MAX`, values of one `uniques()`. */
export const limitMax = 5000
export const uniquesMax = 10_000

/** Queries one completion may send beyond the first (halves of 100,000 names at 10,000 a query
 * take about 30). */
export const maxPageQueries = 64

export const titleTooLarge =
  'NerdGraph cut the answer at its size caps and v2bridge could not complete it within ' +
  `${maxPageQueries} queries; narrow the call`

/** The selection of an NRQL field whose cut is checked. */
export const pagedNrqlFields = 'results metadata { facets } otherResult'

export interface PagedNrql extends FacetedNrql {
  otherResult?: unknown
}

type Value = string | number

/** [lo, hi) of the split attribute; an absent end is open. */
export interface Range {
  lo?: Value
  hi?: Value
}

/** WHERE clauses that keep `attribute` in `range` (`quote` for strings, src/core/nrql.ts). */
export function rangeClauses(attribute: string, range: Range): string[] {
  const literal = (v: Value) => (Number.isSafeInteger(v) ? String(v) : quote(v))
  return [
    ...(range.lo === undefined ? [] : [`${attribute} >= ${literal(range.lo)}`]),
    ...(range.hi === undefined ? [] : [`${attribute} < ${literal(range.hi)}`]),
  ]
}

const order = (a: Value, b: Value) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : a < b ? -1 : a > b ? 1 : 0

/** The two halves of `range` around the median of `seen`, or null when `seen` has fewer than two
 * values (no pivot leaves both halves smaller). */
export function splitRange(range: Range, seen: readonly Value[]): [Range, Range] | null {
  const sorted = [...new Set(seen)].sort(order)
  if (sorted.length < 2) return null
  const pivot = sorted[sorted.length >> 1]!
  return [
    { ...range, hi: pivot },
    { ...range, lo: pivot },
  ]
}

/** Whether an aggregate carries events: a number other than 0, a non-empty list, or an object or
 * list (TIMESERIES) holding one. */
function carries(value: unknown): boolean {
  if (typeof value === 'number') return value !== 0
  if (typeof value === 'string' || typeof value === 'boolean') return true
  if (Array.isArray(value)) return value.length > 0
  if (value && typeof value === 'object') return Object.values(value).some(carries)
  return false
}

/** Pure: whether a FACET answer was cut: `otherResult` carries events, or its facets reached
 * `LIMIT MAX`. */
export function facetsCut(field: PagedNrql | null | undefined): boolean {
  if (!field) return false
  const facets = new Set((field.results ?? []).map((r) => JSON.stringify(r['facet'] ?? null)))
  return facets.size >= limitMax || carries(field.otherResult)
}

/** Pure: whether a `uniques(…, asked)` list was cut: it reached `asked`, or it is shorter than the
 * `uniqueCount()` beside it. */
export function uniquesCut(values: unknown, count: unknown, asked: number): boolean {
  const length = Array.isArray(values) ? values.length : 0
  return length >= asked || (typeof count === 'number' && count > length)
}

/** What a completion needs of one query family. */
export interface Pages {
  /** The first answer, over the whole range. */
  first: PagedNrql | null | undefined
  /** Whether an answer was cut. */
  cut: (field: PagedNrql) => boolean
  /** The split attribute's values an answer carried. */
  seen: (field: PagedNrql) => Value[]
  /** One request answering one NRQL per range, in order. */
  run: (ranges: Range[]) => Promise<(PagedNrql | null | undefined)[]>
}

/** The answers that together hold the whole answer: `first` alone when it was not cut. */
export async function completePages(pages: Pages): Promise<PagedNrql[]> {
  const done: PagedNrql[] = []
  let pending: [Range, PagedNrql | null | undefined][] = [[{}, pages.first]]
  let sent = 0
  while (pending.length) {
    const next: Range[] = []
    for (const [range, field] of pending) {
      if (!field) continue
      if (!pages.cut(field)) {
        done.push(field)
        continue
      }
      const halves = splitRange(range, pages.seen(field))
      if (!halves) throw new V2Error(502, titleTooLarge)
      next.push(...halves)
    }
    if (!next.length) break
    sent += next.length
    if (sent > maxPageQueries) throw new V2Error(502, titleTooLarge)
    const answers = await pages.run(next)
    pending = next.map((range, i) => [range, answers[i]])
  }
  return done
}

/** Pure: the rows of several complete FACET answers as one answer (their facets are disjoint). */
export function mergedFacets(parts: readonly PagedNrql[]): FacetedNrql | null {
  if (!parts.length) return null
  return { results: parts.flatMap((p) => p.results ?? []), metadata: parts[0]!.metadata ?? null }
}

/** Sends one GraphQL document (the request's NerdGraph client, or a query about one application). */
export type SendNrql = <T>(
  document: string,
  variables: Record<string, unknown>
) => Promise<{ data: T }>

/** One request answering `nrql`, queries of one account, in order. */
export async function runParts(send: SendNrql, accountId: number, nrql: readonly string[]) {
  const { data } = await send<NrqlPartsData>(
    nrqlPartsDocument(nrql.length),
    nrqlPartsVariables(accountId, nrql)
  )
  return nrqlParts(data, nrql.length)
}

/** A WHERE clause per attribute of a FACET row, to ask about that row alone (numbers as safe
 * integers, strings through `quote`). */
export function rowClauses(facet: Record<string, unknown>): string[] | null {
  const out: string[] = []
  for (const [name, value] of Object.entries(facet)) {
    if (typeof value === 'string') out.push(`${name} = ${quote(value)}`)
    else if (Number.isSafeInteger(value)) out.push(`${name} = ${value as number}`)
    else return null
  }
  return out
}

const partsDocuments = new Map<number, string>()

/** `n` NRQL queries of one account as aliases `q0`, `q1`… of one document, each with its cut
 * visible (`pagedNrqlFields`). */
export function nrqlPartsDocument(n: number): string {
  let document = partsDocuments.get(n)
  if (document) return document
  const names = Array.from({ length: n }, (_, i) => `q${i}`)
  document = gql`
    query NrqlParts($accountId: Int!, ${names.map((q) => `$${q}: Nrql!`).join(', ')}) {
      actor {
        account(id: $accountId) {
          ${names.map((q) => `${q}: nrql(query: $${q}, timeout: 30) { ${pagedNrqlFields} }`).join('\n          ')}
        }
      }
    }
  `
  partsDocuments.set(n, document)
  return document
}

export interface NrqlPartsData {
  actor: { account: Record<string, PagedNrql | null> | null }
}

/** The variables of `nrqlPartsDocument(nrql.length)`. */
export function nrqlPartsVariables(accountId: number, nrql: readonly string[]) {
  return { accountId, ...Object.fromEntries(nrql.map((q, i) => [`q${i}`, q])) }
}

/** The answers of a `nrqlPartsDocument` in query order. */
export function nrqlParts(data: NrqlPartsData, n: number): (PagedNrql | null | undefined)[] {
  return Array.from({ length: n }, (_, i) => data.actor.account?.[`q${i}`])
}

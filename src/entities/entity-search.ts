/**
 * @module entities/entity-search
 * The entity-search query of a v2 list (applications, key transactions, browser and mobile
 * applications), and the plain-substring check of its `filter[name]`.
 */
import { quote, quoteList } from '../core/nrql'

export interface SearchFilters {
  ids?: number[] | undefined
  name?: string | undefined
  languages?: string[] | undefined
}

/** `domain = … AND type = …`, then the account, `filter[ids]` → `domainId IN`, `filter[language]` →
 * `language IN`, `filter[name]` → `name LIKE` (candidates; `nameMatches` decides). */
export function entitySearchQuery(
  kind: { domain: string; type: string },
  f: SearchFilters,
  accountId?: number
): string {
  const clauses = [`domain = ${quote(kind.domain)}`, `type = ${quote(kind.type)}`]
  if (accountId !== undefined) clauses.push(`accountId = ${quote(accountId)}`)
  if (f.ids?.length) clauses.push(`domainId IN ${quoteList(f.ids)}`)
  if (f.languages?.length) clauses.push(`language IN ${quoteList(f.languages)}`)
  if (f.name) clauses.push(`name LIKE ${quote(`%${f.name}%`)}`)
  return clauses.join(' AND ')
}

/** v2's `filter[name]` ("Filter by name", SW11) is a plain case-insensitive substring match
 * [UNCONFIRMED proposal]. Entity search's LIKE reads `%` and `_` as wildcards, so it can only match
 * more: each entity is re-checked here, as metric names are (src/resources/metrics/names.ts). */
export function nameMatches(filter: string | undefined, name: string): boolean {
  return !filter || name.toLowerCase().includes(filter.toLowerCase())
}

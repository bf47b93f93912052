/**
 * @module applications/plan
 * v2 list parameters → entity-search query and page (pure). Filters map as D-migrate says:
 * `filter[name]` → `name LIKE`, `filter[ids]` → `domainId IN`, `filter[language]` → `language IN`.
 */
import { V2Error } from '../errors'
import { quote, quoteList } from '../nrql'
import type { V2Params } from '../params'

export interface ApplicationFilters {
  name?: string
  ids?: number[]
  languages?: string[]
  host?: string
}

/** Comma-separated (GO, AMB, REL), percent-encoded or repeated keys (PGN), `filter[id]` as an alias
 * (D-hostids). */
export function idList(p: V2Params, ...names: string[]): number[] | undefined {
  const raw = names.flatMap((n) => p.list(n)).flatMap((v) => v.split(','))
  const values = raw.map((v) => v.trim()).filter((v) => v !== '')
  if (values.length === 0) return undefined
  const bad = values.find((v) => !/^\d{1,15}$/.test(v))
  if (bad !== undefined) {
    throw new V2Error(422, `Invalid ${names[0]}: expected comma-separated integer IDs`)
  }
  return [...new Set(values.map(Number))]
}

export function applicationFilters(p: V2Params): ApplicationFilters {
  const f: ApplicationFilters = {}
  const name = p.get('filter[name]')?.trim()
  if (name) f.name = name
  const ids = idList(p, 'filter[ids]', 'filter[id]')
  if (ids) f.ids = ids
  // AMB sends `filter[language]=java,ruby`; match any of them.
  const languages = p
    .list('filter[language]')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean)
  if (languages.length) f.languages = [...new Set(languages)]
  const host = p.get('filter[host]')?.trim()
  if (host) f.host = host
  return f
}

/** Entity-search query for APM applications; `ids` narrows to IDs already known to match. */
export function applicationSearchQuery(
  f: ApplicationFilters,
  accountId: number | undefined,
  ids: number[] | undefined = f.ids
): string {
  const clauses = [`domain = 'APM'`, `type = 'APPLICATION'`]
  if (accountId !== undefined) clauses.push(`accountId = ${quote(accountId)}`)
  if (ids?.length) clauses.push(`domainId IN ${quoteList(ids)}`)
  if (f.languages?.length) clauses.push(`language IN ${quoteList(f.languages)}`)
  if (f.name) clauses.push(`name LIKE ${quote(`%${f.name}%`)}`)
  return clauses.join(' AND ')
}

/** v2's `filter[name]` ("Filter by name", SW11) is a plain case-insensitive substring match
 * [UNCONFIRMED proposal]. The entity search's LIKE reads `%` and `_` as wildcards, so it can only match more:
 * with either in the filter, each entity is re-checked here, as metric names are (src/metrics/names.ts). */
export function nameMatches(filter: string | undefined, name: string): boolean {
  if (!filter || !/[%_]/.test(filter)) return true
  return name.toLowerCase().includes(filter.toLowerCase())
}

/**
 * @module resources/applications/plan
 * v2 list parameters → entity-search query and page (pure). Filters map as D-migrate says:
 * `filter[name]` → `name LIKE`, `filter[ids]` → `domainId IN`, `filter[language]` → `language IN`.
 */
import { entitySearchQuery } from '../../entities/entity-search'
import { idList, type V2Params } from '../../http/params'

export interface ApplicationFilters {
  name?: string
  ids?: number[]
  languages?: string[]
  host?: string
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
  return entitySearchQuery(applicationKind, { ...f, ids }, accountId)
}

const applicationKind = { domain: 'APM', type: 'APPLICATION' } as const

/** @module simulator/graphql/search — `actor.entitySearch`: filter, sort and cursor pages of 200. */
import { GraphQLError } from 'graphql'
import { decodeOffset, encodeOffset } from '../data/cursor'
import type { Dataset } from '../data/dataset'
import type { SimEntity } from '../data/entity'
import { hashString } from '../data/prng'
import { compileSearch, SearchSyntaxError } from './entity-search'

/** Entity search returns 200 entities per page [issue: newrelic/newrelic-client-go#1068]. */
export const SEARCH_PAGE = 200

type Criterion = 'ALERT_SEVERITY' | 'DOMAIN' | 'MOST_RELEVANT' | 'NAME' | 'REPORTING' | 'TYPE'
interface SortArg {
  attribute?: Criterion | null
  direction?: 'ASC' | 'DESC' | null
  tag?: string | null
}
export interface SearchArgs {
  query?: string | null
  sortBy?: (Criterion | null)[] | null
  sortByWithDirection?: (SortArg | null)[] | null
  options?: { limit?: number | null } | null
}

const SEVERITY_ORDER = ['CRITICAL', 'WARNING', 'NOT_ALERTING', 'NOT_CONFIGURED']

/** Sort keys per EntitySearchSortCriteria; MOST_RELEVANT falls back to the name. */
const SORT_KEYS: Record<Criterion, (e: SimEntity) => string | number> = {
  ALERT_SEVERITY: (e) => SEVERITY_ORDER.indexOf(e.alertSeverity),
  DOMAIN: (e) => e.domain,
  MOST_RELEVANT: (e) => e.name.toLowerCase(),
  NAME: (e) => e.name.toLowerCase(),
  REPORTING: (e) => (e.reporting ? 0 : 1),
  TYPE: (e) => e.type,
}

function tagKey(tag: string): (e: SimEntity) => string {
  return (e) => e.tags().find((t) => t.key === tag)?.values[0] ?? ''
}

function comparator(args: SearchArgs): (a: SimEntity, b: SimEntity) => number {
  const withDirection = (args.sortByWithDirection ?? []).filter((s): s is SortArg => s !== null)
  const criteria: SortArg[] = withDirection.length
    ? withDirection
    : (args.sortBy ?? ['NAME']).flatMap((attribute) => (attribute ? [{ attribute }] : []))
  const keys = criteria.map((c) => ({
    key: c.tag ? tagKey(c.tag) : SORT_KEYS[c.attribute ?? 'NAME'],
    sign: c.direction === 'DESC' ? -1 : 1,
  }))
  keys.push({ key: SORT_KEYS.NAME, sign: 1 }, { key: (e) => e.guid, sign: 1 })
  return (a, b) => {
    for (const { key, sign } of keys) {
      const x = key(a)
      const y = key(b)
      if (x !== y) return x < y ? -sign : sign
    }
    return 0
  }
}

/** The EntitySearch value; `results(cursor)` pages through the sorted matches. */
export function entitySearch(dataset: Dataset, visible: ReadonlySet<number>, args: SearchArgs) {
  let matches: (e: SimEntity) => boolean
  try {
    matches = compileSearch(args.query)
  } catch (err) {
    if (!(err instanceof SearchSyntaxError)) throw err
    throw new GraphQLError(`Invalid entity search query: ${err.message}`, {
      extensions: { errorClass: 'INVALID_INPUT' },
    })
  }
  const found = dataset
    .entities()
    .filter((e) => visible.has(e.accountId) && matches(e))
    .sort(comparator(args))
  const limit = args.options?.limit
  const size = limit != null && limit > 0 ? Math.min(limit, SEARCH_PAGE) : SEARCH_PAGE
  const prefix = `search:${hashString(JSON.stringify(args)).toString(36)}`
  return {
    count: found.length,
    query: args.query ?? '',
    results: ({ cursor }: { cursor?: string | null }) => {
      const offset = cursor ? decodeOffset(prefix, cursor) : 0
      const next = offset + size
      return {
        entities: found.slice(offset, next).map((e) => e.value('outline')),
        nextCursor: next < found.length ? encodeOffset(prefix, next) : null,
      }
    },
  }
}

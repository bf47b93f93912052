/**
 * @module resources/metrics/names
 * Metric names of an application, host or instance (D-names; D-migrate's `uniques()` query): one NRQL
 * `uniques()` per (key, scope, filter), more when NRDB cut it at its cap (src/upstream/nrql-pages.ts),
 * cached because names are long-lived, then paged 1000 at a time.
 */
import type { Context } from 'hono'
import { cachedOrLoad } from '../../entities/background'
import type { Env } from '../../http/env'
import type { PageLinks } from '../../http/link-header'
import { queryApplication } from '../../entities/resolve'
import type { MetricNamesData } from './documents'
import { familyOf, listedValues } from './families'
import { metricNamesLimit, planMetricNames, type MetricScope } from './plan'
import { completePages, runParts, uniquesCut } from '../../upstream/nrql-pages'
import type { FacetedNrql } from '../../upstream/nrql-rows'
import { encodeCursor, type MetricNamesRequest } from './request'
import { defineCache } from '../../core/cache'

const minute = 60 * 1000

/** per scope and filter: metric names; new names come with deployments, so 15 minutes, then
 * refreshed in the background for 45 more. */
export const metricNamesCache = defineCache<string[]>('metricNames', {
  freshMs: 15 * minute,
  staleMs: 45 * minute,
  maxBytes: 16 * 2 ** 20,
})

/** 1000 names per page [CONFIRMED: the older copy of New Relic docs "Pagination for API output"]. */
export const namesPageSize = 1000

function cacheKey(scope: MetricScope, filter: string | undefined): string {
  return JSON.stringify([scope.accountId, scope.guid, scope.host, scope.instanceName, filter])
}

/** Every metric name of the scope when the cache holds the unfiltered list, else null. */
export function cachedMetricNames(c: Context<Env>, scope: MetricScope): Set<string> | null {
  const hit = c.get('caches').of(metricNamesCache).get(c.get('keyHash'), cacheKey(scope, undefined))
  return hit ? new Set(hit) : null
}

/** The scope's metric names matching `filter`, sorted; from the per-key cache (a stale list is
 * refreshed in the background, src/entities/background.ts). */
export async function listMetricNames(
  c: Context<Env>,
  scope: MetricScope,
  filter: string | undefined
): Promise<string[]> {
  return cachedOrLoad(
    c,
    c.get('caches').of(metricNamesCache),
    cacheKey(scope, filter),
    async () => {
      const now = Date.now()
      const plan = planMetricNames(scope, filter, now)
      const { data } = await queryApplication<MetricNamesData>(c, plan.document, plan.variables)
      // Past 10,000 names (or fewer: `count` says) the list is cut: asked again in halves.
      const parts = await completePages({
        first: data.actor.account?.nrql,
        cut: (field) => uniquesCut(listOf(field), field.results?.[0]?.['count'], metricNamesLimit),
        seen: (field) => listOf(field),
        run: (ranges) =>
          runParts(
            (document, variables) => queryApplication(c, document, variables),
            scope.accountId,
            ranges.map((r) => planMetricNames(scope, filter, now, r).nrql)
          ),
      })
      return namesFrom(parts.flatMap(listOf), filter)
    }
  )
}

/** The names of one `uniques()` answer. */
const listOf = (field: FacetedNrql): string[] => {
  const list = field.results?.[0]?.['names']
  return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : []
}

/** Pure: the `uniques()` lists, without duplicates, re-checked as a plain case-sensitive substring
 * match (the upstream LIKE treats `%` and `_` as wildcards), in code-unit order for stable pages. */
export function namesFrom(list: readonly string[], filter: string | undefined): string[] {
  return [...new Set(list)]
    .filter((n) => !filter || n.includes(filter))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/**
 * Pure: one page of `{ metrics: [{ name, values }] }` and its links. Without `page` the caller pages by
 * cursor (`rel="next"` carries `cursor=`, which MRF requires; none on the last page); with `page` it
 * gets page links. A page past the end is an empty list (Harness `NewRelicRestClient` pages until
 * an empty list).
 */
export function toV2MetricNames(names: readonly string[], request: MetricNamesRequest) {
  const offset = (request.page - 1) * namesPageSize
  const slice = names.slice(offset, offset + namesPageSize)
  const metrics = slice.map((name) => ({ name, values: listedValues(familyOf(name)) }))
  const more = offset + namesPageSize < names.length
  const links: PageLinks = request.cursorMode
    ? { page: request.page, nextCursor: more ? encodeCursor(offset + namesPageSize) : null }
    : { page: request.page, lastPage: Math.max(1, Math.ceil(names.length / namesPageSize)) }
  return { body: { metrics }, links }
}

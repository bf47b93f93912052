/**
 * @module resources/applications/members
 * What a list page needs beyond entity search, for every application of an account: hosts and
 * instances (per-item `links`, D-hostids) and browser figures. Two NRQL per account, cached per
 * key for a minute; a page that misses the cache carries the missing queries in its own document,
 * so it still costs one NerdGraph request.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import {
  membersNrql,
  membershipWindow,
  topologyFrom,
  type MemberRow,
  type Topology,
} from '../../entities/topology'
import { browserNrql, browserSummariesFrom, summaryWindow, type BrowserSummary } from './browser'
import { defineCache } from '../../core/cache'

const minute = 60 * 1000

/** per account: members and browser figures of every application, for list pages. Fresh for
 * 5 minutes, past any exporter's scrape interval (mrf/newrelic-exporter and ContaAzul's default to
 * a minute), then answered while refreshed in the background for 25 more. */
export const insightsCache = defineCache<AccountInsights>('insights', {
  freshMs: 5 * minute,
  staleMs: 25 * minute,
  maxBytes: 16 * 2 ** 20,
})

export interface AccountInsights {
  topologies: Map<number, Topology>
  browser: Map<number, BrowserSummary>
}

/** The account's insights, fresh or stale (a stale one is refreshed by `refreshStaleInsights` in
 * src/resources/applications/list.ts, src/core/cache.ts). */
export function cachedInsights(c: Context<Env>, accountId: number) {
  return c.get('caches').of(insightsCache).lookup(c.get('keyHash'), String(accountId))?.value
}

export function insightsNrql(now: number): { members: string; browser: string } {
  return {
    members: membersNrql('account', membershipWindow(now)),
    browser: browserNrql('account', summaryWindow(now)),
  }
}

/** Pure: `FACET appId, host` rows → topology per application. */
export function topologiesFrom(rows: readonly MemberRow[]): Map<number, Topology> {
  const byApp = new Map<number, MemberRow[]>()
  for (const row of rows) {
    const appId = Number(row.appId)
    if (!Number.isSafeInteger(appId)) continue
    const list = byApp.get(appId)
    if (list) list.push(row)
    else byApp.set(appId, [row])
  }
  return new Map([...byApp].map(([appId, appRows]) => [appId, topologyFrom(appId, appRows)]))
}

export function rememberInsights(
  c: Context<Env>,
  accountId: number,
  members: readonly MemberRow[],
  browser: readonly Record<string, unknown>[]
): AccountInsights {
  const insights = { topologies: topologiesFrom(members), browser: browserSummariesFrom(browser) }
  c.get('caches').of(insightsCache).set(c.get('keyHash'), String(accountId), insights)
  return insights
}

/**
 * @module applications/members
 * What a list page needs beyond entity search, for every application of an account: hosts and
 * instances (per-item `links`, D-hostids) and browser figures. Two NRQL per account, cached per
 * key for a minute; a page that misses the cache carries the missing queries in its own document,
 * so it still costs one NerdGraph request.
 */
import type { Context } from 'hono'
import type { Env } from '../env'
import {
  membersNrql,
  membershipWindow,
  topologyFrom,
  type MemberRow,
  type Topology,
} from '../topology'
import { browserNrql, browserSummariesFrom, summaryWindow, type BrowserSummary } from './browser'

export interface AccountInsights {
  topologies: Map<number, Topology>
  browser: Map<number, BrowserSummary>
}

/** The account's insights, fresh or stale (a stale one is refreshed by `refreshStaleInsights` in
 * src/applications/list.ts, src/cache.ts). */
export function cachedInsights(c: Context<Env>, accountId: number) {
  return c.get('caches').insights.lookup(c.get('keyHash'), String(accountId))?.value
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
  c.get('caches').insights.set(c.get('keyHash'), String(accountId), insights)
  return insights
}

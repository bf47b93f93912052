/**
 * @module resources/applications/members
 * What a list page needs beyond entity search, for every application of an account: hosts and
 * instances (per-item `links`, D-hostids), browser figures, NRQL conditions (`links.alert_policy`)
 * and the browser applications that applications not reporting serve. Two NRQL and one conditions
 * search per account and one entity search, cached per key;
 * a page that misses the cache carries the missing queries in its own document, so it still costs
 * one NerdGraph request (more only past 200 such browser applications).
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import {
  completeMembers,
  memberRows,
  membersNrql,
  membershipWindow,
  topologyFrom,
  type MemberRow,
  type Topology,
} from '../../entities/topology'
import {
  completePages,
  facetsCut,
  mergedFacets,
  rangeClauses,
  runParts,
  type PagedNrql,
  type SendNrql,
} from '../../upstream/nrql-pages'
import { browserNrql, browserSummariesFrom, summaryWindow, type BrowserSummary } from './browser'
import { defineCache } from '../../core/cache'
import { quoteList } from '../../core/nrql'
import type { ConditionsField, ServedBrowser } from './documents'
import { alertPolicies, conditionsFrom, type AlertPolicies } from './alert-policy'
import type { Served } from './reshape'
import { lastEventNrql, lastEventsFrom } from '../../entities/last-report'

const minute = 60 * 1000

/** per account: members and browser figures of every application, for list pages. Used only in
 * the minute whose windows they cover: v2's list and show carry the same summary, so a list page
 * answers the minutes a show of the same time answers (`cachedInsights`); a page of a later minute
 * carries the account-wide queries in its own request (list.ts). */
export const insightsCache = defineCache<AccountInsights>('insights', {
  freshMs: minute,
  maxBytes: 16 * 2 ** 20,
})

export interface AccountInsights {
  /** End of the summary window they cover (`summaryWindow`), epoch ms. */
  until: number
  topologies: Map<number, Topology>
  browser: Map<number, BrowserSummary>
  /** APM application ID → the browser application it serves, for those that do not report. */
  served: Map<number, Served>
  /** The account's NRQL conditions by the applications they name, for `links.alert_policy`
   * (alert-policy.ts). */
  policies: AlertPolicies
  /** Application ID → its newest `Transaction` event (src/entities/last-report.ts). */
  lastEvents: Map<number, number>
}

/** The account's insights when they cover the windows of `now` (the same minute), else undefined. */
export function cachedInsights(c: Context<Env>, accountId: number, now: number) {
  const hit = c.get('caches').of(insightsCache).get(c.get('keyHash'), String(accountId))
  return hit?.until === summaryWindow(now)[1] ? hit : undefined
}

export function insightsNrql(now: number): { members: string; browser: string; lastEvent: string } {
  return {
    members: membersNrql('account', membershipWindow(now)),
    browser: browserNrql('account', summaryWindow(now)),
    lastEvent: lastEventNrql('account', membershipWindow(now)[1]),
  }
}

/** Browser applications that do not report, in these accounts: an application that does not report
 * has no browser data to tell its browser settings (which v2 shows all the same: settings, v2
 * explorer AppSettingsResponse), and entity search outlines have no relationships, but a browser
 * application names the one serving it (schema `BrowserApplicationEntityOutline`
 * `servingApmApplicationId`). */
export function servedSearchQuery(accounts: readonly number[]): string {
  return (
    `domain = 'BROWSER' AND type = 'APPLICATION' AND accountId IN ${quoteList(accounts)} ` +
    `AND reporting = 'false'`
  )
}

/** Pure: browser outlines → per account, per APM application served. */
export function servedByAccount(
  browsers: readonly ServedBrowser[]
): Map<number, Map<number, Served>> {
  const out = new Map<number, Map<number, Served>>()
  for (const b of browsers) {
    if (typeof b.servingApmApplicationId !== 'number') continue
    const t = b.settings?.apdexTarget
    const apps = out.get(b.accountId) ?? new Map<number, Served>()
    apps.set(b.servingApmApplicationId, { apdexT: typeof t === 'number' ? t : undefined })
    out.set(b.accountId, apps)
  }
  return out
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

/** The first answers of `insightsNrql(now)` for one account, and its conditions. */
export interface InsightAnswers {
  members?: PagedNrql | null
  browser?: PagedNrql | null
  lastEvent?: PagedNrql | null
  conditions?: ConditionsField | null
}

/** Remembers the account's insights from the first answers of `insightsNrql(now)`, each asked
 * again in parts first when NRDB cut it (src/upstream/nrql-pages.ts). */
export async function rememberInsights(
  c: Context<Env>,
  now: number,
  accountId: number,
  { members, browser, lastEvent, conditions }: InsightAnswers,
  served: Map<number, Served> = new Map()
): Promise<AccountInsights> {
  const send: SendNrql = (document, variables) => c.get('nerdgraph').query(document, variables)
  const window = summaryWindow(now)
  const until = membershipWindow(now)[1]
  const byApp = (
    first: PagedNrql | null | undefined,
    seen: (field: PagedNrql) => number[],
    nrql: (clauses: string[]) => string
  ) =>
    completePages({
      first,
      cut: facetsCut,
      seen,
      run: (ranges) =>
        runParts(
          send,
          accountId,
          ranges.map((r) => nrql(rangeClauses('appId', r)))
        ),
    })
  const allEvents = byApp(
    lastEvent,
    (field) => [...lastEventsFrom(field).keys()],
    (clauses) => lastEventNrql('account', until, clauses)
  )
  const allMembers = completeMembers(send, accountId, 'account', membershipWindow(now), members)
  const allBrowser = byApp(
    browser,
    (field) => [...browserSummariesFrom(field).keys()],
    (clauses) => browserNrql('account', window, clauses)
  )
  const insights = {
    until: window[1],
    topologies: topologiesFrom(memberRows(await allMembers)),
    browser: browserSummariesFrom(mergedFacets(await allBrowser)),
    served,
    policies: alertPolicies(conditionsFrom(conditions)),
    lastEvents: lastEventsFrom(mergedFacets(await allEvents)),
  }
  c.get('caches').of(insightsCache).set(c.get('keyHash'), String(accountId), insights)
  return insights
}

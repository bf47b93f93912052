/**
 * @module resources/applications/list
 * `GET /v2/applications`: one entity-search page per v2 page (both are 200 long: GRAF1 PR #35 and
 * GRAF2 PR #1 "200 apps max per page"; entity search pages by 200), cursors remembered per key and
 * query (src/entities/search-pages.ts) so walking pages in order costs one NerdGraph request per page.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import type { NerdGraph } from '../../upstream/nerdgraph'
import { linkHeader } from '../../http/link-header'
import { isForbiddenAccount, rememberApplication } from '../../entities/resolve'
import { applicationLinkTemplates } from '../../../mappings/link-templates'
import { listAccount, visibleAccounts } from '../../entities/accounts'
import { lastPage, learnPage, searchCursor } from '../../entities/search-pages'
import {
  insightsDocument,
  listApplicationsDocument,
  servedBrowsersDocument,
  type AccountAliases,
  type InsightsData,
  type ListApplicationsData,
  type ServedSearch,
} from './documents'
import {
  cachedInsights,
  insightsNrql,
  rememberInsights,
  servedByAccount,
  servedSearchQuery,
  type AccountInsights,
} from './members'
import { pageParam } from '../../http/params'
import { nameMatches } from '../../entities/entity-search'
import { applicationFilters, applicationSearchQuery } from './plan'
import { toV2Application } from './reshape'
import { policyOf } from './alert-policy'
import { withOwnUpdates } from './own-updates'
import { rememberShown } from './shown'

/** Insights for every account, fetching the missing ones in one request (used by `filter[host]`). */
async function allInsights(c: Context<Env>, accounts: number[], now: number) {
  const missing = accounts.filter((a) => !cachedInsights(c, a, now))
  if (missing.length) {
    const nerdgraph = c.get('nerdgraph')
    const vars = insightVars(missing, now)
    const { data } = await nerdgraph.query<InsightsData>(insightsDocument(missing.length), vars)
    await storeInsights(c, now, nerdgraph, missing, vars, data)
  }
  return accounts.map((a) => cachedInsights(c, a, now)!)
}

function insightVars(accounts: number[], now: number): Record<string, unknown> {
  if (accounts.length === 0) return {}
  const q = insightsNrql(now)
  return Object.fromEntries([
    ...accounts.flatMap((a, i) => [
      [`a${i}`, a],
      [`m${i}`, q.members],
      [`b${i}`, q.browser],
      [`e${i}`, q.lastEvent],
    ]),
    ['served', servedSearchQuery(accounts)],
  ])
}

/** Every page of the `served` search: the first came with the insights, the rest (past 200 browser
 * applications that do not report) one request each. */
async function servedBrowsers(nerdgraph: NerdGraph, query: unknown, data: ServedSearch) {
  const out = [...(data.served?.results.entities ?? [])]
  for (let cursor = data.served?.results.nextCursor; cursor;) {
    const vars = { served: query, servedCursor: cursor }
    const page = (await nerdgraph.query<InsightsData>(servedBrowsersDocument, vars)).data.actor
    out.push(...(page.served?.results.entities ?? []))
    cursor = page.served?.results.nextCursor
  }
  return out
}

async function storeInsights(
  c: Context<Env>,
  now: number,
  nerdgraph: NerdGraph,
  accounts: number[],
  vars: Record<string, unknown>,
  data: { actor: AccountAliases & ServedSearch }
) {
  const served = servedByAccount(await servedBrowsers(nerdgraph, vars['served'], data.actor))
  await Promise.all(
    accounts.map((accountId, i) =>
      rememberInsights(c, now, accountId, data.actor[`a${i}`] ?? {}, served.get(accountId))
    )
  )
}

/** The list reads one account (src/entities/accounts.ts `listAccount`). One the key cannot see holds
 * nothing it may list: an empty list on every page, as every `/applications/{id}` route answers 404
 * for it (src/entities/resolve.ts, docs/keys-and-accounts.md). */
export async function listApplications(c: Context<Env>) {
  try {
    return await listPage(c)
  } catch (err) {
    if (!isForbiddenAccount(err) || (await listAccount(c)) === undefined) throw err
    return { body: body([], c.get('params').bool('exclude_links')), link: undefined }
  }
}

async function listPage(c: Context<Env>) {
  const p = c.get('params')
  const filters = applicationFilters(p)
  const page = pageParam(p)
  const now = Date.now()
  const account = await listAccount(c)
  const accounts = account === undefined ? await visibleAccounts(c) : [account]
  let ids = filters.ids
  if (filters.host) {
    const needle = filters.host.toLowerCase()
    const onHost = (await allInsights(c, accounts, now)).flatMap((i: AccountInsights) =>
      [...i.topologies]
        .filter(([, t]) => [...t.hosts.keys()].some((h) => h.toLowerCase().includes(needle)))
        .map(([appId]) => appId)
    )
    ids = ids ? ids.filter((id) => onHost.includes(id)) : onHost
    if (ids.length === 0) return { body: body([], p.bool('exclude_links')), link: undefined }
  }
  const query = applicationSearchQuery(filters, account, ids)
  const cursor = await searchCursor(c, query, page)
  if (cursor === null) return { body: body([], p.bool('exclude_links')), link: undefined }

  const missing = accounts.filter((a) => !cachedInsights(c, a, now))
  const nerdgraph = c.get('nerdgraph')
  const vars = insightVars(missing, now)
  const { data } = await nerdgraph.query<ListApplicationsData>(
    listApplicationsDocument(missing.length),
    { query, cursor: cursor ?? null, ...vars }
  )
  await storeInsights(c, now, nerdgraph, missing, vars, data)
  const search = data.actor.entitySearch
  const entities = (search?.results.entities ?? []).filter((e) => nameMatches(filters.name, e.name))
  learnPage(c, query, page, search)

  const records = entities.map((e) => {
    rememberApplication(c, {
      appId: e.applicationId,
      accountId: e.accountId,
      guid: e.guid,
    })
    const insights = cachedInsights(c, e.accountId, now)
    const record = withOwnUpdates(
      c,
      e.accountId,
      toV2Application(
        e,
        insights?.topologies.get(e.applicationId),
        insights?.browser.get(e.applicationId),
        insights?.served.get(e.applicationId),
        insights ? policyOf(insights.policies, e) : undefined,
        insights?.lastEvents.get(e.applicationId)
      )
    )
    rememberShown(c, e.accountId, record)
    return record
  })
  const url = new URL(c.req.url)
  const link = linkHeader(url, c.get('origin'), p.entries(), {
    page,
    lastPage: lastPage(search?.count),
  })
  return { body: body(records, p.bool('exclude_links')), link }
}

function body(records: Record<string, unknown>[], excludeLinks: boolean) {
  const out: Record<string, unknown> = { applications: records }
  if (!excludeLinks) out['links'] = applicationLinkTemplates // `exclude_links`: v2 explorer parameter
  return out
}

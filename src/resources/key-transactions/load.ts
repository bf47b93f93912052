/**
 * @module resources/key-transactions/load
 * `GET /v2/key_transactions` and `/v2/key_transactions/{id}` (D-summary). A list page is one
 * entity search of the key's own account (src/entities/accounts.ts `listAccount`); the fields the
 * outline lacks (cached an hour), the 10-minute summaries and when each application last reported
 * (cached a minute) come in one more request only for the entities missing from the caches, two
 * while the details that name the applications are not cached.
 */
import type { Context } from 'hono'
import { nameMatches } from '../../entities/entity-search'
import type { Env } from '../../http/env'
import {
  cachedDetails,
  detailsFrom,
  detailsPart,
  rememberDetails,
  type DetailsPart,
} from '../../entities/entity-details'
import { V2Error } from '../../core/errors'
import { linkHeader } from '../../http/link-header'
import { pageParam } from '../../http/params'
import { listAccount } from '../../entities/accounts'
import { keyTransactionKind } from '../../entities/kinds'
import { queryEntity, resolveEntity } from '../../entities/resolve-entity'
import { lastPage, learnPage, searchCursor, v2Id } from '../../entities/search-pages'
import {
  detailSelection,
  listKeyTransactionsDocument,
  pageExtrasDocument,
  showKeyTransactionDocument,
  showKeyTransactionWithLastDocument,
  type KeyTransactionDetails,
  type KeyTransactionOutline,
  type ListKeyTransactionsData,
  type NrqlResults,
  type ShowKeyTransactionData,
} from './documents'
import {
  keyTransactionFilters,
  keyTransactionSearchQuery,
  lastReportedNrql,
  summaryNrql,
  summaryWindow,
} from './plan'
import { keyTransactionLinkTemplates, summaryRows, toV2KeyTransaction } from './reshape'
import { defineCache } from '../../core/cache'
import { apmApplicationGuid, decodeGuid } from '../../core/identity'
import { lastEventNrql, lastEventsFrom } from '../../entities/last-report'

const minute = 60 * 1000

/** per kind, GUID and summary window: v2 summaries of the last minutes (key transactions). Keyed
 * by the window's end, so a list answers the same minutes a show of the same minute does (v2's list
 * and show carry the same summary) and never a window a minute old. */
export const summariesCache = defineCache<unknown>('summaries', {
  freshMs: minute,
  maxBytes: 8 * 2 ** 20,
})

const summaryKey = (guid: string, until: number) => `${kind}\u0000${guid}\u0000${until}`

const kind = 'KEY_TRANSACTION'
type Row = Record<string, unknown>

function cachedSummary(c: Context<Env>, guid: string, until: number): Row | null | undefined {
  return c
    .get('caches')
    .of(summariesCache)
    .get(c.get('keyHash'), summaryKey(guid, until)) as Row | null
}

/** One NRQL query of a request, an alias `a<i>` of `pageExtrasDocument`. */
interface Query {
  account: number
  nrql: string
}

/** The summary NRQL of `entities`, one query per account. */
function summaryQueries(entities: readonly KeyTransactionOutline[], window: [number, number]) {
  const accounts = [...new Set(entities.map((e) => e.accountId))]
  return accounts.map((account) => ({
    account,
    nrql: summaryNrql(
      entities.filter((e) => e.accountId === account).map((e) => e.guid),
      window
    ),
  }))
}

/** The application ID of an application GUID, if it is one. */
function appIdOf(guid: string): number[] {
  const id = Number(decodeGuid(guid)?.domainId)
  return Number.isSafeInteger(id) ? [id] : []
}

/** When the applications of `entities` last reported (`apps` gives each one's application GUID):
 * per account, their newest timeslice minute and newest `Transaction` event
 * (src/entities/last-report.ts). */
function lastReportedQueries(
  entities: readonly KeyTransactionOutline[],
  apps: (guid: string) => string | undefined,
  until: number
): Query[] {
  const accounts = [...new Set(entities.map((e) => e.accountId))]
  return accounts.flatMap((account) => {
    const ofAccount = entities.filter((e) => e.accountId === account)
    const guids = [...new Set(ofAccount.map((e) => apps(e.guid)!))]
    const ids = guids.flatMap(appIdOf)
    return [
      { account, nrql: lastReportedNrql(guids, until) },
      ...(ids.length ? [{ account, nrql: lastEventNrql(ids, until) }] : []),
    ]
  })
}

/** Rows by GUID of one answer: `FACET entity.guid` rows (summaries, newest minutes), or a
 * `lastEventNrql` answer's `FACET appId` rows as `{ lastEvent }` by application GUID. */
function rowsOf(field: NrqlResults | null | undefined, accountId: number): Map<string, Row> {
  if (field?.metadata?.facets?.[0] !== 'appId') return summaryRows(field)
  const rows = new Map<string, Row>()
  for (const [appId, lastEvent] of lastEventsFrom(field))
    rows.set(apmApplicationGuid(accountId, appId), { lastEvent })
  return rows
}

/** Lays `more` over `rows`, a GUID's fields merged. */
function mergeRows(rows: Map<string, Row>, more: Map<string, Row>) {
  for (const [guid, row] of more) rows.set(guid, { ...rows.get(guid), ...row })
}

/** Sends `details` and `queries` in one request; remembers the details; answers the rows by GUID. */
async function extras(c: Context<Env>, details: DetailsPart, queries: readonly Query[]) {
  const variables: Record<string, unknown> = { ...details.variables }
  queries.forEach((q, i) => {
    variables[`a${i}`] = q.account
    variables[`q${i}`] = q.nrql
  })
  const { data } = await c
    .get('nerdgraph')
    .query<{ actor: Record<string, unknown> }>(
      pageExtrasDocument(details, queries.length),
      variables
    )
  for (const d of detailsFrom<KeyTransactionDetails>(data.actor))
    rememberDetails(c, kind, d.guid, d)
  return aliasRows(data.actor, queries)
}

/** The application GUID of a key transaction whose details are cached. */
const appOf = (c: Context<Env>) => (guid: string) =>
  cachedDetails<KeyTransactionDetails>(c, kind, guid)?.application?.guid

/**
 * Fetches what the caches miss for `page` and caches it: the details, the summaries and, for each
 * reporting key transaction, when its application last reported (plan.ts `lastReportedNrql`). One
 * request when the details are cached; a page whose details are not needs one more for the
 * applications they name.
 */
async function fillCaches(
  c: Context<Env>,
  page: KeyTransactionOutline[],
  window: [number, number]
) {
  const needDetails = page.filter((e) => !cachedDetails(c, kind, e.guid)).map((e) => e.guid)
  const needSummary = page.filter((e) => cachedSummary(c, e.guid, window[1]) === undefined)
  if (needDetails.length === 0 && needSummary.length === 0) return
  const apps = appOf(c)
  const reporting = needSummary.filter((e) => e.reporting === true)
  const early = reporting.filter((e) => apps(e.guid))
  const rows = await extras(c, detailsPart(needDetails, detailSelection), [
    ...summaryQueries(needSummary, window),
    ...lastReportedQueries(early, apps, window[1]),
  ])
  const late = reporting.filter((e) => !early.includes(e) && apps(e.guid))
  if (late.length) {
    const none = detailsPart([], detailSelection)
    mergeRows(rows, await extras(c, none, lastReportedQueries(late, apps, window[1])))
  }
  for (const e of needSummary) {
    c.get('caches')
      .of(summariesCache)
      .set(
        c.get('keyHash'),
        summaryKey(e.guid, window[1]),
        withLastReported(rows, e.guid, apps(e.guid))
      )
  }
}

/** The summary row of a key transaction with its application's `lastReported` and `lastEvent`;
 * null without either. */
function withLastReported(rows: Map<string, Row>, guid: string, app: string | undefined) {
  const { lastReported, lastEvent } = (app === undefined ? undefined : rows.get(app)) ?? {}
  const row = rows.get(guid)
  const last = Object.fromEntries(
    Object.entries({ lastReported, lastEvent }).filter(([, v]) => typeof v === 'number')
  )
  if (Object.keys(last).length === 0) return row ?? null
  return { ...row, ...last }
}

/** Rows by GUID from the `a0`, `a1`… aliases of one answer to `queries`. */
function aliasRows(actor: Record<string, unknown>, queries: readonly Query[]): Map<string, Row> {
  const rows = new Map<string, Row>()
  queries.forEach((q, i) => {
    const alias = actor[`a${i}`] as { summary: NrqlResults } | null
    mergeRows(rows, rowsOf(alias?.summary, q.account))
  })
  return rows
}

export async function listKeyTransactions(c: Context<Env>) {
  const p = c.get('params')
  const filters = keyTransactionFilters(p)
  const page = pageParam(p)
  const query = keyTransactionSearchQuery(filters, await listAccount(c))
  const body = (records: Row[]) => ({
    key_transactions: records,
    links: keyTransactionLinkTemplates,
  })
  const cursor = await searchCursor(c, query, page)
  if (cursor === null) return { body: body([]), link: undefined }
  const { data } = await c
    .get('nerdgraph')
    .query<ListKeyTransactionsData>(listKeyTransactionsDocument, { query, cursor: cursor ?? null })
  const search = data.actor.entitySearch
  learnPage(c, query, page, search)
  const entities = (search?.results.entities ?? []).filter((e) => nameMatches(filters.name, e.name))
  const window = summaryWindow(Date.now())
  await fillCaches(c, entities, window)
  const records = entities.map((e) =>
    toV2KeyTransaction(
      v2Id(e.guid),
      e,
      cachedDetails<KeyTransactionDetails>(c, kind, e.guid),
      cachedSummary(c, e.guid, window[1]) ?? undefined
    )
  )
  const link = linkHeader(new URL(c.req.url), c.get('origin'), p.entries(), {
    page,
    lastPage: lastPage(search?.count),
  })
  return { body: body(records), link }
}

/** A show: one request when the key transaction's application is known from an earlier answer,
 * else one more, after the entity names it, for when that application last reported. */
export async function showKeyTransaction(c: Context<Env>) {
  const kt = await resolveEntity(c, keyTransactionKind)
  const window = summaryWindow(Date.now())
  const parent = appOf(c)(kt.guid)
  const known = parent !== undefined && appIdOf(parent).length ? parent : undefined
  const { data } = await queryEntity<ShowKeyTransactionData>(
    c,
    keyTransactionKind,
    known ? showKeyTransactionWithLastDocument : showKeyTransactionDocument,
    {
      guid: kt.guid,
      accountId: kt.accountId,
      summary: summaryNrql([kt.guid], window),
      ...(known
        ? {
            last: lastReportedNrql([known], window[1]),
            lastEvent: lastEventNrql(appIdOf(known), window[1]),
          }
        : {}),
    }
  )
  const e = data.actor.entity
  if (!e || e.guid !== kt.guid) throw new V2Error(404, keyTransactionKind.notFound)
  rememberDetails(c, kind, e.guid, detailsOf(e))
  const rows = summaryRows(data.actor.account?.summary)
  mergeRows(rows, summaryRows(data.actor.account?.last))
  mergeRows(rows, rowsOf(data.actor.account?.lastEvent, kt.accountId))
  const app = e.application?.guid
  if (e.reporting === true && app && !known) {
    const outline = [{ ...e, accountId: kt.accountId }]
    const none = detailsPart([], detailSelection)
    mergeRows(
      rows,
      await extras(
        c,
        none,
        lastReportedQueries(outline, () => app, window[1])
      )
    )
  }
  const row = withLastReported(rows, e.guid, app) ?? undefined
  return {
    key_transaction: toV2KeyTransaction(kt.id, e, e, row),
    links: keyTransactionLinkTemplates,
  }
}

/** The fields the details cache keeps, from a show's entity. */
function detailsOf(e: KeyTransactionDetails): KeyTransactionDetails {
  const { guid, apdexTarget, browserApdexTarget, metricName, application } = e
  return { guid, apdexTarget, browserApdexTarget, metricName, application }
}

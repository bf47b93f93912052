/**
 * @module resources/key-transactions/load
 * `GET /v2/key_transactions` and `/v2/key_transactions/{id}` (D-summary). A list page is one
 * entity search; the fields the outline lacks (cached an hour) and the 10-minute summaries (cached
 * a minute) come in one more request only for the entities missing from the caches.
 */
import type { Context } from 'hono'
import { nameMatches } from '../../entities/entity-search'
import type { Env } from '../../http/env'
import {
  cachedDetails,
  detailsFrom,
  detailsPart,
  rememberDetails,
} from '../../entities/entity-details'
import { V2Error } from '../../core/errors'
import { linkHeader } from '../../http/link-header'
import { pageParam } from '../../http/params'
import { pinnedAccount } from '../../entities/resolve'
import { keyTransactionKind } from '../../entities/kinds'
import { queryEntity, resolveEntity } from '../../entities/resolve-entity'
import { lastPage, learnPage, searchCursor, v2Id } from '../../entities/search-pages'
import {
  detailSelection,
  listKeyTransactionsDocument,
  pageExtrasDocument,
  showKeyTransactionDocument,
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

const minute = 60 * 1000

/** per kind and GUID: v2 summaries of the last minutes (key transactions). */
export const summariesCache = defineCache<unknown>('summaries', {
  freshMs: minute,
  maxBytes: 8 * 2 ** 20,
})

const kind = 'KEY_TRANSACTION'
type Row = Record<string, unknown>

function cachedSummary(c: Context<Env>, guid: string): Row | null | undefined {
  return c
    .get('caches')
    .of(summariesCache)
    .get(c.get('keyHash'), `${kind}\u0000${guid}`) as Row | null
}

/** Fetches what the caches miss for `page`, in one request (two when a reporting key transaction
 * had no traffic in the window: addLastReported), and caches it. */
async function fillCaches(c: Context<Env>, page: KeyTransactionOutline[]) {
  const needDetails = page.filter((e) => !cachedDetails(c, kind, e.guid)).map((e) => e.guid)
  const needSummary = page.filter((e) => cachedSummary(c, e.guid) === undefined)
  if (needDetails.length === 0 && needSummary.length === 0) return
  const accounts = [...new Set(needSummary.map((e) => e.accountId))]
  const window = summaryWindow(Date.now())
  const details = detailsPart(needDetails, detailSelection)
  const variables: Record<string, unknown> = { ...details.variables }
  accounts.forEach((a, i) => {
    variables[`a${i}`] = a
    variables[`q${i}`] = summaryNrql(
      needSummary.filter((e) => e.accountId === a).map((e) => e.guid),
      window
    )
  })
  const { data } = await c
    .get('nerdgraph')
    .query<{ actor: Record<string, unknown> }>(
      pageExtrasDocument(details, accounts.length),
      variables
    )
  for (const d of detailsFrom<KeyTransactionDetails>(data.actor))
    rememberDetails(c, kind, d.guid, d)
  const rows = aliasRows(data.actor, accounts.length)
  const known = (guid: string) => cachedDetails<KeyTransactionDetails>(c, kind, guid)
  await addLastReported(c, needSummary, known, rows, window[1])
  for (const e of needSummary) {
    c.get('caches')
      .of(summariesCache)
      .set(c.get('keyHash'), `${kind}\u0000${e.guid}`, rows.get(e.guid) ?? null)
  }
}

/** Summary rows by GUID from the `a0`, `a1`… aliases of one answer. */
function aliasRows(actor: Record<string, unknown>, accounts: number): Map<string, Row> {
  const rows = new Map<string, Row>()
  for (let i = 0; i < accounts; i++) {
    const alias = actor[`a${i}`] as { summary: NrqlResults } | null
    for (const [guid, row] of summaryRows(alias?.summary?.results)) rows.set(guid, row)
  }
  return rows
}

/** A reporting key transaction without a timeslice in the summary window gets the time its
 * application last reported (one more request, only then): every reporting v2 record has
 * `last_reported_at`. `details` gives each one's application. */
async function addLastReported(
  c: Context<Env>,
  entities: readonly KeyTransactionOutline[],
  details: (guid: string) => KeyTransactionDetails | undefined,
  rows: Map<string, Row>,
  until: number
) {
  const missing = entities.flatMap((e) => {
    const app = details(e.guid)?.application?.guid
    const has = typeof rows.get(e.guid)?.['lastReported'] === 'number'
    return e.reporting === true && !has && app ? [{ ...e, app }] : []
  })
  if (missing.length === 0) return
  const accounts = [...new Set(missing.map((e) => e.accountId))]
  const variables: Record<string, unknown> = {}
  accounts.forEach((a, i) => {
    variables[`a${i}`] = a
    const apps = new Set(missing.filter((e) => e.accountId === a).map((e) => e.app))
    variables[`q${i}`] = lastReportedNrql([...apps], until)
  })
  const document = pageExtrasDocument(detailsPart([], detailSelection), accounts.length)
  const { data } = await c
    .get('nerdgraph')
    .query<{ actor: Record<string, unknown> }>(document, variables)
  const byApp = aliasRows(data.actor, accounts.length)
  for (const e of missing) {
    const last = byApp.get(e.app)?.['lastReported']
    if (typeof last === 'number') rows.set(e.guid, { ...rows.get(e.guid), lastReported: last })
  }
}

export async function listKeyTransactions(c: Context<Env>) {
  const p = c.get('params')
  const filters = keyTransactionFilters(p)
  const page = pageParam(p)
  const query = keyTransactionSearchQuery(filters, pinnedAccount(c))
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
  await fillCaches(c, entities)
  const records = entities.map((e) =>
    toV2KeyTransaction(
      v2Id(e.guid),
      e,
      cachedDetails<KeyTransactionDetails>(c, kind, e.guid),
      cachedSummary(c, e.guid) ?? undefined
    )
  )
  const link = linkHeader(new URL(c.req.url), c.get('origin'), p.entries(), {
    page,
    lastPage: lastPage(search?.count),
  })
  return { body: body(records), link }
}

export async function showKeyTransaction(c: Context<Env>) {
  const kt = await resolveEntity(c, keyTransactionKind)
  const window = summaryWindow(Date.now())
  const { data } = await queryEntity<ShowKeyTransactionData>(
    c,
    keyTransactionKind,
    showKeyTransactionDocument,
    {
      guid: kt.guid,
      accountId: kt.accountId,
      summary: summaryNrql([kt.guid], window),
    }
  )
  const e = data.actor.entity
  if (!e || e.guid !== kt.guid) throw new V2Error(404, keyTransactionKind.notFound)
  const rows = summaryRows(data.actor.account?.summary?.results)
  await addLastReported(c, [{ ...e, accountId: kt.accountId }], () => e, rows, window[1])
  const row = rows.get(e.guid)
  return {
    key_transaction: toV2KeyTransaction(kt.id, e, e, row),
    links: keyTransactionLinkTemplates,
  }
}

/**
 * @module resources/mobile-applications/mobile-applications
 * `GET /v2/mobile_applications[/{id}]` and `POST /v2/mobile_applications` (the JSON keys are
 * `applications` / `application`: v2 explorer `MobileApplicationResponse`, a Java client reads
 * them; New Relic docs "Migrate from
 * REST API v2 to NerdGraph": entity search in domain MOBILE with `mobileSummary`, creation with
 * `agentApplicationCreateMobile`). A page, or a show, is one entity search.
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import {
  healthStatusBySeverity,
  notReportingHealthStatus,
  type AlertSeverity,
} from '../../../mappings/health-status'
import { listAccount, writeAccount } from '../../entities/accounts'
import { createName } from '../../http/create-params'
import { entitySearchQuery, nameMatches } from '../../entities/entity-search'
import type { Env } from '../../http/env'
import { V2Error } from '../../core/errors'
import { round3 } from '../../core/numbers'
import { linkHeader } from '../../http/link-header'
import { idList, pageParam } from '../../http/params'
import { pathId, pinnedAccount, queryOwned } from '../../entities/resolve'
import { mobileKind } from '../../entities/kinds'
import {
  lastPage,
  learnPage,
  searchCursor,
  searchPageDocument,
  v2Id,
} from '../../entities/search-pages'

export const listMobileApplicationsDocument = searchPageDocument(
  'ListMobileApplications',
  `guid name reporting alertSeverity ... on MobileApplicationEntityOutline { mobileSummary { appLaunchCount crashCount crashRate httpErrorRate httpRequestCount httpResponseTimeAverage mobileSessionCount networkFailureRate } }`
)

export const createMobileApplicationDocument = gql`
  mutation CreateMobileApplication($accountId: Int!, $name: String!) {
    agentApplicationCreateMobile(accountId: $accountId, name: $name) {
      guid
      name
      applicationToken
    }
  }
`

interface MobileSummary {
  appLaunchCount: number | null
  crashCount: number | null
  crashRate: number | null
  httpErrorRate: number | null
  httpRequestCount: number | null
  httpResponseTimeAverage: number | null
  mobileSessionCount: number | null
  networkFailureRate: number | null
}

interface MobileOutline {
  guid: string
  name: string
  reporting: boolean | null
  alertSeverity: string | null
  mobileSummary?: MobileSummary | null
}

interface ListData {
  actor: {
    entitySearch: {
      count: number
      results: { nextCursor: string | null; entities: MobileOutline[] }
    } | null
  }
}

interface CreateData {
  agentApplicationCreateMobile: { guid: string; name: string; applicationToken: string } | null
}

const n = (v: number | null | undefined) => v ?? 0

/**
 * Pure: outline → v2 record (keys and meanings of the v2 explorer `MobileSummaryDataResponse` and
 * `CrashSummaryResponse`, all "in the last 30 minutes"). `launch_count` and `active_users` are
 * NerdGraph's launches and sessions (NerdGraph counts no distinct users); `throughput` is a count of
 * HTTP requests, NerdGraph's `httpRequestCount`, not a rate (explorer: "Http requests in the last 30
 * minutes"; ambitioninc/newrelic-api mobile fixture: 9,792 sessions × 7.27 calls ≈ `71200`); `response_time` is seconds. `failed_call_rate` is "Percentage
 * of http errors" and `remote_error_rate` "Percentage of network failures" (explorer), NerdGraph's
 * `httpErrorRate` and `networkFailureRate`. `throughput`, `response_time` and `calls_per_session`
 * have 3 significant digits, the rates are unrounded, as in that fixture. v2's `interaction_time`
 * and `unresolved_crash_count` have no NerdGraph field and are left out.
 */
export function toV2MobileApplication(e: MobileOutline): Record<string, unknown> {
  const reporting = e.reporting === true
  const record: Record<string, unknown> = {
    id: v2Id(e.guid),
    name: e.name,
    health_status: reporting
      ? (healthStatusBySeverity[e.alertSeverity as AlertSeverity] ?? 'unknown')
      : notReportingHealthStatus,
    reporting,
  }
  const s = e.mobileSummary
  if (reporting && s) {
    const sessions = n(s.mobileSessionCount)
    const requests = n(s.httpRequestCount)
    record['mobile_summary'] = {
      active_users: sessions,
      launch_count: n(s.appLaunchCount),
      throughput: round3(requests),
      response_time: round3(n(s.httpResponseTimeAverage)),
      calls_per_session: sessions > 0 ? round3(requests / sessions) : 0,
      failed_call_rate: n(s.httpErrorRate),
      remote_error_rate: n(s.networkFailureRate),
    }
    record['crash_summary'] = {
      supports_crash_data: true,
      crash_count: n(s.crashCount),
      crash_rate: n(s.crashRate),
    }
  }
  return record
}

export async function listMobileApplications(c: Context<Env>) {
  const p = c.get('params')
  const page = pageParam(p)
  const name = p.get('filter[name]')?.trim() || undefined
  const ids = idList(p, 'filter[ids]', 'filter[id]')
  const query = entitySearchQuery(mobileKind, { name, ids }, await listAccount(c))
  const cursor = await searchCursor(c, query, page)
  if (cursor === null) return { body: { applications: [] }, link: undefined }
  const { data } = await c
    .get('nerdgraph')
    .query<ListData>(listMobileApplicationsDocument, { query, cursor: cursor ?? null })
  const search = data.actor.entitySearch
  learnPage(c, query, page, search)
  // By ID, the order of v2's ID lists (D-hostids): within a page, as entity search sorts by no ID
  // (docs/differences.md).
  const entities = (search?.results.entities ?? [])
    .filter((e) => nameMatches(name, e.name))
    .sort((a, b) => v2Id(a.guid) - v2Id(b.guid))
  const link = linkHeader(new URL(c.req.url), c.get('origin'), p.entries(), {
    page,
    lastPage: lastPage(search?.count),
  })
  return { body: { applications: entities.map(toV2MobileApplication) }, link }
}

export async function showMobileApplication(c: Context<Env>) {
  const id = pathId(c.req.param('id'), mobileKind.notFound)
  const query = entitySearchQuery(mobileKind, { ids: [id] }, pinnedAccount(c))
  const { data } = await queryOwned<ListData>(
    c,
    mobileKind.notFound,
    listMobileApplicationsDocument,
    {
      query,
      cursor: null,
    }
  )
  const e = data.actor.entitySearch?.results.entities[0]
  if (!e) throw new V2Error(404, mobileKind.notFound)
  return { application: toV2MobileApplication(e) }
}

/** [UNCONFIRMED] proposal (D-migrate names the call, no client shows it): the body
 * `{"mobile_application": {"name"}}`, also `{"application": {"name"}}`; the answer
 * `{"application": {id, name, application_token}}`. */
export async function createMobileApplication(c: Context<Env>) {
  const name = createName(c.get('params'), ['mobile_application', 'application'])
  const accountId = await writeAccount(c)
  const { data } = await c
    .get('nerdgraph')
    .query<CreateData>(createMobileApplicationDocument, { accountId, name })
  const created = data.agentApplicationCreateMobile
  if (!created) throw new V2Error(502, 'NerdGraph did not create the mobile application')
  return {
    application: {
      id: v2Id(created.guid),
      name: created.name,
      application_token: created.applicationToken,
    },
  }
}

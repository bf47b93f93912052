/**
 * @module resources/browser-applications/browser-applications
 * `GET /v2/browser_applications` and `POST /v2/browser_applications` (New Relic docs "Add or list
 * browser apps (API v2)"). A list page is one entity search (domain BROWSER); the loader script
 * lives only on the entity (`browserProperties`), fetched for the page's missing GUIDs and cached.
 * Creation is `agentApplicationCreateBrowser` with the Lite loader: "you can only instrument basic
 * page load timing" (same docs page).
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import { listAccount, writeAccount } from '../../entities/accounts'
import { createName } from '../../http/create-params'
import {
  cachedDetails,
  detailsFrom,
  detailsPart,
  rememberDetails,
} from '../../entities/entity-details'
import { entitySearchQuery, nameMatches } from '../../entities/entity-search'
import type { Env } from '../../http/env'
import { V2Error } from '../../core/errors'
import { linkHeader } from '../../http/link-header'
import { idList, pageParam } from '../../http/params'
import {
  lastPage,
  learnPage,
  searchCursor,
  searchPageDocument,
  v2Id,
} from '../../entities/search-pages'

export const listBrowserApplicationsDocument = searchPageDocument(
  'ListBrowserApplications',
  'guid name'
)

export const browserDetailSelection =
  'guid ... on BrowserApplicationEntity { browserProperties { jsConfig jsLoaderScript } }'

export const browserDetailsDocument = (n: number) => {
  const part = detailsPart(
    Array.from({ length: n }, (_, i) => String(i)),
    browserDetailSelection
  )
  return gql`query BrowserApplicationDetails(${part.vars.slice(2)}) { actor { ${part.fields} } }`
}

export const createBrowserApplicationDocument = gql`
  mutation CreateBrowserApplication($accountId: Int!, $name: String!) {
    agentApplicationCreateBrowser(
      accountId: $accountId
      name: $name
      settings: { loaderType: LITE }
    ) {
      guid
      name
      settings {
        loaderScript
      }
    }
  }
`

interface Details {
  guid: string
  browserProperties: { jsConfig: unknown; jsLoaderScript: string | null } | null
}

interface ListData {
  actor: {
    entitySearch: {
      count: number
      results: { nextCursor: string | null; entities: { guid: string; name: string }[] }
    } | null
  }
}

interface CreateData {
  agentApplicationCreateBrowser: {
    guid: string
    name: string
    settings: { loaderScript: string | null } | null
  } | null
}

/**
 * v2's `browser_monitoring_key` has no NerdGraph field (schema `BrowserApplicationEntity`); it is the
 * browser license key, which the agent configuration carries: `jsConfig.licenseKey`, else the
 * `licenseKey:"…"` of the loader script [INFERRED proposal].
 */
export function browserMonitoringKey(jsConfig: unknown, loader: string | null | undefined): string {
  const fromConfig = (jsConfig as { licenseKey?: unknown } | null)?.licenseKey
  if (typeof fromConfig === 'string') return fromConfig
  return /licenseKey\s*:\s*"([^"]+)"/.exec(loader ?? '')?.[1] ?? ''
}

export function toV2BrowserApplication(
  guid: string,
  name: string,
  jsConfig: unknown,
  loader: string | null | undefined
) {
  return {
    id: v2Id(guid),
    name,
    browser_monitoring_key: browserMonitoringKey(jsConfig, loader),
    loader_script: loader ?? '',
  }
}

const kind = 'BROWSER'
const browserKind = { domain: kind, type: 'APPLICATION' } as const

export async function listBrowserApplications(c: Context<Env>) {
  const p = c.get('params')
  const page = pageParam(p)
  const name = p.get('filter[name]')?.trim() || undefined
  const ids = idList(p, 'filter[ids]', 'filter[id]')
  const query = entitySearchQuery(browserKind, { name, ids }, await listAccount(c))
  const cursor = await searchCursor(c, query, page)
  if (cursor === null) return { body: { browser_applications: [] }, link: undefined }
  const { data } = await c
    .get('nerdgraph')
    .query<ListData>(listBrowserApplicationsDocument, { query, cursor: cursor ?? null })
  const search = data.actor.entitySearch
  learnPage(c, query, page, search)
  // filter[name] is a plain case-insensitive substring (the docs' "simple string match"). By ID, the
  // order of v2's ID lists (D-hostids): within a page, as entity search sorts by no ID
  // (docs/differences.md).
  const entities = (search?.results.entities ?? [])
    .filter((e) => nameMatches(name, e.name))
    .sort((a, b) => v2Id(a.guid) - v2Id(b.guid))
  const missing = entities.filter((e) => !cachedDetails(c, kind, e.guid)).map((e) => e.guid)
  if (missing.length) {
    const part = detailsPart(missing, browserDetailSelection)
    const res = await c
      .get('nerdgraph')
      .query<{ actor: Record<string, unknown> }>(
        browserDetailsDocument(missing.length),
        part.variables
      )
    for (const d of detailsFrom<Details>(res.data.actor)) rememberDetails(c, kind, d.guid, d)
  }
  const records = entities.map((e) => {
    const d = cachedDetails<Details>(c, kind, e.guid)
    return toV2BrowserApplication(
      e.guid,
      e.name,
      d?.browserProperties?.jsConfig,
      d?.browserProperties?.jsLoaderScript
    )
  })
  const link = linkHeader(new URL(c.req.url), c.get('origin'), p.entries(), {
    page,
    lastPage: lastPage(search?.count),
  })
  return { body: { browser_applications: records }, link }
}

export async function createBrowserApplication(c: Context<Env>) {
  const name = createName(c.get('params'), ['browser_application'])
  const accountId = await writeAccount(c)
  const { data } = await c
    .get('nerdgraph')
    .query<CreateData>(createBrowserApplicationDocument, { accountId, name })
  const created = data.agentApplicationCreateBrowser
  if (!created) throw new V2Error(502, 'NerdGraph did not create the browser application')
  const loader = created.settings?.loaderScript
  return { browser_application: toV2BrowserApplication(created.guid, created.name, null, loader) }
}

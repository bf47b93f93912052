/**
 * @module resources/applications/documents
 * GraphQL documents for applications, hosts and instances, built once at module load (schema:
 * `entitySearch`, `actor.entities`, `Account.nrql`). Documents with one NRQL alias per account are
 * built on first use per alias count and kept.
 */
import { gql } from 'graphql-request'
import { pagedNrqlFields, type PagedNrql } from '../../upstream/nrql-pages'

const summaryFields = `
  apmSummary {
    apdexScore errorRate hostCount instanceCount responseTimeAverage throughput
    webResponseTimeAverage webThroughput nonWebThroughput
  }
  apmBrowserSummary { pageLoadThroughput pageLoadTimeAverage }
  settings { apdexTarget serverSideConfig }`

/** Fields of an APM application that the v2 record needs (D-migrate: `apmSummary`, `settings`). */
const outlineFields = `
  guid name accountId reporting alertSeverity
  ... on ApmApplicationEntityOutline { applicationId language ${summaryFields} }`

const entityFields = `
  guid name accountId reporting alertSeverity
  ... on ApmApplicationEntity { applicationId language ${summaryFields} }`

/** The browser application an APM application serves, for the browser apdex T v2 shows in
 * `settings` (schema: `EntityRelationshipEdgeType.SERVES`, "The source is an Application that serves
 * the target Browser application"; `BrowserApplicationSettings.apdexTarget`). Entities only: the
 * search outline has no `relatedEntities`. */
const servedBrowserFields = `
  ... on ApmApplicationEntity {
    relatedEntities(
      filter: { direction: OUTBOUND, relationshipTypes: { include: [SERVES] } }
      limit: 1
    ) {
      results { target { entity { ... on BrowserApplicationEntityOutline { settings { apdexTarget } } } } }
    }
  }`

/** FACET rows are read by position in `metadata.facets` (src/upstream/nrql-rows.ts); `otherResult`
 * tells an answer NRDB cut (src/upstream/nrql-pages.ts). */
const nrqlFields = pagedNrqlFields

/** The account's NRQL conditions (first page, by ID), for the policy whose conditions target an
 * application (v2 `links.alert_policy`, src/resources/applications/alert-policy.ts; schema
 * `AlertsAccountStitchedFields.nrqlConditionsSearch`). */
const conditionsField = `conditions: alerts {
  nrqlConditionsSearch { nextCursor nrqlConditions { id policyId nrql { query } } }
}`

/** Browser applications and the APM application each serves (`servingApmApplicationId`), for the
 * settings of applications that do not report (src/resources/applications/members.ts). */
const servedResults = `results(cursor: $servedCursor) {
  nextCursor
  entities {
    accountId
    ... on BrowserApplicationEntityOutline { servingApmApplicationId settings { apdexTarget } }
  }
}`

const built = new Map<string, string>()

function accountAliases(n: number): { vars: string; fields: string } {
  const vars = Array.from(
    { length: n },
    (_, i) => `, $a${i}: Int!, $m${i}: Nrql!, $b${i}: Nrql!, $e${i}: Nrql!`
  )
  const fields = Array.from(
    { length: n },
    (_, i) =>
      `a${i}: account(id: $a${i}) { members: nrql(query: $m${i}, timeout: 30) { ${nrqlFields} } ` +
      `browser: nrql(query: $b${i}, timeout: 30) { ${nrqlFields} } ` +
      `lastEvent: nrql(query: $e${i}, timeout: 30) { ${nrqlFields} } ${conditionsField} }`
  )
  if (n === 0) return { vars: '', fields: '' }
  return {
    vars: `${vars.join('')}, $served: String!, $servedCursor: String`,
    fields: `${fields.join('\n')}\nserved: entitySearch(query: $served) { ${servedResults} }`,
  }
}

function memo(key: string, build: () => string): string {
  let doc = built.get(key)
  if (!doc) built.set(key, (doc = build()))
  return doc
}

/** entitySearch for one page, plus members, browser and newest-event NRQL for `n` accounts (`$a0`,
 * `$m0`, `$b0`, `$e0`…). */
export function listApplicationsDocument(n: number): string {
  return memo(`list${n}`, () => {
    const a = accountAliases(n)
    return gql`
      query ListApplications($query: String!, $cursor: String${a.vars}) {
        actor {
          entitySearch(query: $query, sortByWithDirection: [{ attribute: NAME, direction: ASC }]) {
            count
            results(cursor: $cursor) { nextCursor entities { ${outlineFields} } }
          }
          ${a.fields}
        }
      }
    `
  })
}

/** Members and browser NRQL for `n` accounts (n ≥ 1), without a search. */
export function insightsDocument(n: number): string {
  return memo(`insights${n}`, () => {
    const a = accountAliases(n)
    return gql`
      query AccountInsights(${a.vars.slice(2)}) {
        actor {
          ${a.fields}
        }
      }
    `
  })
}

/** The next page of the browser applications `served` searches. */
export const servedBrowsersDocument = gql`
  query ServedBrowsers($served: String!, $servedCursor: String) {
    actor { served: entitySearch(query: $served) { ${servedResults} } }
  }
`

/** One application, the hosts/instances that reported in the last hour and its newest
 * `Transaction` event (src/entities/last-report.ts). */
export const showApplicationDocument = gql`
  query ShowApplication(
    $guid: EntityGuid!
    $accountId: Int!
    $members: Nrql!
    $browser: Nrql!
    $lastEvent: Nrql!
  ) {
    actor {
      entity(guid: $guid) { ${entityFields} ${servedBrowserFields} }
      account(id: $accountId) {
        members: nrql(query: $members, timeout: 30) { ${nrqlFields} }
        browser: nrql(query: $browser, timeout: 30) { ${nrqlFields} }
        lastEvent: nrql(query: $lastEvent, timeout: 30) { ${nrqlFields} }
        ${conditionsField}
      }
    }
  }
`

/** The application, its members (last hour) and per-instance summaries (last minutes). */
export const hostsDocument = gql`
  query ApplicationHosts($guid: EntityGuid!, $accountId: Int!, $members: Nrql!, $summary: Nrql!) {
    actor {
      entity(guid: $guid) { ${entityFields} }
      account(id: $accountId) {
        members: nrql(query: $members, timeout: 30) { ${nrqlFields} }
        summary: nrql(query: $summary, timeout: 30) { ${nrqlFields} }
      }
    }
  }
`

export interface ApmSummary {
  apdexScore: number | null
  errorRate: number | null
  hostCount: number | null
  instanceCount: number | null
  responseTimeAverage: number | null
  throughput: number | null
  webResponseTimeAverage?: number | null
  webThroughput?: number | null
  nonWebThroughput?: number | null
}

export interface ApmApplication {
  guid: string
  name: string
  accountId: number
  reporting: boolean | null
  alertSeverity: string | null
  applicationId: number
  language: string | null
  apmSummary: ApmSummary | null
  apmBrowserSummary: {
    pageLoadThroughput: number | null
    pageLoadTimeAverage: number | null
  } | null
  settings: { apdexTarget: number | null; serverSideConfig: boolean | null } | null
  /** Only on `actor.entity` of GET show (`servedBrowserFields`). */
  relatedEntities?: {
    results: {
      target: { entity: { settings?: { apdexTarget: number | null } | null } | null }
    }[]
  } | null
}

export type NrqlField = (PagedNrql & { results: Record<string, unknown>[] }) | null

/** `conditionsField`'s answer; null where alerts could not be read. */
export interface ConditionsField {
  nrqlConditionsSearch: {
    nextCursor: string | null
    nrqlConditions: { id: string; policyId: string; nrql: { query: string } | null }[]
  } | null
}

export type AccountAliases = Record<
  `a${number}`,
  {
    members: NrqlField
    browser: NrqlField
    lastEvent?: NrqlField
    conditions?: ConditionsField | null
  } | null
>

export interface ServedBrowser {
  accountId: number
  servingApmApplicationId?: number | null
  settings?: { apdexTarget: number | null } | null
}

export interface ServedSearch {
  served?: { results: { nextCursor: string | null; entities: ServedBrowser[] } } | null
}

export interface InsightsData {
  actor: AccountAliases & ServedSearch
}

export interface ListApplicationsData {
  actor: {
    entitySearch: {
      count: number
      results: { nextCursor: string | null; entities: ApmApplication[] }
    } | null
  } & AccountAliases &
    ServedSearch
}

export interface ShowApplicationData {
  actor: {
    entity: ApmApplication | null
    account: {
      members: NrqlField
      browser: NrqlField
      lastEvent?: NrqlField
      conditions?: ConditionsField | null
    } | null
  }
}

export interface HostsData {
  actor: {
    entity: ApmApplication | null
    account: { members: NrqlField; summary: NrqlField } | null
  }
}

/**
 * @module caches
 * Every cache of one app instance, each partitioned by key fingerprint (src/identity.ts), so no
 * caller's data answers another.
 * Created once per `createApp`, so two apps (or two tests) never share cached data.
 */
import type { Refreshes } from './background'
import { PartitionedCache } from './cache'
import type { AccountInsights } from './applications/members'
import type { CursorWalk } from './search-pages'
import type { TaggedEntity } from './labels/documents'
import type { ResolvedApplication } from './resolve'
import type { Topology } from './topology'

const minute = 60 * 1000

/** `observe` hears every lookup of every cache, by the cache's name (src/telemetry.ts). */
export function createCaches(observe?: (cache: string, hit: boolean) => void) {
  const caches = {
    /** appId → account and GUID; IDs are stable, so an hour. */
    applications: new PartitionedCache<ResolvedApplication>({
      freshMs: 60 * minute,
      maxBytes: 4 * 2 ** 20,
    }),
    /** the accounts a key sees. */
    accounts: new PartitionedCache<number[]>({ freshMs: 10 * minute, maxBytes: 2 ** 20 }),
    /** entity-search cursors and last page per query (src/search-pages.ts). */
    cursors: new PartitionedCache<CursorWalk>({ freshMs: 10 * minute, maxBytes: 4 * 2 ** 20 }),
    /** per account: members and browser figures of every application, for list pages. Fresh for
     * 5 minutes, past any exporter's scrape interval (mrf/newrelic-exporter and ContaAzul's default to
     * a minute), then answered while refreshed in the background for 25 more. */
    insights: new PartitionedCache<AccountInsights>({
      freshMs: 5 * minute,
      staleMs: 25 * minute,
      maxBytes: 16 * 2 ** 20,
    }),
    /** per scope and filter: metric names; new names come with deployments, so 15 minutes, then
     * refreshed in the background for 45 more. */
    metricNames: new PartitionedCache<string[]>({
      freshMs: 15 * minute,
      staleMs: 45 * minute,
      maxBytes: 16 * 2 ** 20,
    }),
    /** per kind and GUID: fields entity search lacks (src/entity-details.ts); they rarely change. */
    entityDetails: new PartitionedCache<unknown>({ freshMs: 60 * minute, maxBytes: 8 * 2 ** 20 }),
    /** per filter: the key's users by ID (src/users/users.ts); users change rarely, a minute. */
    users: new PartitionedCache<unknown>({ freshMs: minute, maxBytes: 8 * 2 ** 20 }),
    /** per search query: APM applications and their tags, for labels (src/labels/labels.ts). */
    taggedApplications: new PartitionedCache<TaggedEntity[]>({
      freshMs: minute,
      maxBytes: 8 * 2 ** 20,
    }),
    /** per kind and GUID: v2 summaries of the last minutes (key transactions). */
    summaries: new PartitionedCache<unknown>({ freshMs: minute, maxBytes: 8 * 2 ** 20 }),
    /** per domain, type and v2 ID: account and GUID of a non-APM entity; IDs are stable. */
    resolved: new PartitionedCache<{ accountId: number; guid: string }>({
      freshMs: 60 * minute,
      maxBytes: 2 ** 20,
    }),
    /** per account and application: the v2 record last shown (show or list page), so PUT and DELETE
     * answer from their mutation alone (src/applications/writes.ts); as old as list figures may be. */
    shownApplications: new PartitionedCache<Record<string, unknown>>({
      freshMs: 5 * minute,
      maxBytes: 8 * 2 ** 20,
    }),
    /** per application: hosts and instances; hosts come and go slowly. */
    topologies: new PartitionedCache<Topology>({
      freshMs: 5 * minute,
      staleMs: 25 * minute,
      maxBytes: 8 * 2 ** 20,
    }),
    /** background refreshes running (src/background.ts). */
    refreshes: { running: 0 } as Refreshes,
    /** per account: minted v2 incident ID → AI issue UUID (src/alerts/ids.ts); issues never change ID. */
    alertIssues: new PartitionedCache<string>({ freshMs: 60 * minute, maxBytes: 2 ** 20 }),
    /** per alerts list and window: NerdGraph cursors, cursors[n] opens page n, null past the end. */
    alertCursors: new PartitionedCache<(string | null | undefined)[]>({
      freshMs: 10 * minute,
      maxBytes: 2 ** 20,
    }),
  }
  if (observe)
    for (const [name, cache] of Object.entries(caches))
      if (cache instanceof PartitionedCache) cache.onLookup = (hit) => observe(name, hit)
  return caches
}

export type Caches = ReturnType<typeof createCaches>

/**
 * @module caches
 * Every cache of one app instance, each partitioned by key fingerprint (design.md, Identity).
 * Created once per `createApp`, so two apps (or two tests) never share cached data.
 */
import { PartitionedCache } from './cache'
import type { AccountInsights } from './applications/members'
import type { CursorWalk } from './applications/list'
import type { ResolvedApplication } from './resolve'
import type { Topology } from './topology'

export function createCaches() {
  return {
    /** appId → account and GUID; IDs are stable, so an hour. */
    applications: new PartitionedCache<ResolvedApplication>(60 * 60 * 1000),
    /** the accounts a key sees. */
    accounts: new PartitionedCache<number[]>(10 * 60 * 1000),
    /** entity-search cursors and last page per query (applications/list.ts). */
    cursors: new PartitionedCache<CursorWalk>(10 * 60 * 1000),
    /** per account: members and browser figures of every application, for list pages. */
    insights: new PartitionedCache<AccountInsights>(60 * 1000),
    /** per scope and filter: metric names; new names come with deployments, so 15 minutes. */
    metricNames: new PartitionedCache<string[]>(15 * 60 * 1000),
    /** per application: hosts and instances; hosts come and go slowly. */
    topologies: new PartitionedCache<Topology>(5 * 60 * 1000),
  }
}

export type Caches = ReturnType<typeof createCaches>

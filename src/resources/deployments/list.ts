/**
 * @module resources/deployments/list
 * `GET /v2/applications/{id}/deployments`: newest first (D-deploy example), 200 per page
 * [UNCONFIRMED proposal] with `Link` headers as for applications. `deploymentSearch` answers at most
 * 2,000 deployments, so each page is a time window that ends where the page before ended: one
 * NerdGraph request per page (the window and its count, for `rel="last"`), the window starts
 * remembered per key as cursors (src/entities/cursor-walk.ts), and a page jumped to walks the
 * windows before it once.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { V2Error, titles } from '../../core/errors'
import { linkHeader } from '../../http/link-header'
import { pageParam } from '../../http/params'
import { cursorOf, emptyWalk, learnStep, type CursorWalk } from '../../entities/cursor-walk'
import { cursorsCache } from '../../entities/search-pages'
import {
  pathId,
  queryApplication,
  resolveApplication,
  type ResolvedApplication,
} from '../../entities/resolve'
import {
  deploymentsPageDocument,
  listDeploymentsDocument,
  type DeploymentsPageData,
  type ListDeploymentsData,
  type NgDeployment,
} from './documents'
import {
  countNrql,
  deploymentPageSize,
  deploymentSearchLimit,
  pageOf,
  searchFilter,
  startCursor,
  startOf,
  type PageStart,
} from './plan'
import { withOwnDeployments } from './own'
import { deploymentIds, deploymentsBody, toV2Deployment } from './reshape'

/** The deployments of one window, newest first, with the key's own NerdGraph may not show yet
 * (own.ts); 404 when the entity is not the application. */
function resultsOf(
  c: Context<Env>,
  app: ResolvedApplication,
  data: ListDeploymentsData,
  filter: ReturnType<typeof searchFilter>
): NgDeployment[] {
  const entity = data.actor.entity
  if (!entity || entity.applicationId !== app.appId) throw new V2Error(404, titles.noApplication)
  const found = (entity.deploymentSearch?.results ?? []).filter(
    (d): d is NgDeployment => d !== null
  )
  return withOwnDeployments(c, app, found, filter.timeWindow)
}

/** `size` deployments from `start`, and where the next window starts. */
async function searchWindow(
  c: Context<Env>,
  app: ResolvedApplication,
  start: PageStart,
  now: number,
  size: number
) {
  const filter = searchFilter(start, now, size + 1)
  const { data } = await queryApplication<ListDeploymentsData>(c, listDeploymentsDocument, {
    guid: app.guid,
    filter,
  })
  return pageOf(resultsOf(c, app, data, filter), start, size)
}

const walkKey = (app: ResolvedApplication) => `deployments:${app.accountId}:${app.appId}`

export async function listDeployments(c: Context<Env>) {
  const app = await resolveApplication(c, pathId(c.req.param('id'), titles.noApplication))
  const p = c.get('params')
  const page = pageParam(p)
  const now = Date.now()
  const cache = c.get('caches').of(cursorsCache)
  const walk: CursorWalk = cache.get(c.get('keyHash'), walkKey(app)) ?? emptyWalk()
  const link = (lastPage: number) =>
    linkHeader(new URL(c.req.url), c.get('origin'), p.entries(), { page, lastPage })
  try {
    const cursor = await cursorOf(walk, page, async (_n, at) => {
      const { next } = await searchWindow(c, app, startOf(at, now), now, deploymentPageSize)
      return { next: next && startCursor(next) }
    })
    if (cursor === null) {
      // past the end: nothing to search, but the application must exist (as on every page)
      await searchWindow(c, app, startOf(undefined, now), now, 0)
      return { body: deploymentsBody([]), link: link(walk.lastPage ?? page - 1) }
    }
    const start = startOf(cursor, now)
    const filter = searchFilter(start, now, deploymentPageSize + 1)
    const { data } = await queryApplication<DeploymentsPageData>(c, deploymentsPageDocument, {
      guid: app.guid,
      filter,
      accountId: app.accountId,
      count: countNrql(app.guid, start, now),
    })
    const { shown, next } = pageOf(resultsOf(c, app, data, filter), start)
    const counted = Number(data.actor.account?.count?.results[0]?.['count'] ?? 0)
    const left = Math.ceil((counted - start.skip) / deploymentPageSize)
    // the count and the search may disagree for a moment (NRDB indexes events as they arrive)
    const lastPage = next ? Math.max(page + 1, page - 1 + left) : page
    learnStep(walk, page, { next: next && startCursor(next), lastPage })
    const idOf = deploymentIds(app.appId, shown)
    const body = deploymentsBody(shown.map((d) => toV2Deployment(d, idOf(d), app.appId)))
    return { body, link: link(lastPage) }
  } finally {
    cache.set(c.get('keyHash'), walkKey(app), walk)
  }
}

/** The deployment whose v2 ID is `id`, searching back window by window (2,000 a request). */
export async function findDeployment(
  c: Context<Env>,
  id: number
): Promise<NgDeployment | undefined> {
  const app = await resolveApplication(c, pathId(c.req.param('id'), titles.noApplication))
  const now = Date.now()
  for (let start: PageStart | null = startOf(undefined, now); start;) {
    const window = await searchWindow(c, app, start, now, deploymentSearchLimit - 1)
    const idOf = deploymentIds(app.appId, window.shown)
    const hit = window.shown.find((d) => idOf(d) === id)
    if (hit) return hit
    start = window.next
  }
  return undefined
}

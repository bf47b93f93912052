/**
 * @module resources/alerts/events
 * `GET /v2/alerts_events`: the events an account's alerts and deployments imply (reshape.ts
 * `toV2Events`, deployment-events.ts), newest first, 200 a page, the filters applied before paging.
 * A page is read back from where the one before ended: incidents newest first (NerdGraph's
 * `aiIssues.incidents`, window after window) until 200 events are certain, the incidents still open
 * at that point (their closes come later), the issues that name them and the deployments of the
 * same stretch. Cost per page: the incident pages it spans, one or two more, and one NRQL query.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { pageParam, type V2Params } from '../../http/params'
import { incidentsDocument } from './documents'
import { deploymentEvents, maxDeployments, type V2DeploymentEvent } from './deployment-events'
import { eventFilter } from './event-filter'
import { alertsPageSize } from './paging'
import { toV2Events, type NgIncident } from './reshape'
import {
  alertsAccount,
  alertsWindowMs,
  alertsWindows,
  cursorPage,
  pageLink,
  type Window,
} from './scope'
import { issueHolders } from './violations'

type V2Event = ReturnType<typeof toV2Events>[number] | V2DeploymentEvent

/** Where a page begins: after the event `bound` (the last one of the page before; none on page 1),
 * reading incidents from the NerdGraph page `cursor` of window `window`. */
interface Position {
  window: number
  cursor: string | null
  bound: { ts: number; id: number } | null
}

const encode = (p: Position) =>
  `${p.window}.${p.bound ? `${p.bound.ts}.${p.bound.id}` : '.'}.${p.cursor ?? ''}`
function decode(text: string | null): Position {
  const m = /^(\d+)\.(\d*)\.(\d*)\.(.*)$/s.exec(text ?? '')
  if (!m) return { window: 0, cursor: null, bound: null }
  const bound = m[2] && m[3] ? { ts: Number(m[2]), id: Number(m[3]) } : null
  return { window: Number(m[1]), cursor: m[4] || null, bound }
}

/** v2's order: newest first, then by ID (the order of the page's `bound`). */
const newestFirst = (a: V2Event, b: V2Event) => b.timestamp - a.timestamp || b.id - a.id
const after = (e: V2Event, bound: Position['bound']) =>
  !bound || e.timestamp < bound.ts || (e.timestamp === bound.ts && e.id < bound.id)

/** Incident pages one v2 page reads at most: a filter that few events match ends a page there, its
 * `next` link reading on. */
const maxIncidentPages = 20
/** Pages of incidents still open at the page's end read at most. */
const maxOpenPages = 10
/** The ID after every minted one (src/core/ids.ts mints 31-bit IDs): a bound that keeps every
 * event of its timestamp. */
const allOfTimestamp = 2 ** 31

interface Read {
  at: { window: number; cursor: string | null }
  items: NgIncident[]
}

interface EventsPage {
  events: V2Event[]
  next: Position | null
}

/** What one page reads: the list's windows, account, filters and sources. */
interface Scope {
  accountId: number
  windows: Window[]
  keep: (e: V2Event) => boolean
  /** `keep` of the entity's filters only (event-filter.ts). */
  keepEntity: (e: V2Event) => boolean
  incidents: boolean
  deployments: boolean
  /** Deployments a page reads at most. */
  limit: number
}

async function incidentsPage(c: Context<Env>, s: Scope, window: Window, cursor: string | null) {
  const { data } = await c.get('nerdgraph').query<{
    actor: {
      account: {
        aiIssues: {
          incidents: { incidents: NgIncident[]; nextCursor: string | null } | null
        } | null
      } | null
    }
  }>(incidentsDocument, { accountId: s.accountId, cursor, filter: null, timeWindow: window })
  const found = data.actor.account?.aiIssues?.incidents
  return { items: found?.incidents ?? [], nextCursor: found?.nextCursor ?? null }
}

/**
 * Incidents newest first from `from` until the events they imply after `floor`, with the `others`
 * read beside them, are enough for a page, or `floor` reaches `stopAt` (below which `others` are not
 * all known): every incident created after `floor` has been read (the newest first, so one created
 * at `floor` may follow on the next NerdGraph page); `next` is where the walk stopped, null once
 * the history is read.
 */
async function walkIncidents(
  c: Context<Env>,
  s: Scope,
  from: Position,
  beside: Promise<{ others: readonly V2Event[]; stopAt: number }>
) {
  const read: Read[] = []
  let at: Read['at'] | null = { window: from.window, cursor: from.cursor }
  // Nothing after the page's top is wanted: known from the start.
  let floor = from.bound?.ts ?? s.windows[0]!.endTime
  while (at && read.length < maxIncidentPages) {
    const window: Window = s.windows[at.window]!
    const found: { items: NgIncident[]; nextCursor: string | null } = await incidentsPage(
      c,
      s,
      window,
      at.cursor
    )
    const newest = at.window === 0
    // Each incident belongs to the window of its createdAt; an older one ends the window's part.
    const items = found.items.filter(
      (i) =>
        i.createdAt >= window.startTime &&
        (newest ? i.createdAt <= window.endTime : i.createdAt < window.endTime)
    )
    read.push({ at, items })
    const done: boolean =
      found.items.some((i) => i.createdAt < window.startTime) || !found.nextCursor
    floor = done ? window.startTime - 1 : Math.min(floor, ...items.map((i) => i.createdAt))
    at = !done
      ? { window: at.window, cursor: found.nextCursor }
      : at.window + 1 < s.windows.length
        ? { window: at.window + 1, cursor: null }
        : null
    const { others, stopAt } = await beside
    const known = read.flatMap((r) => r.items.flatMap((i) => toV2Events(i, undefined)))
    const certain = [...known, ...others].filter(
      (e) => e.timestamp > floor && after(e, from.bound) && s.keep(e)
    )
    if (certain.length >= alertsPageSize || floor <= stopAt) break
  }
  return { read, floor, next: at }
}

/** Incidents created at or before `floor` and closed after it: their closes belong to the page. */
async function openAt(c: Context<Env>, s: Scope, floor: number): Promise<NgIncident[]> {
  const out: NgIncident[] = []
  const window = { startTime: floor, endTime: floor + 60_000 }
  let cursor: string | null = null
  for (let n = 0; n < maxOpenPages; n += 1) {
    const found = await incidentsPage(c, s, window, cursor)
    out.push(...found.items.filter((i) => i.createdAt <= floor && (i.closedAt ?? 0) > floor))
    cursor = found.nextCursor
    if (!cursor) break
  }
  return out
}

/** One v2 page of events from `from`, and where the next one begins. The deployments come first,
 * the newest from the page's top, as many as a page can show (more when other filters may leave
 * some out); below the oldest of a full answer nothing is certain. */
async function eventsPage(c: Context<Env>, s: Scope, from: Position): Promise<EventsPage> {
  const oldest = s.windows.at(-1)!.startTime - 1
  const top = from.bound ? from.bound.ts + 1 : s.windows[0]!.endTime + 1
  // Sent beside the first incident page (explain mode shows both).
  const beside = (async () => {
    if (!s.deployments) return { others: [], stopAt: oldest }
    const span = { startTime: oldest + 1, endTime: top }
    const others = await deploymentEvents(c, s.accountId, span, s.limit)
    return { others, stopAt: others.length >= s.limit ? others.at(-1)!.timestamp : oldest }
  })()
  beside.catch(() => {}) // awaited below; a walk that fails first leaves it unobserved
  const walk = s.incidents
    ? await walkIncidents(c, s, from, beside)
    : { read: [], floor: oldest, next: null }
  const { others: deployments, stopAt: cut } = await beside
  const floor = Math.max(walk.floor, cut)
  const seen = new Set<string>()
  const incidents = walk.read.flatMap((r) => r.items)
  if (s.incidents) incidents.push(...(await openAt(c, s, floor)))
  // Only incidents with an event on the page need their issue: an incident's events share its
  // entity, and its INCIDENT_OPEN its createdAt (an issue opens with its first incident).
  const onPage = (e: V2Event) =>
    e.timestamp > floor && (!from.bound || e.timestamp <= from.bound.ts) && s.keepEntity(e)
  const unique = incidents.filter(
    (i) =>
      !seen.has(i.incidentId) && seen.add(i.incidentId) && toV2Events(i, undefined).some(onPage)
  )
  const events: V2Event[] = [...deployments]
  if (unique.length) {
    const created = unique.map((i) => i.createdAt)
    const holder = await issueHolders(c, s.accountId, unique, {
      startTime: Math.min(...created) - alertsWindowMs, // an issue opens with its first incident
      endTime: Math.max(...created) + 60_000,
    })
    events.push(...unique.flatMap((i) => toV2Events(i, holder.get(i.incidentId))))
  }
  const ordered = events
    .filter((e) => e.timestamp > floor && after(e, from.bound) && s.keep(e))
    .sort(newestFirst)
  const shown = ordered.slice(0, alertsPageSize)
  const complete = walk.next === null && cut === oldest
  if (ordered.length <= alertsPageSize && complete) return { events: shown, next: null }
  const last = shown.length === alertsPageSize ? shown.at(-1)! : undefined
  const bound = last
    ? { ts: last.timestamp, id: last.id }
    : from.bound && floor >= from.bound.ts
      ? from.bound
      : { ts: floor, id: allOfTimestamp }
  return { events: shown, next: { ...resumeAt(walk.read, walk.next, bound.ts), bound } }
}

/** The incident page the next v2 page reads from: the first read that holds an incident created
 * at or before `ts` (later ones imply no event before it), else where the walk stopped. */
function resumeAt(read: Read[], next: Read['at'] | null, ts: number): Read['at'] {
  const from = read.find((r) => r.items.some((i) => i.createdAt <= ts))
  return from?.at ?? next ?? read.at(-1)?.at ?? { window: 0, cursor: null }
}

/** The filters that decide which events a page holds, as part of the list's cache key. */
const filterKey = (p: V2Params) =>
  ['product', 'entity_type', 'entity_group_id', 'entity_id', 'event_type', 'incident_id']
    .map((name) => p.get(`filter[${name}]`)?.trim() ?? '')
    .join('\u0001')

/** Whether the filters leave room for a DEPLOYMENT event (none has an incident) or for another,
 * and how many deployments a page reads: a page's worth, or the most one query reads when other
 * filters may leave some out. */
function sources(p: V2Params) {
  const type = p.get('filter[event_type]')?.trim().toUpperCase()
  const narrowed = ['product', 'entity_type', 'entity_group_id', 'entity_id'].some((name) =>
    p.get(`filter[${name}]`)?.trim()
  )
  return {
    deployments: !p.get('filter[incident_id]')?.trim() && (!type || type === 'DEPLOYMENT'),
    incidents: type !== 'DEPLOYMENT',
    limit: narrowed ? maxDeployments : alertsPageSize,
  }
}

export async function listEvents(c: Context<Env>) {
  const p = c.get('params')
  const page = pageParam(p)
  const accountId = await alertsAccount(c)
  const windows = alertsWindows()
  const scope: Scope = {
    ...{ accountId, windows, keep: eventFilter(p) },
    ...{ keepEntity: eventFilter(p, { entityOnly: true }), ...sources(p) },
  }
  const span = `${windows[0]!.endTime}-${windows.at(-1)!.startTime}`
  const list = `alerts_events\u0000${accountId}\u0000${filterKey(p)}\u0000${span}`
  const { items, nextCursor } = await cursorPage(c, list, page, async (cursor) => {
    const read = await eventsPage(c, scope, decode(cursor))
    return { items: read.events, nextCursor: read.next && encode(read.next) }
  })
  return { body: { recent_events: items }, link: pageLink(c, page, nextCursor !== null) }
}

/**
 * @module resources/alerts/violations
 * `GET /v2/alerts_violations` from `aiIssues.incidents` (New Relic docs
 * "Migrate from REST API v2 to NerdGraph": violations → aiIssues incidents). Incidents carry only the
 * IDs of their policy and condition; names and the v2 incident ID come from the issues of the same
 * window that hold them (a second request, filtered by those conditions).
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import type { NerdGraphResult } from '../../upstream/nerdgraph'
import { V2Error } from '../../core/errors'
import { pageParam } from '../../http/params'
import { parseTime } from '../../core/time-range'
import { incidentsDocument, issuesDocument } from './documents'
import { numericId } from './ids'
import { toV2Violation, type NgIncident, type NgIssue } from './reshape'
import {
  alertsAccount,
  alertsWindow,
  alertsWindowMs,
  alertsWindows,
  pageLink,
  type Window,
} from './scope'
import { windowedPage } from './paging'

interface IncidentsData {
  actor: {
    account: {
      aiIssues: { incidents: { incidents: NgIncident[]; nextCursor: string | null } | null } | null
    } | null
  }
}

interface IssuesData {
  actor: {
    account: {
      aiIssues: { issues: { issues: NgIssue[]; nextCursor: string | null } | null } | null
    } | null
  }
}

/** Pages of issues read to name one page of incidents, at most. */
const maxIssuePages = 10

/** `start_date` / `end_date` (explorer alerts_violations: "Retrieve violations created after this
 * time" / "created before this time") → the windows read, newest first; both bounds are exact
 * (scope.ts keeps what was created inside each window). */
function violationWindows(c: Context<Env>): Window[] {
  const p = c.get('params')
  const time = (name: 'start_date' | 'end_date', as: 'from' | 'to') => {
    const raw = p.get(name)
    if (raw === undefined || raw.trim() === '') return undefined
    try {
      return parseTime(raw, as)
    } catch {
      throw new V2Error(422, `Invalid '${name}' time`) // [UNCONFIRMED] proposal, as for metric times
    }
  }
  const start = time('start_date', 'from')
  const end = time('end_date', 'to')
  if (start !== undefined && end !== undefined && start > end)
    throw new V2Error(422, "'start_date' must be before 'end_date'")
  return alertsWindows(start, end ?? Math.max(start ?? 0, alertsWindow().endTime))
}

/** The issue holding each incident, from the issues of the incidents' conditions and entities in
 * the window. */
export async function issueHolders(
  c: Context<Env>,
  accountId: number,
  items: NgIncident[],
  window: Window
) {
  const conditionIds = [...new Set(items.flatMap((i) => numericId(i.conditionFamilyId) ?? []))]
  const entityGuids = [...new Set(items.flatMap((i) => i.entityGuids ?? []))].sort()
  // The issues of those conditions and entities (schema AiIssuesFilterIssues).
  const filter = {
    ...(conditionIds.length ? { conditionIds: conditionIds.sort((a, b) => a - b) } : {}),
    ...(entityGuids.length ? { entityGuids } : {}),
  }
  const holder = new Map<string, NgIssue>()
  const wanted = new Set(items.map((i) => i.incidentId))
  let cursor: string | null = null
  for (let n = 0; n < maxIssuePages && wanted.size > 0; n += 1) {
    const result: NerdGraphResult<IssuesData> = await c
      .get('nerdgraph')
      .query<IssuesData>(issuesDocument, {
        accountId,
        cursor,
        filter: conditionIds.length || entityGuids.length ? filter : null,
        timeWindow: window,
      })
    const issues = result.data.actor.account?.aiIssues?.issues
    for (const issue of issues?.issues ?? [])
      for (const id of issue.incidentIds ?? []) if (wanted.delete(id)) holder.set(id, issue)
    cursor = issues?.nextCursor ?? null
    if (!cursor) break
  }
  return holder
}

/** One v2 page of incidents, each with the issue that holds it (undefined when not found). */
async function incidentRows(c: Context<Env>, windows: Window[], onlyOpen: boolean, page: number) {
  const accountId = await alertsAccount(c)
  const filter = onlyOpen ? { states: ['CREATED'] } : null
  const span = [windows[0]!.endTime, windows.at(-1)!.startTime]
  const list = `alerts_violations\u0000${accountId}\u0000${onlyOpen}\u0000${span.join('-')}`
  const {
    items,
    span: pageSpan,
    nextCursor,
  } = await windowedPage(c, list, page, windows, async (timeWindow, cursor) => {
    const { data } = await c
      .get('nerdgraph')
      .query<IncidentsData>(incidentsDocument, { accountId, cursor, filter, timeWindow })
    const found = data.actor.account?.aiIssues?.incidents
    return { items: found?.incidents ?? [], nextCursor: found?.nextCursor ?? null }
  })
  // An issue opens with its first incident or before it: read issues from one window earlier.
  const created = items.map((i) => i.createdAt)
  const issuesWindow = {
    startTime: Math.min(...created) - alertsWindowMs,
    endTime: Math.max(...created) + 60_000,
  }
  const holder = await issueHolders(c, accountId, items, issuesWindow)
  return {
    accountId,
    rows: items.map((incident) => ({ incident, issue: holder.get(incident.incidentId) })),
    span: pageSpan,
    nextCursor,
  }
}

export async function listViolations(c: Context<Env>) {
  const p = c.get('params')
  const page = pageParam(p)
  const { rows, nextCursor } = await incidentRows(c, violationWindows(c), p.bool('only_open'), page)
  const now = Date.now()
  const violations = rows.map((r) => toV2Violation(r.incident, r.issue, now))
  return { body: { violations }, link: pageLink(c, page, nextCursor !== null) }
}

/**
 * @module resources/alerts/incidents
 * `GET /v2/alerts_incidents` from `aiIssues.issues`, and `PUT /v2/alerts_incidents/{id}/acknowledge`
 * and `/close` through `aiIssuesAckIssue` / `aiIssuesResolveIssue` (New Relic docs "Migrate from REST
 * API v2 to NerdGraph": incidents → issues). v2 incident IDs are minted from issue UUIDs
 * (src/resources/alerts/ids.ts); an ID is found again from the pages this key listed, else by walking the
 * account's issues back in time windows (scope.ts), as far as the list goes.
 */
import type { Context } from 'hono'
import { openIssueStates } from '../../../mappings/alerts'
import type { Env } from '../../http/env'
import { V2Error } from '../../core/errors'
import { pageParam } from '../../http/params'
import { pathId } from '../../entities/resolve'
import { issueActionDocuments, issuesDocument } from './documents'
import { incidentId } from './ids'
import { toV2Incident, type NgIssue } from './reshape'
import { alertsAccount, alertsWindows, pageLink, type Window } from './scope'
import { windowedPage, windowedSteps } from './paging'
import { defineCache } from '../../core/cache'

const minute = 60 * 1000

/** per account: minted v2 incident ID → `<createdAt>/<AI issue UUID>` (ids.ts); issues never
 * change ID. */
export const alertIssuesCache = defineCache<string>('alertIssues', {
  freshMs: 60 * minute,
  maxBytes: 2 ** 20,
})

interface IssuesData {
  actor: {
    account: {
      aiIssues: { issues: { issues: NgIssue[]; nextCursor: string | null } | null } | null
      alerts: {
        policiesSearch: { policies: { id: string; incidentPreference: string }[] } | null
      } | null
    } | null
  }
}

/** v2 title for an unknown incident ID [UNCONFIRMED proposal, worded as v2's application 404]. */
export const noIncidentTitle = 'No Incident found with the given ID'
/** v2 title when NerdGraph refuses the action (swagger alerts_incidents 422 reason, typo kept). */
export const incidentActionTitle = 'Validation exception occured'

/** Walking the issues to find a minted ID stops after this many steps (each at most one request
 * per window). */
const maxSearchSteps = 20

async function issuesPage(
  c: Context<Env>,
  accountId: number,
  cursor: string | null,
  filter: Record<string, unknown> | null,
  timeWindow: Window
) {
  const { data } = await c.get('nerdgraph').query<IssuesData>(issuesDocument, {
    accountId,
    cursor,
    filter,
    timeWindow,
  })
  const account = data.actor.account
  const preferences = new Map(
    (account?.alerts?.policiesSearch?.policies ?? []).map((p) => [
      Number(p.id),
      p.incidentPreference,
    ])
  )
  const issues = account?.aiIssues?.issues
  const known = c.get('caches').of(alertIssuesCache)
  for (const issue of issues?.issues ?? [])
    known.set(
      c.get('keyHash'),
      `${accountId}/${incidentId(issue.issueId)}`,
      `${issue.createdAt}/${issue.issueId}`
    )
  return { items: issues?.issues ?? [], nextCursor: issues?.nextCursor ?? null, preferences }
}

export async function listIncidents(c: Context<Env>) {
  const p = c.get('params')
  const page = pageParam(p)
  const accountId = await alertsAccount(c)
  const filter = p.bool('only_open') ? { states: openIssueStates } : null
  let preferences = new Map<number, string>()
  const windows = alertsWindows()
  const list = `alerts_incidents\u0000${accountId}\u0000${JSON.stringify(filter)}\u0000${windows[0]!.endTime}`
  const { items, nextCursor } = await windowedPage(c, list, page, windows, async (w, cursor) => {
    const result = await issuesPage(c, accountId, cursor, filter, w)
    preferences = result.preferences
    return result
  })
  const exclude = p.bool('exclude_violations')
  const incidents = items.map((issue) => toV2Incident(issue, preferences, exclude))
  return { body: { incidents }, link: pageLink(c, page, nextCursor !== null) }
}

/** The AI issue of a minted v2 ID and when it was created: from the pages this key listed, else by
 * walking the account's issues back in time. */
async function findIssue(c: Context<Env>, accountId: number, id: number) {
  const known = c.get('caches').of(alertIssuesCache)
  const hit = known.get(c.get('keyHash'), `${accountId}/${id}`)
  const slash = hit?.indexOf('/') ?? -1
  if (hit && slash > 0)
    return { createdAt: Number(hit.slice(0, slash)), issueId: hit.slice(slash + 1) }
  let steps = 0
  for await (const items of windowedSteps(alertsWindows(), (w, cursor) =>
    issuesPage(c, accountId, cursor, null, w)
  )) {
    const found = items.find((issue) => incidentId(issue.issueId) === id)
    if (found) return { createdAt: found.createdAt, issueId: found.issueId }
    if ((steps += 1) >= maxSearchSteps) break
  }
  throw new V2Error(404, noIncidentTitle)
}

/** `PUT …/acknowledge` and `…/close`: no body; answers `{"incident": {…}}` as it is after the action. */
export async function incidentAction(c: Context<Env>, action: keyof typeof issueActionDocuments) {
  const id = pathId(c.req.param('id'), noIncidentTitle)
  const accountId = await alertsAccount(c)
  const { issueId, createdAt } = await findIssue(c, accountId, id)
  const { data } = await c
    .get('nerdgraph')
    .query<Record<string, { error: string | null; result: unknown } | null>>(
      issueActionDocuments[action],
      { accountId, issueId }
    )
  const outcome = Object.values(data)[0]
  if (!outcome || outcome.error || !outcome.result) throw new V2Error(422, incidentActionTitle)
  // Read back in the minute of its creation, however old the issue is.
  const around = { startTime: createdAt, endTime: createdAt + 60_000 }
  const after = await issuesPage(c, accountId, null, { ids: [issueId] }, around)
  const issue = after.items[0]
  if (!issue) throw new V2Error(404, noIncidentTitle)
  return { incident: toV2Incident(issue, after.preferences) }
}

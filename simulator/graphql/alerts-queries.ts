/** @module simulator/graphql/alerts-queries — `account.aiIssues` and `account.alerts` of the simulated NerdGraph. */
import type { SimChannel, SimIncident, SimIssue } from '../data/alerts/seed'
import { alertsOf, type AlertsState } from '../data/alerts/state'
import type { GraphContext } from './context'

/** Page sizes of the simulated lists (NerdGraph does not document them [UNCONFIRMED]). */
export const ALERTS_PAGE = {
  issues: 25,
  incidents: 25,
  channels: 25,
  policies: 200,
  conditions: 200,
}

export interface Page<T> {
  items: T[]
  nextCursor: string | null
}

/** One page of `all` at an opaque cursor (base64 of the offset); a bad cursor reads as the start. */
export function page<T>(
  all: readonly T[],
  cursor: string | null | undefined,
  size: number
): Page<T> {
  let offset = 0
  if (cursor) {
    try {
      const m = /^offset:(\d+)$/.exec(atob(cursor))
      if (m) offset = Number(m[1])
    } catch {
      offset = 0
    }
  }
  const end = offset + size
  return {
    items: all.slice(offset, end),
    nextCursor: end < all.length ? btoa(`offset:${end}`) : null,
  }
}

interface Window {
  startTime: number
  endTime: number
}

interface IssueFilter {
  ids?: string[]
  states?: string[]
  policyIds?: number[]
  conditionIds?: number[]
  entityGuids?: string[]
  priority?: string[]
  isAcknowledged?: boolean
}

/** Issues and incidents that were open at some time inside the window (none given: all). */
const overlaps = (w: Window | undefined, from: number, to: number | null) =>
  !w || (from <= w.endTime && (to === null || to >= w.startTime))

const newestFirst = <T extends { createdAt: number }>(a: T, b: T) => b.createdAt - a.createdAt

/** An AiIssuesIssue value. */
export function issueValue(state: AlertsState, issue: SimIssue) {
  const policy = state.policies.find((p) => p.id === issue.policyId)
  const condition = state.conditions.find((c) => c.id === issue.conditionId)
  const incidents = state.incidentsOf(issue)
  return {
    accountIds: [issue.accountId],
    acknowledgedAt: issue.acknowledgedAt,
    acknowledgedBy: issue.acknowledgedBy,
    activatedAt: issue.createdAt,
    closedAt: issue.closedAt,
    closedBy: issue.closedBy,
    conditionFamilyId: [issue.conditionId],
    conditionName: condition ? [condition.name] : [],
    createdAt: issue.createdAt,
    description: incidents.map((i) => i.title),
    entityGuids: [...new Set(incidents.map((i) => i.entityGuid))],
    entityNames: [...new Set(incidents.map((i) => i.entityName))],
    entityTypes: ['APPLICATION'],
    incidentIds: issue.incidentIds,
    issueId: issue.issueId,
    policyIds: [issue.policyId],
    policyName: policy ? [policy.name] : [],
    priority: issue.priority,
    state: state.issueState(issue),
    title: incidents.slice(0, 1).map((i) => i.title),
    totalIncidents: incidents.length,
    updatedAt: Math.max(issue.createdAt, issue.acknowledgedAt ?? 0, issue.closedAt ?? 0),
  }
}

function incidentValue(incident: SimIncident) {
  return {
    __typename: 'AiIssuesNewRelicIncident',
    closedAt: incident.closedAt,
    conditionFamilyId: String(incident.conditionId),
    createdAt: incident.createdAt,
    description: [incident.title],
    entityGuids: incident.entityGuid,
    entityNames: incident.entityName,
    entityTypes: 'APPLICATION',
    incidentId: incident.incidentId,
    policyIds: String(incident.policyId),
    priority: incident.priority,
    state: incident.closedAt === null ? 'CREATED' : 'CLOSED',
    title: incident.title,
    updatedAt: incident.closedAt ?? incident.createdAt,
  }
}

const channelTypename: Record<string, string> = {
  EMAIL: 'AlertsEmailNotificationChannel',
  OPSGENIE: 'AlertsOpsGenieNotificationChannel',
  PAGERDUTY: 'AlertsPagerDutyNotificationChannel',
  SLACK: 'AlertsSlackNotificationChannel',
  USER: 'AlertsUserNotificationChannel',
  VICTOROPS: 'AlertsVictorOpsNotificationChannel',
  WEBHOOK: 'AlertsWebhookNotificationChannel',
  XMATTERS: 'AlertsXMattersNotificationChannel',
}

/** An AlertsNotificationChannel value (also a member of AlertsNotificationChannelMutation). */
export function channelValue(state: AlertsState, channel: SimChannel) {
  const policies = channel.policyIds.flatMap((id) => {
    const policy = state.policies.find((p) => p.id === id)
    return policy ? [{ id: String(policy.id), name: policy.name }] : []
  })
  return {
    __typename: channelTypename[channel.type],
    id: String(channel.id),
    name: channel.name,
    type: channel.type,
    config: channel.config,
    associatedPolicies: { policies, totalCount: policies.length },
  }
}

function issuesOf(state: AlertsState, accountId: number, filter: IssueFilter = {}, w?: Window) {
  return state.issues
    .filter(
      (i) =>
        i.accountId === accountId &&
        overlaps(w, i.createdAt, i.closedAt) &&
        (!filter.ids || filter.ids.includes(i.issueId)) &&
        (!filter.states || filter.states.includes(state.issueState(i))) &&
        (!filter.policyIds || filter.policyIds.includes(i.policyId)) &&
        (!filter.conditionIds || filter.conditionIds.includes(i.conditionId)) &&
        (!filter.priority || filter.priority.includes(i.priority)) &&
        (filter.isAcknowledged == null || filter.isAcknowledged === (i.acknowledgedAt !== null)) &&
        (!filter.entityGuids ||
          state.incidentsOf(i).some((x) => filter.entityGuids!.includes(x.entityGuid)))
    )
    .sort(newestFirst)
}

type Args<F> = { cursor?: string | null; filter?: F | null; timeWindow?: Window | null }

/** The `aiIssues` and `alerts` fields of one account. */
export function accountAlerts(accountId: number) {
  const state = (ctx: GraphContext) => alertsOf(ctx.dataset)
  return {
    aiIssues: () => ({
      issues({ cursor, filter, timeWindow }: Args<IssueFilter>, ctx: GraphContext) {
        const s = state(ctx)
        const all = issuesOf(s, accountId, filter ?? {}, timeWindow ?? undefined)
        const { items, nextCursor } = page(all, cursor, ALERTS_PAGE.issues)
        return { issues: items.map((i) => issueValue(s, i)), nextCursor }
      },
      incidents({ cursor, filter, timeWindow }: Args<IssueFilter>, ctx: GraphContext) {
        const f = filter ?? {}
        const all = state(ctx)
          .incidents.filter(
            (i) =>
              i.accountId === accountId &&
              overlaps(timeWindow ?? undefined, i.createdAt, i.closedAt) &&
              (!f.ids || f.ids.includes(i.incidentId)) &&
              (!f.states || f.states.includes(i.closedAt === null ? 'CREATED' : 'CLOSED')) &&
              (!f.priority || f.priority.includes(i.priority)) &&
              (!f.entityGuids || f.entityGuids.includes(i.entityGuid))
          )
          .sort(newestFirst)
        const { items, nextCursor } = page(all, cursor, ALERTS_PAGE.incidents)
        return { incidents: items.map(incidentValue), nextCursor }
      },
    }),
    alerts: () => ({
      notificationChannel({ id }: { id: string }, ctx: GraphContext) {
        const s = state(ctx)
        const channel = s.channelsOf(accountId).find((c) => String(c.id) === id)
        return channel ? channelValue(s, channel) : null
      },
      notificationChannels({ cursor }: { cursor?: string | null }, ctx: GraphContext) {
        const s = state(ctx)
        const all = s.channelsOf(accountId).sort((a, b) => a.id - b.id)
        const { items, nextCursor } = page(all, cursor, ALERTS_PAGE.channels)
        return {
          channels: items.map((c) => channelValue(s, c)),
          nextCursor,
          totalCount: all.length,
        }
      },
      /** NRQL conditions by ID (the simulator's are all static), narrowed as
       * `AlertsNrqlConditionsSearchCriteriaInput` says: exact or contained name and query, policy. */
      nrqlConditionsSearch(
        {
          cursor,
          searchCriteria: q,
        }: { cursor?: string | null; searchCriteria?: ConditionCriteria },
        ctx: GraphContext
      ) {
        const like = (text: string, part: string | null | undefined) =>
          !part || text.toLowerCase().includes(part.toLowerCase())
        const all = state(ctx)
          .conditions.filter(
            (c) =>
              c.accountId === accountId &&
              (!q?.policyId || String(c.policyId) === q.policyId) &&
              (!q?.name || c.name === q.name) &&
              (!q?.query || c.query === q.query) &&
              like(c.name, q?.nameLike) &&
              like(c.query, q?.queryLike)
          )
          .sort((a, b) => a.id - b.id)
        const { items, nextCursor } = page(all, cursor, ALERTS_PAGE.conditions)
        return {
          nrqlConditions: items.map((c) => ({
            __typename: 'AlertsNrqlStaticCondition',
            ...{ id: String(c.id), name: c.name, enabled: c.enabled },
            ...{ nrql: { query: c.query }, policyId: String(c.policyId) },
          })),
          nextCursor,
          totalCount: all.length,
        }
      },
      policiesSearch(
        { cursor, searchCriteria: q }: { cursor?: string | null; searchCriteria?: PolicyCriteria },
        ctx: GraphContext
      ) {
        const all = state(ctx)
          .policies.filter(
            (p) =>
              p.accountId === accountId &&
              (!q?.ids || q.ids.includes(String(p.id))) &&
              (!q?.name || p.name.toLowerCase() === q.name.toLowerCase()) &&
              (!q?.nameLike || p.name.toLowerCase().includes(q.nameLike.toLowerCase()))
          )
          .sort((a, b) => a.id - b.id)
        const { items, nextCursor } = page(all, cursor, ALERTS_PAGE.policies)
        return {
          policies: items.map((p) => ({ ...p, id: String(p.id) })),
          nextCursor,
          totalCount: all.length,
        }
      },
    }),
  }
}

interface ConditionCriteria {
  name?: string | null
  nameLike?: string | null
  policyId?: string | null
  query?: string | null
  queryLike?: string | null
}

interface PolicyCriteria {
  ids?: string[] | null
  name?: string | null
  nameLike?: string | null
}

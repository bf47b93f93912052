/** @module simulator/graphql/alerts-mutations — the aiIssues and notification-channel mutations of the simulated NerdGraph. */
import { alertsOf, type AlertsState } from '../data/alerts/state'
import { channelValue } from './alerts-queries'
import { checkAccount } from './access'
import type { GraphContext } from './context'

/** NerdGraph refuses an account the key cannot see (as `actor.account` does). */
function stateFor(ctx: GraphContext, accountId: number): AlertsState {
  checkAccount(ctx, accountId)
  return alertsOf(ctx.dataset)
}

function issueAction(action: 'ACK' | 'RESOLVE') {
  return ({ accountId, issueId }: { accountId: number; issueId: string }, ctx: GraphContext) => {
    const state = stateFor(ctx, accountId)
    const issue = state.issues.find((i) => i.issueId === issueId && i.accountId === accountId)
    if (!issue) return { error: `Issue ${issueId} not found`, result: null }
    if (issue.closedAt !== null) return { error: `Issue ${issueId} is closed`, result: null }
    const now = ctx.dataset.now()
    if (action === 'ACK') {
      issue.acknowledgedAt = now
      issue.acknowledgedBy = ctx.principal.user.email
    } else state.resolveIssue(issue, now, ctx.principal.user.email)
    return { error: null, result: { accountId, action, issueId } }
  }
}

/** The create input key → channel type, and how its input becomes the channel's `config`. */
const createInputs: Record<string, [string, (input: Record<string, unknown>) => object]> = {
  email: ['EMAIL', ({ emails, includeJson }) => ({ emails, includeJson })],
  opsGenie: [
    'OPSGENIE',
    ({ apiKey, dataCenterRegion, recipients, tags, teams }) => ({
      apiKey,
      dataCenterRegion,
      recipients,
      tags,
      teams,
    }),
  ],
  pagerDuty: ['PAGERDUTY', ({ apiKey }) => ({ apiKey })],
  slack: ['SLACK', ({ url, teamChannel }) => ({ url, teamChannel: teamChannel ?? null })],
  victorOps: ['VICTOROPS', ({ key, routeKey }) => ({ key, routeKey })],
  webhook: [
    'WEBHOOK',
    (w) => ({
      baseUrl: w['baseUrl'],
      basicAuth: w['basicAuth'] ?? null,
      customHttpHeaders: w['customHttpHeaders'] ?? null,
      customPayloadBody: w['customPayloadBody'] ?? null,
      customPayloadType: w['customPayloadType'] ?? null,
    }),
  ],
  xMatters: ['XMATTERS', ({ integrationUrl }) => ({ integrationUrl })],
}

type ChannelIds = { accountId: number; notificationChannelIds: string[]; policyId: string }

function policyChannels(op: 'add' | 'remove') {
  return ({ accountId, notificationChannelIds, policyId }: ChannelIds, ctx: GraphContext) => {
    const state = stateFor(ctx, accountId)
    const policy = state.policies.find(
      (p) => String(p.id) === policyId && p.accountId === accountId
    )
    const errors: object[] = []
    const done: { id: string }[] = []
    for (const id of notificationChannelIds) {
      const channel = state.channelsOf(accountId).find((c) => String(c.id) === id)
      if (!policy || !channel) {
        const what = policy ? `Notification channel ${id}` : `Policy ${policyId}`
        errors.push({
          description: `${what} not found`,
          errorType: 'NOT_FOUND_ERROR',
          notificationChannelId: id,
        })
        continue
      }
      const has = channel.policyIds.includes(policy.id)
      if (op === 'add' && !has) channel.policyIds.push(policy.id)
      if (op === 'remove' && has)
        channel.policyIds = channel.policyIds.filter((p) => p !== policy.id)
      done.push({ id })
    }
    return { errors, notificationChannels: done, policyId }
  }
}

export const alertsMutations = {
  aiIssuesAckIssue: issueAction('ACK'),
  aiIssuesResolveIssue: issueAction('RESOLVE'),
  alertsNotificationChannelCreate(
    {
      accountId,
      notificationChannel,
    }: { accountId: number; notificationChannel: Record<string, Record<string, unknown>> },
    ctx: GraphContext
  ) {
    const state = stateFor(ctx, accountId)
    const given = Object.entries(notificationChannel).filter(([, v]) => v != null)
    const [key, input] = given[0] ?? []
    const spec = key ? createInputs[key] : undefined
    if (given.length !== 1 || !spec || !input || String(input['name'] ?? '').trim() === '') {
      const description = 'Exactly one channel configuration with a name is required'
      return { error: { description, errorType: 'BAD_USER_INPUT' }, notificationChannel: null }
    }
    const channel = {
      id: state.nextId(),
      accountId,
      name: String(input['name']),
      type: spec[0],
      config: spec[1](input) as Record<string, unknown>,
      policyIds: [],
    }
    state.channels.push(channel)
    return { error: null, notificationChannel: channelValue(state, channel) }
  },
  alertsNotificationChannelDelete(
    { accountId, id }: { accountId: number; id: string },
    ctx: GraphContext
  ) {
    const state = stateFor(ctx, accountId)
    const channel = state.channelsOf(accountId).find((c) => String(c.id) === id)
    const error = (errorType: string, description: string) => ({
      id,
      error: { description, errorType, notificationChannelId: id },
    })
    if (!channel) return error('NOT_FOUND_ERROR', `Notification channel ${id} not found`)
    if (channel.type === 'USER') return error('BAD_USER_INPUT', 'User channels cannot be deleted')
    state.channels = state.channels.filter((c) => c !== channel)
    return { id, error: null }
  },
  alertsNotificationChannelsAddToPolicy: policyChannels('add'),
  alertsNotificationChannelsRemoveFromPolicy: policyChannels('remove'),
}

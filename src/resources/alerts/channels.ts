/**
 * @module resources/alerts/channels
 * `GET`/`POST /v2/alerts_channels`, `DELETE /v2/alerts_channels/{id}` and `PUT`/`DELETE
 * /v2/alerts_policy_channels` through NerdGraph's notification channels (`alerts.notificationChannels`,
 * `alertsNotificationChannelCreate`/`Delete`, `alertsNotificationChannelsAddToPolicy`/`RemoveFromPolicy`).
 * New Relic's migration guide points channels to workflows and destinations; the notification channel
 * fields are what answers v2's channel model one to one, so v2bridge uses them.
 */
import type { Context } from 'hono'
import { channelTypes } from '../../../mappings/alerts'
import type { Env } from '../../http/env'
import { V2Error } from '../../core/errors'
import { pageParam } from '../../http/params'
import { pathId } from '../../entities/resolve'
import { configToV2, validationTitle } from './channel-config'
import { channelDocument, channelsDocument, deleteChannelDocument } from './documents'
import { numericId } from './ids'
import { alertsAccount, listLink, pageLink } from './scope'
import { alertsPageSize, cursorSizedPage } from './paging'

export interface NgChannel {
  id: string
  name: string
  type: string
  associatedPolicies: { policies: { id: string }[] }
  config: Record<string, unknown>
}

type Account<T> = { actor: { account: { alerts: T | null } | null } }

/** The `links` every single-channel answer carries (client-go channels_test.go fixtures). */
export const channelLinks = { 'channel.policy_ids': '/v2/policies/{policy_id}' }
export const channelTitles = {
  notFound: 'No channel was found with the given ID', // swagger alerts_channels DELETE 404
  userChannel: 'Cannot delete USER channels', // swagger alerts_channels DELETE 406
  invalidType: 'Invalid channel type', // client-go channels_test.go 422
  noPolicyChannel: 'No policy channel found with the given ID', // swagger alerts_policy_channels 404
  policyChannels:
    'Validation or internal error occurred while trying to update the policy channels', // swagger 422
  policyChannelsDelete:
    'Validation or internal error occurred while trying to delete the policy channels', // swagger DELETE 422
} as const

/** v2 channel ← notification channel: `id` numeric, `type` lower case (mappings/alerts.ts),
 * `configuration` by type (channel-config.ts), `links.policy_ids` ← `associatedPolicies`. */
export function toV2Channel(ch: NgChannel, policyIds?: number[]) {
  return {
    id: numericId(ch.id) ?? 0,
    name: ch.name,
    type: (channelTypes as Record<string, string>)[ch.type] ?? ch.type.toLowerCase(),
    configuration: configToV2[ch.type]?.(ch.config ?? {}) ?? {},
    links: {
      policy_ids: policyIds ?? ch.associatedPolicies.policies.flatMap((p) => numericId(p.id) ?? []),
    },
  }
}

/** `GET /v2/alerts_channels`: `alertsPageSize` channels per page, with `rel="last"` from
 * `totalCount` (v2 sent `last` on every list but violations, New Relic docs "Pagination for API
 * output"). */
export async function listChannels(c: Context<Env>) {
  const page = pageParam(c.get('params'))
  const accountId = await alertsAccount(c)
  type Data = Account<{
    notificationChannels: {
      channels: NgChannel[]
      nextCursor: string | null
      totalCount: number
    } | null
  }>
  let total: number | undefined
  const { items, nextCursor } = await cursorSizedPage(
    c,
    `alerts_channels\u0000${accountId}`,
    page,
    async (cursor) => {
      const { data } = await c.get('nerdgraph').query<Data>(channelsDocument, { accountId, cursor })
      const found = data.actor.account?.alerts?.notificationChannels
      total = found?.totalCount
      return { items: found?.channels ?? [], nextCursor: found?.nextCursor ?? null }
    }
  )
  const lastPage =
    items.length === 0 || total === undefined
      ? undefined
      : Math.max(page + (nextCursor === null ? 0 : 1), Math.ceil(total / alertsPageSize))
  return {
    body: { channels: items.map((ch) => toV2Channel(ch)) },
    link:
      lastPage === undefined ? pageLink(c, page, nextCursor !== null) : listLink(c, page, lastPage),
  }
}

export async function loadChannel(
  c: Context<Env>,
  accountId: number,
  id: number
): Promise<NgChannel> {
  type Data = Account<{ notificationChannel: NgChannel | null }>
  const { data } = await c
    .get('nerdgraph')
    .query<Data>(channelDocument, { accountId, id: String(id) })
  const channel = data.actor.account?.alerts?.notificationChannel
  if (!channel) throw new V2Error(404, channelTitles.notFound)
  return channel
}

export async function deleteChannel(c: Context<Env>) {
  const id = pathId(c.req.param('channel_id'), channelTitles.notFound)
  const accountId = await alertsAccount(c)
  const channel = await loadChannel(c, accountId, id)
  if (channel.type === 'USER') throw new V2Error(406, channelTitles.userChannel)
  type Deleted = { alertsNotificationChannelDelete: { error: { errorType: string } | null } | null }
  const { data } = await c
    .get('nerdgraph')
    .query<Deleted>(deleteChannelDocument, { accountId, id: String(id) })
  const error = data.alertsNotificationChannelDelete?.error
  if (error?.errorType === 'NOT_FOUND_ERROR') throw new V2Error(404, channelTitles.notFound)
  if (!data.alertsNotificationChannelDelete || error) throw new V2Error(422, validationTitle)
  return { channel: toV2Channel(channel), links: channelLinks }
}

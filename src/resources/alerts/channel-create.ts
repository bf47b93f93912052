/**
 * @module resources/alerts/channel-create
 * `POST /v2/alerts_channels` through `alertsNotificationChannelCreate`, then
 * `alertsNotificationChannelsAddToPolicy` for each of the optional `policy_ids`; if one is refused,
 * the channel is deleted again so the write is never half-done.
 */
import type { Context } from 'hono'
import { channelCreateInputs } from '../../../mappings/alerts'
import type { Env } from '../../http/env'
import { V2Error } from '../../core/errors'
import { configFromV2, validationTitle, type V2ChannelInput } from './channel-config'
import { channelLinks, channelTitles, toV2Channel, type NgChannel } from './channels'
import { createChannelDocument, deleteChannelDocument } from './documents'
import { numericId } from './ids'
import { changePolicy } from './policy-channels'
import { alertsAccount } from './scope'

/** `POST /v2/alerts_channels` with `{"channel": {name, type, configuration}}` (form or JSON) and an
 * optional `policy_ids` query; answers 201 `{"channels": [...], "links": …}` (client-go CreateChannel
 * reads `channels[0]`; 201 as v2 creates answer elsewhere [INFERRED]). */
export async function createChannel(c: Context<Env>) {
  const p = c.get('params')
  const type = p.get('channel[type]')?.trim().toLowerCase() ?? ''
  const key = (channelCreateInputs as Record<string, string>)[type]
  const build = configFromV2[type]
  if (!key || !build) throw new V2Error(422, channelTitles.invalidType)
  const name = p.get('channel[name]')?.trim()
  if (!name) throw new V2Error(422, validationTitle, { messages: ['name is required'] })
  const input: V2ChannelInput = {
    name,
    config: (k) => p.get(`channel[configuration][${k}]`),
    object: (k) => objectParam(p.entries(), `channel[configuration][${k}]`),
  }
  const channel = { [key]: build(input) }
  const policyIds = p
    .list('policy_ids')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
  if (policyIds.some((id) => numericId(id) === null)) throw new V2Error(422, validationTitle)
  const accountId = await alertsAccount(c)
  type Created = {
    alertsNotificationChannelCreate: {
      error: unknown
      notificationChannel: NgChannel | null
    } | null
  }
  const { data } = await c
    .get('nerdgraph')
    .query<Created>(createChannelDocument, { accountId, channel })
  const created = data.alertsNotificationChannelCreate?.notificationChannel
  if (!created) throw new V2Error(422, validationTitle)
  const linked: number[] = []
  for (const policyId of policyIds) {
    const ok = await changePolicy(c, 'add', accountId, policyId, [created.id])
    if (!ok) {
      await c.get('nerdgraph').query(deleteChannelDocument, { accountId, id: created.id })
      throw new V2Error(422, validationTitle, { messages: [`policy ${policyId} was not found`] })
    }
    linked.push(Number(policyId))
  }
  return { channels: [toV2Channel(created, linked)], links: channelLinks }
}

/** `channel[configuration][headers][X-Name]=v` pairs as an object, or undefined. */
function objectParam(entries: [string, string][], prefix: string) {
  const pairs = entries.filter(([k]) => k.startsWith(`${prefix}[`) && k.endsWith(']'))
  if (pairs.length === 0) return undefined
  return Object.fromEntries(pairs.map(([k, v]) => [k.slice(prefix.length + 1, -1), v]))
}

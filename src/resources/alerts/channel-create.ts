/**
 * @module resources/alerts/channel-create
 * `POST /v2/alerts_channels` through `alertsNotificationChannelCreate`, then
 * `alertsNotificationChannelsAddToPolicy` for each of the optional `policy_ids`; if one is refused or
 * fails in any way, the channel is deleted again so the write is never half-done.
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
  // `channel` is required (explorer alerts_channels POST): Rails' ParameterMissing, as for
  // deployments (docs-website issue #7091 records the 400 shape).
  if (!p.entries().some(([k]) => k.startsWith('channel[')))
    throw new V2Error(400, 'missing parameter: channel')
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
    let failure: unknown
    try {
      if (await changePolicy(c, 'add', accountId, policyId, [created.id])) {
        linked.push(Number(policyId))
        continue
      }
      failure = new V2Error(422, validationTitle, {
        messages: [`policy ${policyId} was not found`],
      })
    } catch (err) {
      failure = err
    }
    throw await undoCreate(c, accountId, created.id, policyId, failure)
  }
  return { channels: [toV2Channel(created, linked)], links: channelLinks }
}

export const channelCreateTitles = {
  undone: (policyId: string) =>
    `The channel was not created: linking it to policy ${policyId} failed`,
  left: (channelId: string, policyId: string) =>
    `Channel ${channelId} was created, but linking it to policy ${policyId} failed and removing the channel failed too: delete it before retrying`,
} as const

/**
 * Deletes a channel whose linking failed, so a create is all or nothing (issue 22, item 6), and
 * answers the error to throw: the link's own refusal (422) when the undo worked; its fault under a
 * title that says nothing was created, never a bare 429 a client would retry into a duplicate;
 * and a 502 naming the channel when it could not be removed.
 */
async function undoCreate(
  c: Context<Env>,
  accountId: number,
  channelId: string,
  policyId: string,
  failure: unknown
): Promise<unknown> {
  try {
    // Deleting twice cannot hurt: a read's retries are safe here, a lost answer is tried again.
    await c
      .get('nerdgraph')
      .query(
        deleteChannelDocument,
        { accountId, id: channelId },
        { retry: 'read', ownBudgetMs: 10_000 }
      )
  } catch {
    return new V2Error(502, channelCreateTitles.left(channelId, policyId), { cause: failure })
  }
  if (failure instanceof V2Error && failure.status === 422) return failure
  const status = failure instanceof V2Error && failure.status >= 500 ? failure.status : 502
  return new V2Error(status, channelCreateTitles.undone(policyId), { cause: failure })
}

/** `channel[configuration][headers][X-Name]=v` pairs as an object, or undefined. */
function objectParam(entries: [string, string][], prefix: string) {
  const pairs = entries.filter(([k]) => k.startsWith(`${prefix}[`) && k.endsWith(']'))
  if (pairs.length === 0) return undefined
  return Object.fromEntries(pairs.map(([k, v]) => [k.slice(prefix.length + 1, -1), v]))
}

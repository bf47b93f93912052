/**
 * @module resources/alerts/policy-channels
 * `PUT` and `DELETE /v2/alerts_policy_channels` through `alertsNotificationChannelsAddToPolicy` and
 * `alertsNotificationChannelsRemoveFromPolicy`.
 */
import type { Context } from 'hono'
import type { Env } from '../../http/env'
import { V2Error } from '../../core/errors'
import { channelLinks, channelTitles, loadChannel, toV2Channel } from './channels'
import { policyChannelsDocuments } from './documents'
import { numericId } from './ids'
import { alertsAccount } from './scope'

type Changed = Record<
  string,
  { errors: { errorType: string }[]; notificationChannels: { id: string }[] } | null
>

/** One add or remove; false when NerdGraph found no such policy or channel. */
export async function changePolicy(
  c: Context<Env>,
  op: 'add' | 'remove',
  accountId: number,
  policyId: string,
  channelIds: string[]
) {
  const { data } = await c
    .get('nerdgraph')
    .query<Changed>(policyChannelsDocuments[op], { accountId, policyId, channelIds })
  const result = Object.values(data)[0]
  const refused = op === 'add' ? channelTitles.policyChannels : channelTitles.policyChannelsDelete
  if (!result) throw new V2Error(422, refused)
  if (result.errors.some((e) => e.errorType === 'NOT_FOUND_ERROR')) return false
  if (result.errors.length) throw new V2Error(422, refused)
  return true
}

/** `policy_id` and the channel parameter are required: v2 answers 400 `missing parameter: <name>`
 * (docs-website issue #7091 records it for policy_id). */
function requiredId(c: Context<Env>, name: string): string[] {
  const values = c
    .get('params')
    .list(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
  if (values.length === 0) throw new V2Error(400, `missing parameter: ${name}`)
  if (values.some((v) => numericId(v) === null))
    throw new V2Error(404, channelTitles.noPolicyChannel)
  return values
}

/** `PUT /v2/alerts_policy_channels?policy_id=&channel_ids=1,2` → `{"policy": {id, channel_ids}}` with
 * the channels NerdGraph associated (client-go policy_channels_test.go). */
export async function addPolicyChannels(c: Context<Env>) {
  const [policyId] = requiredId(c, 'policy_id')
  const channelIds = requiredId(c, 'channel_ids')
  const accountId = await alertsAccount(c)
  if (!(await changePolicy(c, 'add', accountId, policyId!, channelIds)))
    throw new V2Error(404, channelTitles.noPolicyChannel)
  return { policy: { id: Number(policyId), channel_ids: channelIds.map(Number) } }
}

/** `DELETE /v2/alerts_policy_channels?policy_id=&channel_id=` → the channel as it was, that policy
 * still in its `links.policy_ids` (client-go policy_channels_test.go `testDeletePolicyChannelResponseJSON`).
 * An association that does not exist (unknown channel, or a channel not on that policy) is v2's
 * 404 `No policy channel found with the given ID` (explorer alerts_policy_channels DELETE), found
 * before any write is sent. */
export async function removePolicyChannel(c: Context<Env>) {
  const [policyId] = requiredId(c, 'policy_id')
  const [channelId] = requiredId(c, 'channel_id')
  const accountId = await alertsAccount(c)
  const channel = await loadChannel(c, accountId, Number(channelId)).catch((err: unknown) => {
    throw err instanceof V2Error && err.status === 404
      ? new V2Error(404, channelTitles.noPolicyChannel)
      : err
  })
  const linked = toV2Channel(channel).links.policy_ids
  if (!linked.includes(Number(policyId))) throw new V2Error(404, channelTitles.noPolicyChannel)
  if (!(await changePolicy(c, 'remove', accountId, policyId!, [channelId!])))
    throw new V2Error(404, channelTitles.noPolicyChannel)
  return { channel: toV2Channel(channel, linked), links: channelLinks }
}

/**
 * @module simulator/v2/alerts-writes — the stand-in's alerts writes, on the alerts state the
 * simulated NerdGraph reads (`aiIssues`, `notificationChannels`, the policies' channels):
 * - `PUT /v2/alerts_incidents/{id}/acknowledge` and `/close`: no body, 200 `{"incident"}` as it is
 *   after (newrelic-client-go pkg/alerts/incidents.go reads `incident`); an incident already closed
 *   is 422 "Validation exception occured" (v2 explorer alerts_incidents, its spelling).
 * - `POST /v2/alerts_channels`: `{"channel": {name, type, configuration}}` and `policy_ids`, 201
 *   `{"channels": [...], "links"}`; an unknown type 422 "Invalid channel type" (client-go
 *   channels_test.go); configuration keys per type from the v2 explorer's POST notes.
 * - `DELETE /v2/alerts_channels/{id}`: 200 `{"channel", "links"}`; 404, and 406 for a user
 *   channel (explorer).
 * - `PUT /v2/alerts_policy_channels?policy_id=&channel_ids=`: 200 `{"policy": {id, channel_ids}}`
 *   with the IDs sent; `DELETE …?policy_id=&channel_id=`: 200 `{"channel", "links"}` as the channel
 *   was (both as client-go policy_channels_test.go shows them); 404 "No policy channel found with the
 *   given ID" (explorer). Missing parameters are 400 `missing parameter: <name>` (docs-website issue
 *   #7091 recorded it for policy_id).
 * Titles the sources do not give are worded as v2's other errors [INFERRED].
 */
import type { Hono } from 'hono'
import { alertsOf, type SimChannel } from '../data/alerts/state'
import type { Dataset } from '../data/dataset'
import { principalFor } from '../data/keys'
import { channelOut, incidentOut, v2IncidentId } from './alerts'
import { answer, error, type Body, type C, type Env } from './respond'
import { at, isTree, list, text, writeParams, type Tree } from './write-body'

export const ALERTS_WRITE_TITLES = {
  noIncident: 'No Incident found with the given ID',
  incidentRefused: 'Validation exception occured',
  invalidType: 'Invalid channel type',
  invalidChannel: 'Validation or internal error occurred',
  noChannel: 'No channel was found with the given ID',
  userChannel: 'Cannot delete USER channels',
  noPolicyChannel: 'No policy channel found with the given ID',
} as const

const CHANNEL_LINKS = { 'channel.policy_ids': '/v2/policies/{policy_id}' }

type Config = Record<string, unknown> | undefined

const yes = (v: string | undefined) => /^(true|1|yes)$/i.test(v ?? '')
const orNull = (v: string[]) => (v.length ? v : null)

/** `headers` or `payload` given as an object or as JSON text. */
function objectOf(conf: Tree, key: string): Tree | undefined {
  const v = at(conf, key)
  if (isTree(v)) return v
  try {
    const parsed: unknown = typeof v === 'string' && v.trim() ? JSON.parse(v) : undefined
    return isTree(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

const PAYLOAD_TYPES: Record<string, string> = {
  'application/json': 'JSON',
  'application/x-www-form-urlencoded': 'FORM',
}

/** v2 channel `type` → the NerdGraph channel type and its `config` from v2's `configuration`
 * (undefined when a setting it needs is missing or wrong). User channels are made by New Relic for
 * each user; HipChat and Campfire are gone: none of them is created. */
const CREATE: Record<string, [string, (conf: Tree) => Config]> = {
  email: [
    'EMAIL',
    (k) =>
      list(k, 'recipients').length
        ? { emails: list(k, 'recipients'), includeJson: yes(text(k, 'include_json_attachment')) }
        : undefined,
  ],
  slack: [
    'SLACK',
    (k) =>
      text(k, 'url') ? { url: text(k, 'url'), teamChannel: text(k, 'channel') ?? null } : undefined,
  ],
  pagerduty: [
    'PAGERDUTY',
    (k) => (text(k, 'service_key') ? { apiKey: text(k, 'service_key') } : undefined),
  ],
  victorops: [
    'VICTOROPS',
    (k) =>
      text(k, 'key') && text(k, 'route_key')
        ? { key: text(k, 'key'), routeKey: text(k, 'route_key') }
        : undefined,
  ],
  opsgenie: [
    'OPSGENIE',
    (k) =>
      text(k, 'api_key')
        ? {
            apiKey: text(k, 'api_key'),
            dataCenterRegion: 'US',
            recipients: orNull(list(k, 'recipients')),
            tags: orNull(list(k, 'tags')),
            teams: orNull(list(k, 'teams')),
          }
        : undefined,
  ],
  webhook: [
    'WEBHOOK',
    (k) => {
      const type = text(k, 'payload_type')
      const payloadType = type ? PAYLOAD_TYPES[type] : 'JSON'
      if (!text(k, 'base_url') || !payloadType) return undefined
      const user = text(k, 'auth_username')
      const headers = objectOf(k, 'headers')
      const payload = objectOf(k, 'payload')
      return {
        baseUrl: text(k, 'base_url'),
        basicAuth: user ? { username: user, password: text(k, 'auth_password') ?? '' } : null,
        customHttpHeaders: headers
          ? Object.entries(headers).map(([name, value]) => ({ name, value: String(value) }))
          : null,
        customPayloadBody: payload ? JSON.stringify(payload) : (text(k, 'payload') ?? null),
        customPayloadType: payloadType,
      }
    },
  ],
}

export function alertsWriteRoutes(app: Hono<Env>, dataset: Dataset): void {
  const state = () => alertsOf(dataset)
  const channelOf = (c: C, id: string | undefined) =>
    state()
      .channelsOf(c.get('accountId'))
      .find((ch) => String(ch.id) === id)
  const policyOf = (c: C, id: string | undefined) =>
    state().policies.find((p) => String(p.id) === id && p.accountId === c.get('accountId'))
  /** The user a key acts as; an account's REST API key names none. */
  const userOf = (c: C) =>
    principalFor(c.req.header('x-api-key') ?? c.req.header('api-key'))?.user.email ?? null

  for (const action of ['acknowledge', 'close'] as const)
    app.put(`/alerts_incidents/:id/${action}`, (c) => {
      const issue = state().issues.find(
        (i) =>
          i.accountId === c.get('accountId') &&
          String(v2IncidentId(i.issueId)) === c.req.param('id')
      )
      if (!issue) return error(c, 404, ALERTS_WRITE_TITLES.noIncident)
      if (issue.closedAt !== null) return error(c, 422, ALERTS_WRITE_TITLES.incidentRefused)
      const now = dataset.now()
      if (action === 'close') state().resolveIssue(issue, now, userOf(c))
      else {
        issue.acknowledgedAt = now
        issue.acknowledgedBy = userOf(c)
      }
      return answer(c, { incident: incidentOut(dataset, issue) })
    })

  app.post('/alerts_channels', async (c) => {
    const p = await writeParams(c)
    const input = at(p, 'channel')
    if (!isTree(input)) return error(c, 400, 'missing parameter: channel')
    const spec = CREATE[(text(input, 'type') ?? '').toLowerCase()]
    if (!spec) return error(c, 422, ALERTS_WRITE_TITLES.invalidType)
    const conf = at(input, 'configuration')
    const config = isTree(conf) ? spec[1](conf) : undefined
    const name = text(input, 'name')
    const policies = list(p, 'policy_ids').map((id) => policyOf(c, id))
    if (!name || !config || policies.some((x) => !x))
      return error(c, 422, ALERTS_WRITE_TITLES.invalidChannel)
    const channel: SimChannel = {
      ...{ id: state().nextId(), accountId: c.get('accountId'), name, type: spec[0], config },
      policyIds: [...new Set(policies.map((x) => x!.id))],
    }
    state().channels.push(channel)
    return answer(c, { channels: [channelOut(channel)], links: CHANNEL_LINKS }, 201)
  })
  app.delete('/alerts_channels/:channel_id', (c) => {
    const channel = channelOf(c, c.req.param('channel_id'))
    if (!channel) return error(c, 404, ALERTS_WRITE_TITLES.noChannel)
    if (channel.type === 'USER') return error(c, 406, ALERTS_WRITE_TITLES.userChannel)
    state().channels = state().channels.filter((ch) => ch !== channel)
    return answer(c, { channel: channelOut(channel), links: CHANNEL_LINKS })
  })

  /** `policy_id` and the channel IDs, or v2's 400 for the first one missing. */
  const policyChannels = async (c: C, channelParam: string) => {
    const p = await writeParams(c)
    for (const name of ['policy_id', channelParam])
      if (!list(p, name).length) return error(c, 400, `missing parameter: ${name}`)
    const policy = policyOf(c, list(p, 'policy_id')[0])
    const channels = list(p, channelParam).map((id) => channelOf(c, id))
    if (!policy || channels.some((ch) => !ch))
      return error(c, 404, ALERTS_WRITE_TITLES.noPolicyChannel)
    return { policy, channels: channels as SimChannel[] }
  }
  app.put('/alerts_policy_channels', async (c) => {
    const found = await policyChannels(c, 'channel_ids')
    if (found instanceof Response) return found
    for (const ch of found.channels)
      if (!ch.policyIds.includes(found.policy.id)) ch.policyIds.push(found.policy.id)
    const policy: Body = { id: found.policy.id, channel_ids: found.channels.map((ch) => ch.id) }
    return answer(c, { policy })
  })
  app.delete('/alerts_policy_channels', async (c) => {
    const found = await policyChannels(c, 'channel_id')
    if (found instanceof Response) return found
    const [channel] = found.channels
    if (!channel?.policyIds.includes(found.policy.id))
      return error(c, 404, ALERTS_WRITE_TITLES.noPolicyChannel)
    const body = { channel: channelOut(channel), links: CHANNEL_LINKS }
    channel.policyIds = channel.policyIds.filter((id) => id !== found.policy.id)
    return answer(c, body)
  })
}

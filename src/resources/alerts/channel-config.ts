/**
 * @module resources/alerts/channel-config
 * v2 channel `configuration` ↔ the `config` of NerdGraph's notification channels, per type. v2 wrote
 * every configuration value as a string, booleans and IDs included, and webhook `headers`/`payload`
 * as objects (client-go pkg/alerts/channels.go and channels_test.go; field names from New Relic docs
 * "REST API calls for alerts", notification channels). Keys come out in the order client-go's
 * fixtures show them.
 */
import { V2Error } from '../../core/errors'
import { webhookPayloadTypes } from '../../../mappings/alerts'

type Config = Record<string, unknown>
type V2Config = Record<string, unknown>

const list = (v: unknown) => (Array.isArray(v) ? v.map(String).join(',') : undefined)
const text = (v: unknown) => (v === null || v === undefined || v === '' ? undefined : String(v))

/** Drops absent values, keeping the order of `entries`. */
function defined(entries: [string, unknown][]): V2Config {
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined))
}

/** AlertsNotificationChannelType → v2 `configuration`. */
export const configToV2: Record<string, (c: Config) => V2Config> = {
  EMAIL: (c) =>
    defined([
      ['include_json_attachment', text(c['includeJson'])],
      ['recipients', list(c['emails'])],
    ]),
  SLACK: (c) =>
    defined([
      ['url', text(c['url'])],
      ['channel', text(c['teamChannel'])],
    ]),
  WEBHOOK: (c) => {
    const auth = c['basicAuth'] as { username?: string; password?: string } | null
    const headers = c['customHttpHeaders'] as { name: string; value: string }[] | null
    const type = c['customPayloadType'] as keyof typeof webhookPayloadTypes | null
    return defined([
      ['base_url', text(c['baseUrl'])],
      ['auth_username', text(auth?.username)],
      ['auth_password', text(auth?.password)],
      ['payload_type', type ? webhookPayloadTypes[type] : undefined],
      ['payload', payloadOf(c['customPayloadBody'])],
      [
        'headers',
        headers?.length ? Object.fromEntries(headers.map((h) => [h.name, h.value])) : undefined,
      ],
    ])
  },
  PAGERDUTY: (c) => defined([['service_key', text(c['apiKey'])]]),
  OPSGENIE: (c) =>
    defined([
      ['api_key', text(c['apiKey'])],
      ['teams', list(c['teams'])],
      ['tags', list(c['tags'])],
      ['recipients', list(c['recipients'])],
      ['region', text(c['dataCenterRegion'])],
    ]),
  VICTOROPS: (c) =>
    defined([
      ['key', text(c['key'])],
      ['route_key', text(c['routeKey'])],
    ]),
  USER: (c) => defined([['user_id', text(c['userId'])]]),
  XMATTERS: (c) => defined([['integration_url', text(c['integrationUrl'])]]),
}

/** A JSON payload reads back as the object v2 showed; anything else as its text. */
function payloadOf(body: unknown): unknown {
  if (typeof body !== 'string' || body === '') return undefined
  try {
    const parsed: unknown = JSON.parse(body)
    return parsed !== null && typeof parsed === 'object' ? parsed : body
  } catch {
    return body
  }
}

/** v2 channel fields as read from the request (`channel[configuration][…]`). */
export interface V2ChannelInput {
  name: string
  config: (key: string) => string | undefined
  /** `channel[configuration][<key>][<name>]` pairs (webhook headers and payload objects). */
  object: (key: string) => Record<string, string> | undefined
}

export const validationTitle = 'Validation or internal error occurred' // swagger alerts_channels 422

function required(input: V2ChannelInput, key: string): string {
  const value = input.config(key)?.trim()
  if (!value)
    throw new V2Error(422, validationTitle, { messages: [`configuration.${key} is required`] })
  return value
}

const split = (v: string | undefined) =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
const truthy = (v: string | undefined) => /^(true|1|yes)$/i.test(v?.trim() ?? '')

function headersOf(input: V2ChannelInput) {
  const given = input.object('headers') ?? parseObject(input.config('headers'))
  return given
    ? Object.entries(given).map(([name, value]) => ({ name, value: String(value) }))
    : undefined
}

function parseObject(raw: string | undefined): Record<string, unknown> | undefined {
  if (!raw?.trim()) return undefined
  try {
    const parsed: unknown = JSON.parse(raw)
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>
  } catch {
    // not JSON: invalid below
  }
  throw new V2Error(422, validationTitle, { messages: ['configuration.headers must be an object'] })
}

const payloadTypeOf = (mime: string | undefined) =>
  (Object.entries(webhookPayloadTypes).find(([, m]) => m === mime?.trim())?.[0] ??
    (mime ? undefined : 'JSON')) as keyof typeof webhookPayloadTypes | undefined

/** v2 `type` → the input of its AlertsNotificationChannelCreateConfiguration key. */
export const configFromV2: Record<string, (input: V2ChannelInput) => Config> = {
  email: (i) => ({
    name: i.name,
    emails: split(required(i, 'recipients')),
    includeJson: truthy(i.config('include_json_attachment')),
  }),
  slack: (i) => ({
    name: i.name,
    url: required(i, 'url'),
    teamChannel: i.config('channel') ?? null,
  }),
  webhook: (i) => {
    const username = i.config('auth_username')
    const payload = i.object('payload') ? JSON.stringify(i.object('payload')) : i.config('payload')
    const type = payloadTypeOf(i.config('payload_type'))
    if (!type)
      throw new V2Error(422, validationTitle, {
        messages: ['configuration.payload_type is invalid'],
      })
    return {
      name: i.name,
      baseUrl: required(i, 'base_url'),
      basicAuth: username ? { username, password: i.config('auth_password') ?? '' } : null,
      customHttpHeaders: headersOf(i) ?? null,
      customPayloadBody: payload ?? null,
      customPayloadType: payload ? type : null,
    }
  },
  pagerduty: (i) => ({ name: i.name, apiKey: required(i, 'service_key') }),
  opsgenie: (i) => ({
    name: i.name,
    apiKey: required(i, 'api_key'),
    dataCenterRegion: /^eu$/i.test(i.config('region') ?? '') ? 'EU' : 'US',
    recipients: split(i.config('recipients')) ?? null,
    tags: split(i.config('tags')) ?? null,
    teams: split(i.config('teams')) ?? null,
  }),
  victorops: (i) => ({ name: i.name, key: required(i, 'key'), routeKey: required(i, 'route_key') }),
  xmatters: (i) => ({ name: i.name, integrationUrl: required(i, 'integration_url') }),
}

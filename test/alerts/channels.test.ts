import { describe, expect, it } from 'vitest'
import { alertsHarness } from './helpers'

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

describe('GET /v2/alerts_channels', () => {
  it('lists notification channels with string-valued configuration and policy links', async () => {
    const h = alertsHarness()
    const res = await h.call('/v2/alerts_channels.json')
    expect(res.status).toBe(200)
    const { channels } = (await res.json()) as { channels: Record<string, unknown>[] }
    expect(channels.map((c) => c['id'])).toEqual([2803426, 2932511, 2932512, 2932513, 2932514])
    expect(channels[1]).toEqual({
      id: 2932511,
      name: 'ops@example.com',
      type: 'email',
      configuration: { include_json_attachment: 'true', recipients: 'ops@example.com' },
      links: { policy_ids: [5101101] },
    })
    expect(channels[0]).toEqual({
      id: 2803426,
      name: 'Dana Ops',
      type: 'user',
      configuration: { user_id: '2680539' },
      links: { policy_ids: [] },
    })
    expect(channels[4]!['configuration']).toEqual({ service_key: 'redacted' })
    expect(h.operations()).toEqual(['KeyCheck', 'KeyAccount', 'KeyAccount', 'AlertChannels'])
    expect(h.sent[3]!.variables).toEqual({ accountId: 1000001, cursor: null })
  })

  it('renders XML channels with policy_id items and an empty policy_ids element', async () => {
    const h = alertsHarness()
    const xml = await (await h.call('/v2/alerts_channels.xml')).text()
    expect(xml).toContain(
      '<channels_response>\n  <channels>\n    <channel>\n      <id>2803426</id>'
    )
    expect(xml).toContain('<links>\n        <policy_ids/>\n      </links>')
    expect(xml).toContain(
      '<policy_ids>\n          <policy_id>5101101</policy_id>\n        </policy_ids>'
    )
  })
})

describe('POST /v2/alerts_channels', () => {
  it('creates an email channel through alertsNotificationChannelCreate and answers 201', async () => {
    const h = alertsHarness()
    const res = await h.call(
      '/v2/alerts_channels.json',
      json({
        channel: {
          name: 'team@example.com',
          type: 'email',
          configuration: {
            recipients: 'team@example.com, lead@example.com',
            include_json_attachment: 'false',
          },
        },
      })
    )
    expect(res.status).toBe(201)
    const body = (await res.json()) as { channels: { id: number }[] }
    expect(body).toEqual({
      channels: [
        {
          id: body.channels[0]!.id,
          name: 'team@example.com',
          type: 'email',
          configuration: {
            include_json_attachment: 'false',
            recipients: 'team@example.com,lead@example.com',
          },
          links: { policy_ids: [] },
        },
      ],
      links: { 'channel.policy_ids': '/v2/policies/{policy_id}' },
    })
    const create = h.sent.find((s) => s.query.includes('alertsNotificationChannelCreate'))!
    expect(create.variables).toEqual({
      accountId: 1000001,
      channel: {
        email: {
          name: 'team@example.com',
          emails: ['team@example.com', 'lead@example.com'],
          includeJson: false,
        },
      },
    })
    expect(h.alerts.channels.find((c) => c.id === body.channels[0]!.id)!.type).toBe('EMAIL')
  })

  it('creates a webhook from a form body, with headers, payload and policy_ids', async () => {
    const h = alertsHarness()
    const form = new URLSearchParams([
      ['channel[name]', 'hook'],
      ['channel[type]', 'webhook'],
      ['channel[configuration][base_url]', 'https://hooks.example.com/in'],
      ['channel[configuration][payload_type]', 'application/x-www-form-urlencoded'],
      ['channel[configuration][headers][X-Token]', 'abc'],
      ['channel[configuration][payload][account]', '$ACCOUNT_ID'],
    ])
    const res = await h.call('/v2/alerts_channels.json?policy_ids=5101102', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    })
    expect(res.status).toBe(201)
    const { channels } = (await res.json()) as { channels: Record<string, unknown>[] }
    expect(channels[0]!['configuration']).toEqual({
      base_url: 'https://hooks.example.com/in',
      payload_type: 'application/x-www-form-urlencoded',
      payload: { account: '$ACCOUNT_ID' },
      headers: { 'X-Token': 'abc' },
    })
    expect(channels[0]!['links']).toEqual({ policy_ids: [5101102] })
    expect(h.operations()).toEqual([
      'KeyCheck',
      'KeyAccount',
      'KeyAccount',
      'CreateChannel',
      'AddChannelsToPolicy',
    ])
    expect(h.sent[3]!.variables['channel']).toEqual({
      webhook: {
        name: 'hook',
        baseUrl: 'https://hooks.example.com/in',
        basicAuth: null,
        customHttpHeaders: [{ name: 'X-Token', value: 'abc' }],
        customPayloadBody: '{"account":"$ACCOUNT_ID"}',
        customPayloadType: 'FORM',
      },
    })
  })

  it('deletes the new channel again when a policy in policy_ids does not exist', async () => {
    const h = alertsHarness()
    const before = h.alerts.channels.length
    const res = await h.call(
      '/v2/alerts_channels.json?policy_ids=999',
      json({ channel: { name: 'pd', type: 'pagerduty', configuration: { service_key: 'k' } } })
    )
    expect(res.status).toBe(422)
    expect(h.operations()).toEqual([
      'KeyCheck',
      'KeyAccount',
      'KeyAccount',
      'CreateChannel',
      'AddChannelsToPolicy',
      'DeleteChannel',
    ])
    expect(h.alerts.channels.length).toBe(before)
  })

  it('answers 422 Invalid channel type for user channels and unknown types, without calling NerdGraph', async () => {
    const h = alertsHarness()
    for (const type of ['user', 'carrier-pigeon', '']) {
      const res = await h.call('/v2/alerts_channels.json', json({ channel: { name: 'x', type } }))
      expect(res.status).toBe(422)
      expect(await res.json()).toEqual({ error: { title: 'Invalid channel type' } })
    }
    const missing = await h.call(
      '/v2/alerts_channels.json',
      json({ channel: { name: 'x', type: 'slack', configuration: {} } })
    )
    expect(await missing.json()).toEqual({
      error: {
        title: 'Validation or internal error occurred',
        messages: ['configuration.url is required'],
      },
    })
    expect(h.sent).toEqual([])
  })
})

describe('DELETE /v2/alerts_channels/{id}', () => {
  it('deletes through alertsNotificationChannelDelete and answers the channel as it was', async () => {
    const h = alertsHarness()
    const res = await h.call('/v2/alerts_channels/2932514.json', { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      channel: {
        id: 2932514,
        name: 'Primary on-call',
        type: 'pagerduty',
        configuration: { service_key: 'redacted' },
        links: { policy_ids: [5101102] },
      },
      links: { 'channel.policy_ids': '/v2/policies/{policy_id}' },
    })
    expect(h.alerts.channels.some((c) => c.id === 2932514)).toBe(false)
    const again = await h.call('/v2/alerts_channels/2932514.json', { method: 'DELETE' })
    expect(again.status).toBe(404)
    expect(await again.json()).toEqual({
      error: { title: 'No channel was found with the given ID' },
    })
  })

  it('answers 406 for a user channel and leaves it', async () => {
    const h = alertsHarness()
    const res = await h.call('/v2/alerts_channels/2803426.json', { method: 'DELETE' })
    expect(res.status).toBe(406)
    expect(await res.json()).toEqual({ error: { title: 'Cannot delete USER channels' } })
    expect(h.operations()).toEqual(['KeyCheck', 'KeyAccount', 'KeyAccount', 'AlertChannel'])
  })
})

describe('/v2/alerts_policy_channels', () => {
  it('PUT adds channels to a policy and answers the policy with its channel IDs', async () => {
    const h = alertsHarness()
    const res = await h.call(
      '/v2/alerts_policy_channels.json?policy_id=5101103&channel_ids=2932511,2932512',
      { method: 'PUT' }
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ policy: { id: 5101103, channel_ids: [2932511, 2932512] } })
    expect(h.sent[3]!.variables).toEqual({
      accountId: 1000001,
      policyId: '5101103',
      channelIds: ['2932511', '2932512'],
    })
    expect(h.alerts.channels.find((c) => c.id === 2932512)!.policyIds).toEqual([5101102, 5101103])
  })

  // client-go policy_channels_test.go testDeletePolicyChannelResponseJSON: the channel as it was.
  it('DELETE removes one channel from a policy and answers the channel as it was', async () => {
    const h = alertsHarness()
    const res = await h.call(
      '/v2/alerts_policy_channels.xml?policy_id=5101103&channel_id=2932513',
      { method: 'DELETE' }
    )
    expect(res.status).toBe(200)
    const xml = await res.text()
    expect(xml).toContain('<channel_response>\n  <channel>\n    <id>2932513</id>')
    expect(xml).toContain(
      '<policy_ids>\n        <policy_id>5101101</policy_id>\n        <policy_id>5101103</policy_id>\n      </policy_ids>'
    )
    expect(h.alerts.channels.find((c) => c.id === 2932513)!.policyIds).toEqual([5101101])
  })

  it('answers 400 missing parameter for a missing policy_id and 404 for an unknown policy', async () => {
    const h = alertsHarness()
    const missing = await h.call('/v2/alerts_policy_channels.json?channel_ids=2932511', {
      method: 'PUT',
    })
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({ error: { title: 'missing parameter: policy_id' } })
    const unknown = await h.call(
      '/v2/alerts_policy_channels.json?policy_id=1&channel_ids=2932511',
      {
        method: 'PUT',
      }
    )
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({
      error: { title: 'No policy channel found with the given ID' },
    })
  })
})

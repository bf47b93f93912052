/**
 * A channel create is all or nothing (issue 22, item 6): whatever goes wrong while linking the new
 * channel to its `policy_ids` (a 5xx, a lost answer, NerdGraph's 429), the channel is deleted again
 * and the answer says nothing was created; never a 429 a client would retry into a duplicate.
 */
import { describe, expect, it } from 'vitest'
import type { FaultConfig } from '../../simulator'
import { channelCreateTitles } from '../../src/resources/alerts/channel-create'
import { alertsHarness } from './helpers'

async function fault(h: ReturnType<typeof alertsHarness>, config: FaultConfig) {
  const res = await h.sim.fetch(
    new Request('http://simulator.test/_sim/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(config),
    })
  )
  expect(res.status).toBe(200)
}

const create = (h: ReturnType<typeof alertsHarness>, name: string) =>
  h.call('/v2/alerts_channels.json?policy_ids=5101101', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Account-Id': '1000001' },
    body: JSON.stringify({
      channel: { name, type: 'email', configuration: { recipients: 'ops@example.com' } },
    }),
  })

describe('POST /v2/alerts_channels with policy_ids when linking fails', () => {
  for (const [what, config] of [
    ['a 500', { status: 500, count: 1, after: 1 }],
    ['a lost answer', { body: 'truncated', count: 1, after: 1 }],
    // one try: a 429 without Retry-After is not retried (src/upstream/retry.ts)
    ['NerdGraph 429', { status: 429, count: 1, after: 1 }],
  ] as [string, FaultConfig][]) {
    it(`removes the new channel after ${what} and says nothing was created`, async () => {
      const h = alertsHarness({ UPSTREAM_TIMEOUT_MS: '5000' })
      const before = h.alerts.channelsOf(1000001).length
      await fault(h, config)
      const res = await create(h, `undo ${what}`)
      expect(res.status).toBe(502)
      expect(await res.json()).toEqual({ error: { title: channelCreateTitles.undone('5101101') } })
      expect(h.alerts.channelsOf(1000001)).toHaveLength(before)
      expect(h.operations()).toContain('DeleteChannel')
    })
  }

  it('names the channel it could not remove', async () => {
    const h = alertsHarness({ UPSTREAM_TIMEOUT_MS: '5000' })
    await fault(h, { status: 500, count: 10, after: 1 })
    const res = await create(h, 'left behind')
    expect(res.status).toBe(502)
    const left = h.alerts.channelsOf(1000001).find((c) => c.name === 'left behind')!
    expect(await res.json()).toEqual({
      error: { title: channelCreateTitles.left(String(left.id), '5101101') },
    })
  })
})

describe('POST /v2/alerts_channels without a channel (issue 23, item 19)', () => {
  it('answers 400 missing parameter: channel, as v2 answers a missing wrapper (explorer: channel is required)', async () => {
    const h = alertsHarness()
    for (const body of ['', JSON.stringify({ name: 'x', type: 'email' })]) {
      const res = await h.call('/v2/alerts_channels.json', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      })
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ error: { title: 'missing parameter: channel' } })
    }
    expect(h.operations()).toEqual([])
  })
})

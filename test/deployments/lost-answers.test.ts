/**
 * A write whose answer is lost (issue 22, item 7): NerdGraph ran the mutation but its answer came
 * back garbled. Before, v2bridge answered 502 with a read's title and a CI step retried, recording a
 * second deployment. Now a deployment create reads back what landed and answers it (201); any other
 * write answers a title that says the change may have been applied.
 */
import { describe, expect, it } from 'vitest'
import { apmGuid, type FaultConfig } from '../../simulator'
import { titles } from '../../src/core/errors'
import { harness } from '../helpers/harness'

const guid = apmGuid(1000001, 9045822)
const pinned = { 'X-Account-Id': '1000001', 'Content-Type': 'application/json' }

async function fault(h: ReturnType<typeof harness>, config: FaultConfig) {
  const res = await h.sim.fetch(
    new Request('http://simulator.test/_sim/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(config),
    })
  )
  expect(res.status).toBe(200)
}

const create = (h: ReturnType<typeof harness>, revision: string) =>
  h.get('/v2/applications/9045822/deployments.json', {
    method: 'POST',
    headers: pinned,
    body: JSON.stringify({ deployment: { revision, description: 'lost answer' } }),
  })

describe('a write whose answer is lost', () => {
  it('answers the deployment that landed (201), recorded once', async () => {
    // The read-back finds the deployment once NerdGraph's reads show it: at once here
    // (writeVisibilityMs 0). With the live delay it is not found yet, and the answer is the 502 that
    // says the change may have been applied (next test).
    const h = harness({}, { limits: { writeVisibilityMs: 0 } })
    await fault(h, { body: 'truncated', count: 1 })
    const res = await create(h, 'v-lost-1')
    expect(res.status).toBe(201)
    const { deployment } = (await res.json()) as { deployment: { revision: string; id: number } }
    expect(deployment.revision).toBe('v-lost-1')
    expect(deployment.id).toBeGreaterThan(0)
    expect(h.dataset.deployments.of(guid).filter((d) => d.version === 'v-lost-1')).toHaveLength(1)
    // The same deployment as the list shows it.
    const list = (await (await h.get('/v2/applications/9045822/deployments.json')).json()) as {
      deployments: { id: number; revision: string }[]
    }
    expect(list.deployments.find((d) => d.revision === 'v-lost-1')?.id).toBe(deployment.id)
  })

  it('says the change may have been applied while NerdGraph does not show the deployment yet', async () => {
    const h = harness() // the live delay before a write shows in reads
    await fault(h, { body: 'truncated', count: 1 })
    const res = await create(h, 'v-lost-live')
    expect(res.status).toBe(502)
    expect(await res.json()).toEqual({ error: { title: titles.writeUnconfirmed } })
    expect(h.dataset.deployments.of(guid).filter((d) => d.version === 'v-lost-live')).toHaveLength(
      1
    )
  })

  it('says the change may have been applied when the read-back fails too', async () => {
    const h = harness()
    // The read-back is a read: it is tried three times, so five garbled answers defeat it.
    await fault(h, { body: 'html', count: 5 })
    const res = await create(h, 'v-lost-2')
    expect(res.status).toBe(502)
    expect(await res.json()).toEqual({ error: { title: titles.writeUnconfirmed } })
    expect(h.dataset.deployments.of(guid).filter((d) => d.version === 'v-lost-2')).toHaveLength(1)
  })

  it('answers every other write whose answer is lost with the write title, never a read one', async () => {
    const h = harness()
    // The record the update answers from is read first; then the mutation's answer is lost.
    expect((await h.get('/v2/applications/9045851.json', { headers: pinned })).status).toBe(200)
    await fault(h, { body: 'truncated', count: 1 })
    const res = await h.get('/v2/applications/9045851.json', {
      method: 'PUT',
      headers: pinned,
      body: JSON.stringify({ application: { settings: { app_apdex_threshold: 0.9 } } }),
    })
    expect(res.status).toBe(502)
    expect(await res.json()).toEqual({ error: { title: titles.writeUnconfirmed } })
  })

  it('keeps 429 for a write NerdGraph refused before running it', async () => {
    const h = harness({ UPSTREAM_TIMEOUT_MS: '2000' })
    await fault(h, { status: 429 })
    const res = await create(h, 'v-refused')
    expect(res.status).toBe(429)
    expect(h.dataset.deployments.of(guid).some((d) => d.version === 'v-refused')).toBe(false)
  })
})

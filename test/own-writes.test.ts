/**
 * Read-your-writes (src/core/own-writes.ts) against the simulator's default write visibility: a
 * minute before NerdGraph's reads show a rename, a deployment or a tag (simulator/data/visibility.ts).
 * A read by the key that wrote shows its write at once; another key still reads what NerdGraph shows.
 */
import { describe, expect, it } from 'vitest'
import { PartitionedCache } from '../src/core/cache'
import {
  maxOwnWrites,
  ownWriteMs,
  ownWrites,
  recordOwnWrite,
  type OwnWrite,
} from '../src/core/own-writes'
import { DEMO_KEYS, harness } from './helpers/harness'

const STAGING_APP = 9702201 // in the account both demo keys see
const json = { 'Content-Type': 'application/json' }

const body = async <T>(res: Response | Promise<Response>) => (await (await res).json()) as T

describe('read-your-writes', () => {
  it('shows a rename to the key that made it, in show and list, while NerdGraph shows the old name', async () => {
    const h = harness({ ACCOUNT_ID: '1000002' }) // lists span the staging account
    const path = `/v2/applications/${STAGING_APP}.json`
    type One = { application: { name: string; settings: { app_apdex_threshold: number } } }
    const before = (await body<One>(h.get(path))).application
    const put = await h.get(path, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({
        application: { name: 'Renamed', settings: { app_apdex_threshold: 0.9 } },
      }),
    })
    expect(put.status).toBe(200)
    expect((await body<One>(put)).application.name).toBe('Renamed')
    const shown = (await body<One>(h.get(path))).application
    expect(shown.name).toBe('Renamed')
    expect(shown.settings.app_apdex_threshold).toBe(0.9)
    const list = await body<{ applications: { id: number; name: string }[] }>(
      h.get('/v2/applications.json')
    )
    expect(list.applications.find((a) => a.id === STAGING_APP)?.name).toBe('Renamed')
    // Another key reads NerdGraph, which does not show the rename yet (the live delay).
    const other = await body<One>(h.get(path, { key: DEMO_KEYS.one }))
    expect(other.application.name).toBe(before.name)
    expect(before.name).not.toBe('Renamed')
  })

  it('lists a deployment the key just recorded, first; deleting it is 409, never 404', async () => {
    const h = harness()
    const path = `/v2/applications/${STAGING_APP}/deployments.json`
    const created = await h.get(path, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ deployment: { revision: 'own-1.0.0', description: 'mine' } }),
    })
    expect(created.status).toBe(201)
    const { deployment } = await body<{ deployment: { id: number; revision: string } }>(created)
    const list = await body<{ deployments: { id: number; revision: string }[] }>(h.get(path))
    expect(list.deployments[0]).toMatchObject({ id: deployment.id, revision: 'own-1.0.0' })
    const other = await body<{ deployments: { revision: string }[] }>(
      h.get(path, { key: DEMO_KEYS.one })
    )
    expect(other.deployments.map((d) => d.revision)).not.toContain('own-1.0.0')
    const gone = await h.get(`/v2/applications/${STAGING_APP}/deployments/${deployment.id}.json`, {
      method: 'DELETE',
    })
    expect(gone.status).toBe(409)
  })

  it('refuses a second deployment dated before the key’s first, which NerdGraph does not show yet', async () => {
    const h = harness()
    const path = `/v2/applications/${STAGING_APP}/deployments.json`
    const at = (ms: number) => new Date(Date.now() - ms).toISOString()
    const send = (revision: string, timestamp: string) =>
      h.get(path, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ deployment: { revision, timestamp } }),
      })
    expect((await send('first', at(60_000))).status).toBe(201)
    expect((await send('older', at(120_000))).status).toBe(422)
  })

  it('shows a label the key just put on an application, and deletes it: 200, never 404', async () => {
    const h = harness({ ACCOUNT_ID: '1000002' })
    const label = { category: 'Own', name: 'Write', links: { applications: [STAGING_APP] } }
    const put = await h.get('/v2/labels.json', {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ label }),
    })
    expect(put.status).toBe(201)
    type Labels = { labels: { key: string; links: { applications: number[] } }[] }
    const mine = (await body<Labels>(h.get('/v2/labels.json'))).labels.find(
      (l) => l.key === 'Own:Write'
    )
    expect(mine?.links.applications).toEqual([STAGING_APP])
    const again = await h.get('/v2/labels.json', {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ label }),
    })
    expect(again.status).toBe(304)
    const del = await h.get('/v2/labels/Own:Write.json', { method: 'DELETE' })
    expect(del.status).toBe(200)
    const after = (await body<Labels>(h.get('/v2/labels.json'))).labels.map((l) => l.key)
    expect(after).not.toContain('Own:Write')
  })
})

describe('the own-writes store (src/core/own-writes.ts)', () => {
  it('keeps the last 50 writes per key and scope, for five minutes, never across keys', () => {
    const cache = new PartitionedCache<OwnWrite<number>[]>({ freshMs: ownWriteMs })
    const t0 = Date.now()
    for (let i = 0; i < 60; i++) recordOwnWrite(cache, 'key-a', 'app', i, t0)
    expect(ownWrites(cache, 'key-a', 'app', t0)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 10)
    )
    expect(maxOwnWrites).toBe(50)
    expect(ownWrites(cache, 'key-b', 'app', t0)).toEqual([])
    expect(ownWrites(cache, 'key-a', 'other', t0)).toEqual([])
    recordOwnWrite(cache, 'key-a', 'app', 99, t0 + ownWriteMs)
    expect(ownWrites(cache, 'key-a', 'app', t0 + ownWriteMs)).toEqual([99])
  })
})

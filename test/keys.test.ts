import { describe, expect, it } from 'vitest'
import { DEMO_KEYS, harness } from './helpers/harness'
import { keyFingerprint } from '../src/identity'
import { isLegacyKey, upstreamKeyFor } from '../src/keys'

const restKey = '00000000000000000000000000000000000000000000d3a'
const licenseKey = '00000000000000000000000000000000000001ce'

describe('legacy keys and KEY_MAP', () => {
  it('recognises REST API keys, license keys and admin keys as legacy, and user keys as not', () => {
    expect([restKey, licenseKey, `${'a'.repeat(36)}NRAL`, 'NRAA-123'].map(isLegacyKey)).toEqual([
      true,
      true,
      true,
      true,
    ])
    expect([DEMO_KEYS.all, 'NRAK-NOPE', 'abc'].map(isLegacyKey)).toEqual([false, false, false])
  })

  it('maps a key by its SHA-256 and refuses an unmapped legacy key with 401', async () => {
    const map = new Map([[await keyFingerprint(restKey), DEMO_KEYS.all]])
    expect(upstreamKeyFor(restKey, await keyFingerprint(restKey), map)).toBe(DEMO_KEYS.all)
    expect(upstreamKeyFor('NRAK-X', await keyFingerprint('NRAK-X'), map)).toBe('NRAK-X')
    expect(() => upstreamKeyFor(licenseKey, 'h', map)).toThrow(
      expect.objectContaining({ status: 401 })
    )
  })

  it('serves every /v2 route for a mapped REST key, with caches of its own', async () => {
    const h = harness({
      KEY_MAP: JSON.stringify({ [await keyFingerprint(restKey)]: DEMO_KEYS.all }),
    })
    const res = await h.get('/v2/applications/9045822.json', { key: restKey })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { application: { id: number } }).application.id).toBe(9045822)
    expect((await h.get('/v2/applications/9045822/deployments.xml', { key: restKey })).status).toBe(
      200
    )
    // the user key it maps to resolves the application again: no cache entry is shared
    const before = h.sim.stats().graphqlRequests
    expect((await h.get('/v2/applications/9045822.json')).status).toBe(200)
    expect(h.sim.stats().graphqlRequests - before).toBe(2)
  })

  it('answers 401 naming user keys and KEY_MAP for an unmapped legacy key, never reaching NerdGraph', async () => {
    const h = harness()
    for (const format of ['json', 'xml']) {
      const res = await h.get(`/v2/applications.${format}`, { key: restKey })
      expect(res.status).toBe(401)
      const title =
        'NerdGraph accepts only user keys (NRAK-…): send a user key, or map this legacy key to one in KEY_MAP'
      const text = await res.text()
      expect(text).toContain(title)
      expect(text).not.toContain(restKey)
    }
    expect(h.sim.stats().graphqlRequests).toBe(0)
    expect(JSON.stringify(h.log)).not.toContain(restKey)
  })
})

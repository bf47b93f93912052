import { describe, expect, it } from 'vitest'
import { DEMO_KEYS, harness } from './helpers/harness'
import { keyFingerprint } from '../src/core/identity'
import { isLegacyKey, parseKeyMap, scopeTitles, upstreamKeyFor } from '../src/core/keys'

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
    const map = new Map([[await keyFingerprint(restKey), { key: DEMO_KEYS.all }]])
    expect(upstreamKeyFor(restKey, await keyFingerprint(restKey), map)).toEqual({
      key: DEMO_KEYS.all,
      mapped: true,
    })
    expect(upstreamKeyFor('NRAK-X', await keyFingerprint('NRAK-X'), map)).toEqual({ key: 'NRAK-X' })
    expect(() => upstreamKeyFor(licenseKey, 'h', map)).toThrow(
      expect.objectContaining({ status: 401 })
    )
  })

  it('gives each entry a scope: a license key records v0 deployments only (issue 22, item 5)', async () => {
    const [rest, license] = [await keyFingerprint(restKey), await keyFingerprint(licenseKey)]
    const short = parseKeyMap(JSON.stringify({ [rest]: DEMO_KEYS.all, [license]: DEMO_KEYS.all }))
    // The short form reads the scope from the presented key's shape: 40 hex is a license key.
    const mapped = { key: DEMO_KEYS.all, mapped: true }
    expect(upstreamKeyFor(restKey, rest, short, 'rest')).toEqual(mapped)
    expect(upstreamKeyFor(licenseKey, license, short, 'license')).toEqual(mapped)
    expect(() => upstreamKeyFor(licenseKey, license, short, 'rest')).toThrow(
      expect.objectContaining({ status: 401, title: scopeTitles.license })
    )
    expect(() => upstreamKeyFor(restKey, rest, short, 'license')).toThrow(
      expect.objectContaining({ status: 401, title: scopeTitles.rest })
    )
    const full = parseKeyMap(
      JSON.stringify({ [license]: { key: DEMO_KEYS.all, scope: 'rest', account: 1000002 } })
    )
    expect(full.get(license)).toEqual({ key: DEMO_KEYS.all, scope: 'rest', account: 1000002 })
    expect(upstreamKeyFor(licenseKey, license, full, 'rest')).toEqual({
      key: DEMO_KEYS.all,
      account: 1000002,
      mapped: true,
    })
    for (const [bad, why] of [
      [{ key: DEMO_KEYS.all, scope: 'admin' }, 'scope is not rest or license'],
      [
        { key: DEMO_KEYS.all, account: 2 ** 31 },
        'account is not an account ID (a positive integer)',
      ],
      [{ key: DEMO_KEYS.all, account: '1' }, 'account is not an account ID (a positive integer)'],
      [{ key: DEMO_KEYS.all, extra: 1 }, 'fields other than key, scope and account'],
      [{ scope: 'rest' }, 'key is not a user key'],
      [[DEMO_KEYS.all], 'expected a user key or {"key", "scope", "account"}, not an array'],
    ] as const)
      expect(() => parseKeyMap(JSON.stringify({ [rest]: bad }))).toThrow(`KEY_MAP: entry 1: ${why}`)
    // The second entry is named by its position; a legacy key used as a name is told apart.
    expect(() =>
      parseKeyMap(JSON.stringify({ [rest]: DEMO_KEYS.all, [restKey]: DEMO_KEYS.all }))
    ).toThrow(
      "KEY_MAP: entry 2: its name is a legacy key itself; name it by the key's SHA-256 (64 hex characters), never the key"
    )
  })

  it('refuses a mapped license key on every /v2 route and takes it as x-license-key on v0', async () => {
    const h = harness({
      KEY_MAP: JSON.stringify({ [await keyFingerprint(licenseKey)]: DEMO_KEYS.all }),
    })
    for (const [method, path] of [
      ['GET', '/v2/applications.json'],
      ['GET', '/v2/users.json'],
      ['DELETE', '/v2/applications/9045822.json'],
    ] as const) {
      const res = await h.get(path, { key: licenseKey, method })
      expect(res.status, path).toBe(401)
      expect(await res.json()).toEqual({ error: { title: scopeTitles.license } })
    }
    expect(h.sim.stats().graphqlRequests).toBe(0)
    const v0 = await h.app.request('/deployments.xml', {
      method: 'POST',
      headers: {
        'x-license-key': licenseKey,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'deployment[app_name]=Checkout+Service+(java)&deployment[revision]=scoped',
    })
    expect(v0.status).toBe(201)
  })

  it('reads the account of a key map entry as the pinned account', async () => {
    const h = harness({
      KEY_MAP: JSON.stringify({
        [await keyFingerprint(restKey)]: { key: DEMO_KEYS.all, account: 1000002 },
      }),
    })
    const mapped = (await (await h.get('/v2/applications.json', { key: restKey })).json()) as {
      applications: { id: number }[]
    }
    const all = (await (await h.get('/v2/applications.json')).json()) as {
      applications: { id: number }[]
    }
    const inAccount = h.dataset.applications(1000002).map((a) => a.id)
    expect(mapped.applications.length).toBeGreaterThan(0)
    expect(mapped.applications.every((a) => inAccount.includes(a.id))).toBe(true)
    expect(all.applications.length).toBeGreaterThan(mapped.applications.length)
  })

  it('answers 422 for an account header past the largest GraphQL Int, before any NerdGraph call', async () => {
    const h = harness()
    const res = await h.get('/v2/alerts_incidents.json', {
      headers: { 'X-Account-Id': '2147483648' },
    })
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({
      error: { title: 'Invalid account ID header: expected one account ID' },
    })
    expect(h.sim.stats().graphqlRequests).toBe(0)
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

  it("answers v2's 401 Invalid API Key for an unmapped legacy key, never reaching NerdGraph", async () => {
    const h = harness()
    for (const format of ['json', 'xml']) {
      const res = await h.get(`/v2/applications.${format}`, { key: restKey })
      expect(res.status).toBe(401)
      const text = await res.text()
      // v2's title for a key it refused: v2 explorer errorResponses "Invalid API key", recorded body
      // {"error":{"title":"Invalid API Key"}} (uiowa/uiowa issue #8880)
      if (format === 'json')
        expect(JSON.parse(text)).toEqual({ error: { title: 'Invalid API Key' } })
      else expect(text).toContain('<title>Invalid API Key</title>')
      expect(text).not.toContain(restKey)
    }
    expect(h.sim.stats().graphqlRequests).toBe(0)
    expect(JSON.stringify(h.log)).not.toContain(restKey)
    // The request line tells the operator why: what the key looks like, and that KEY_MAP lacks it.
    expect(h.log.map((l) => [l['status'], l['reason']])).toEqual(
      Array(2).fill([
        401,
        'the key looks like a legacy REST API key and is not in KEY_MAP: NerdGraph takes user keys only; map it to a user key in KEY_MAP or give the client a user key (NRAK-…)',
      ])
    )
    await h.get('/v2/applications.json', { key: licenseKey })
    expect(h.log.at(-1)!['reason']).toMatch(
      /^the key looks like a license key and is not in KEY_MAP:/
    )
  })
})

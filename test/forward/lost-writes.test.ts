/**
 * A write v2bridge forwards to v2 (policy create, always; every write in `V2_COMPARE=v2`) whose
 * answer is lost may have run on v2: it answers 502 or 504 with the "may have been applied" title
 * NerdGraph writes carry, never a read's title, and is not tried again (issue 40, item 6). A 429 was
 * refused before running and stays a 429.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { titles } from '../../src/core/errors'
import { forwardStatus } from '../../mappings/upstream-errors'
import {
  dropped,
  bridgeBefore,
  closeHostile,
  type Call,
  type Hostility,
} from '../helpers/hostile-upstream'

afterEach(closeHostile)

const v2Calls = (u: { calls: Call[] }) => u.calls.filter((c) => c.path.startsWith('/v2/'))
const status =
  (code: number, headers: Record<string, string> = {}): Hostility =>
  (res) =>
    res.writeHead(code, { 'Content-Type': 'application/json', ...headers }).end('{}')
const silent: Hostility = () => {}
const writesOf = (hostility: Hostility) => (c: Call) =>
  c.path.startsWith('/v2/') && c.method !== 'GET' ? hostility : undefined

const createPolicy = {
  method: 'POST',
  body: '{"policy":{"name":"Lost answer","incident_preference":"PER_POLICY"}}',
}
const unconfirmed = { error: { title: titles.forwardedWriteUnconfirmed } }

describe('a forwarded write whose answer is lost', () => {
  it('answers 502 "may have been applied" when v2 drops the connection, once', async () => {
    const { call, upstream } = await bridgeBefore(writesOf(dropped))
    const res = await call('/v2/alerts_policies.json', createPolicy)
    expect([res.status, await res.json()]).toEqual([502, unconfirmed])
    expect(v2Calls(upstream)).toHaveLength(1)
  })

  it('answers 502 "may have been applied" when v2 fails with a 5xx', async () => {
    const { call, upstream } = await bridgeBefore(writesOf(status(503)))
    const res = await call('/v2/alerts_policies.json', createPolicy)
    expect([res.status, await res.json()]).toEqual([502, unconfirmed])
    expect(v2Calls(upstream)).toHaveLength(1)
  })

  it('answers 504 "may have been applied" when v2 does not answer in time', async () => {
    const { call } = await bridgeBefore(writesOf(silent), { UPSTREAM_TIMEOUT_MS: '500' })
    const res = await call('/v2/alerts_policies/5101101.json', { method: 'DELETE' })
    expect([res.status, await res.json()]).toEqual([504, unconfirmed])
  })

  it('keeps a 429 (refused before running) and a read’s own title', async () => {
    const refused = await bridgeBefore(writesOf(status(429, { 'Retry-After': '1' })), {
      UPSTREAM_TIMEOUT_MS: '1000',
    })
    expect((await refused.call('/v2/alerts_policies.json', createPolicy)).status).toBe(429)
    const read = await bridgeBefore((c) => (c.path.startsWith('/v2/') ? status(503) : undefined))
    const res = await read.call('/v2/alerts_policies.json')
    expect([res.status, await res.json()]).toEqual([
      502,
      { error: { title: forwardStatus.badGateway.title } },
    ])
  })

  it('holds for every write in compare mode v2, where v2 runs them', async () => {
    const { call, upstream } = await bridgeBefore(writesOf(dropped), { V2_COMPARE: 'v2' })
    const res = await call('/v2/applications/9045822/deployments.json', {
      method: 'POST',
      body: '{"deployment":{"revision":"v-lost"}}',
    })
    expect([res.status, await res.json()]).toEqual([502, unconfirmed])
    expect(v2Calls(upstream).map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /v2/applications/9045822/deployments.json',
    ])
  })
})

import { describe, expect, it } from 'vitest'
import { DEMO_KEYS } from '../../simulator'
import { fixedSimulator, gql, post } from './graphql-client'

const QUERY = '{ actor { accounts { id } } }'

function setFaults(sim: ReturnType<typeof fixedSimulator>, body: unknown) {
  return sim.fetch(
    new Request('http://simulator.test/_sim/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  )
}

describe('concurrency limit', () => {
  it('answers 429 TOO_MANY_REQUESTS beyond 25 in-flight requests per user', async () => {
    const sim = fixedSimulator()
    await setFaults(sim, { latencyMs: 200 })
    const held = Array.from({ length: 25 }, () => post(sim, QUERY))
    await new Promise((resolve) => setTimeout(resolve, 20))
    const extra = await post(sim, QUERY)
    expect(extra.status).toBe(429)
    expect(await extra.json()).toEqual({
      errors: [{ message: 'Too many requests', extensions: { errorClass: 'TOO_MANY_REQUESTS' } }],
    })
    const other = await post(sim, QUERY, {}, DEMO_KEYS.one)
    expect(other.status).toBe(200)
    expect((await Promise.all(held)).map((r) => r.status)).toEqual(Array(25).fill(200))
    sim.reset()
    expect((await post(sim, QUERY)).status).toBe(200)
  })
})

describe('faults', () => {
  it('rejects a bad fault body with 400', async () => {
    const sim = fixedSimulator()
    expect((await setFaults(sim, '{nope')).status).toBe(400)
    expect((await setFaults(sim, { errorRate: 2 })).status).toBe(400)
    expect((await setFaults(sim, { errorClass: 'NOPE' })).status).toBe(400)
    expect((await setFaults(sim, { unknown: 1 })).status).toBe(400)
  })

  it.each([500, 502, 503, 429])('answers HTTP %i on demand', async (status) => {
    const sim = fixedSimulator()
    await setFaults(sim, { status })
    const response = await post(sim, QUERY)
    expect(response.status).toBe(status)
    await response.text()
  })

  it.each(['TIMEOUT', 'TOO_MANY_REQUESTS', 'INTERNAL_SERVER_ERROR'])(
    'answers HTTP 200 with a %s error and data null',
    async (errorClass) => {
      const sim = fixedSimulator()
      await setFaults(sim, { errorClass })
      const { status, body } = await gql(sim, QUERY)
      expect(status).toBe(200)
      expect(body.data).toBeNull()
      expect(body.errors?.[0]?.extensions).toEqual({ errorClass })
    }
  )

  it('answers malformed bodies with HTTP 200', async () => {
    const sim = fixedSimulator()
    await setFaults(sim, { body: 'html' })
    const html = await post(sim, QUERY)
    expect(html.status).toBe(200)
    expect(html.headers.get('content-type')).toContain('text/html')
    await setFaults(sim, { body: 'truncated' })
    const truncated = await post(sim, QUERY)
    expect(truncated.status).toBe(200)
    await expect(truncated.json()).rejects.toThrow()
  })

  it('applies a fault to the next N requests only, then clears it', async () => {
    const sim = fixedSimulator()
    await setFaults(sim, { status: 503, count: 2 })
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await post(sim, QUERY)).status)
    expect(statuses).toEqual([503, 503, 200, 200])
  })

  it('adds latency', async () => {
    const sim = fixedSimulator()
    await setFaults(sim, { latencyMs: 120 })
    const started = Date.now()
    expect((await post(sim, QUERY)).status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(100)
  })

  it('fires a fractional error rate on a repeatable share of requests', async () => {
    const run = async () => {
      const sim = fixedSimulator()
      await setFaults(sim, { status: 500, errorRate: 0.5 })
      const out: number[] = []
      for (let i = 0; i < 40; i++) out.push((await post(sim, QUERY)).status)
      return out
    }
    const first = await run()
    expect(first.filter((s) => s === 500).length).toBeGreaterThan(5)
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(5)
    expect(await run()).toEqual(first)
  })

  it('is cleared by {} and by reset, and never touches /_sim', async () => {
    const sim = fixedSimulator()
    await setFaults(sim, { status: 500 })
    const stats = await sim.fetch(new Request('http://simulator.test/_sim/stats'))
    expect(stats.status).toBe(200)
    await setFaults(sim, {})
    expect((await post(sim, QUERY)).status).toBe(200)
    await setFaults(sim, { status: 500 })
    await sim.fetch(new Request('http://simulator.test/_sim/reset', { method: 'POST' }))
    expect((await post(sim, QUERY)).status).toBe(200)
  })
})

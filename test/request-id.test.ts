import { describe, expect, it } from 'vitest'
import { passes, requestIdFrom } from '../src/core/request-log'
import { harness } from './helpers/harness'

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('request ids, levels and route templates in the log', () => {
  it('echoes a safe X-Request-Id and logs it with time, level and route template', async () => {
    const { get, log } = harness()
    const before = Date.now()
    const res = await get('/v2/applications/123.json', {
      headers: { 'X-Request-Id': 'lb-7f3a.42' },
    })
    expect(res.headers.get('x-request-id')).toBe('lb-7f3a.42')
    const line = log.at(-1)!
    expect(line).toMatchObject({
      level: 'info',
      requestId: 'lb-7f3a.42',
      method: 'GET',
      route: '/v2/applications/{id}',
      path: '/v2/applications/123.json',
      status: res.status,
    })
    expect(line['time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(Date.parse(String(line['time']))).toBeGreaterThanOrEqual(before - 1)
  })

  it('replaces an unsafe or missing X-Request-Id by a generated one, on errors too', async () => {
    const { get, log } = harness()
    const forged = await get('/v2/applications.json', {
      key: null,
      headers: { 'X-Request-Id': 'x" injected=1 {"level":"error"}' },
    })
    expect(forged.status).toBe(401)
    expect(forged.headers.get('x-request-id')).toMatch(uuid)
    expect(log.at(-1)!['requestId']).toBe(forged.headers.get('x-request-id'))
    const none = await get('/v2/nowhere.json')
    expect(none.status).toBe(404)
    expect(none.headers.get('x-request-id')).toMatch(uuid)
    expect(none.headers.get('x-request-id')).not.toBe(forged.headers.get('x-request-id'))
    expect(log.at(-1)).toMatchObject({ route: 'unmatched', status: 404 })
    expect(requestIdFrom('a'.repeat(129))).toMatch(uuid)
  })

  it('logs 5xx answers at level error, and LOG_LEVEL=error keeps only those', async () => {
    const { get, log, sim } = harness({ LOG_LEVEL: 'error' })
    expect((await get('/v2/applications.json')).status).toBe(200)
    await sim.fetch(
      new Request('http://simulator.test/_sim/faults', {
        method: 'POST',
        body: JSON.stringify({ errorClass: 'TIMEOUT' }),
      })
    )
    expect((await get('/v2/applications.json?filter[name]=slow')).status).toBe(504)
    expect(log.map((l) => [l['level'], l['status']])).toEqual([['error', 504]])
    expect(passes('info', 'info')).toBe(true)
    expect(passes('silent', 'error')).toBe(false)
  })
})

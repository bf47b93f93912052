/**
 * The middlewares `createApp` lists (src/app.ts), each on its own in a small Hono app: the request
 * context and its log line, the operation row, the caller's key and the parameters.
 */
import type { MiddlewareHandler } from 'hono'
import { describe, expect, it } from 'vitest'
import { Hono } from '../../src/http/hono'
import type { Env } from '../../src/http/env'
import { CacheRegistry } from '../../src/core/cache'
import { parseConfig } from '../../src/core/config'
import { V2Error } from '../../src/core/errors'
import { VerifiedKeys } from '../../src/core/identity'
import type { RequestLogLine } from '../../src/core/request-log'
import { operationRouter } from '../../src/http/operations'
import { operationRow, v0OperationRow } from '../../src/http/operation-row'
import { callerKey, keyHeaders } from '../../src/http/key'
import { requestContext } from '../../src/http/request-context'
import { requestParams } from '../../src/http/request-params'
import { uncounted } from '../../src/http/metrics'

const operationOf = operationRouter()
const config = parseConfig({ ALLOW_HTTP: 'true' })

/** `steps` after a fixed request context, then a route that answers what they set. */
function appWith(...steps: MiddlewareHandler<Env>[]) {
  const app = new Hono<Env>()
  app.onError((err, c) =>
    err instanceof V2Error
      ? c.json({ status: err.status, title: err.title, allow: err.headers['Allow'] }, err.status)
      : c.json({ crash: String(err) }, 500)
  )
  app.use(async (c, next) => {
    c.set('config', config)
    c.set('stats', { upstreamRequests: 0, upstreamMs: 0 })
    await next()
  })
  for (const step of steps) app.use(step)
  app.all('*', (c) =>
    c.json({
      format: c.get('format'),
      operation: c.get('operation') && `${c.get('operation').method} ${c.get('operation').path}`,
      keyHash: c.get('keyHash'),
      upstreamKey: c.get('upstreamKey'),
      params: c.get('params')?.entries(),
    })
  )
  return app
}

describe('operationRow', () => {
  const app = appWith(operationRow(operationOf))

  it('settles the format from the suffix and the row from the path', async () => {
    const res = await app.request('/v2/applications/1.xml')
    expect(await res.json()).toEqual({ format: 'xml', operation: 'GET /v2/applications/{id}' })
  })

  it('answers 404 for an unknown path or suffix, 405 with Allow for an unserved method', async () => {
    expect((await app.request('/v2/nothing.json')).status).toBe(404)
    expect((await app.request('/v2/applications.csv')).status).toBe(404)
    const res = await app.request('/v2/applications.json', { method: 'PATCH' })
    expect(await res.json()).toEqual({
      status: 405,
      title: expect.any(String),
      allow: 'GET, HEAD, POST',
    })
  })

  it('takes the v0 deployments API by its suffix, whatever Accept says, XML for a suffix v2 has not', async () => {
    const v0 = appWith(v0OperationRow(operationOf))
    const post = { method: 'POST', headers: { Accept: 'application/xml' } }
    expect(await (await v0.request('/deployments', post)).json()).toEqual({
      format: 'json',
      operation: 'POST /deployments',
    })
    expect(await (await v0.request('/deployments.csv', post)).json()).toMatchObject({
      format: 'xml',
    })
  })
})

describe('callerKey', () => {
  const fingerprint = (key: string) => `fp-${key.length}`

  it('takes the first key header sent, fingerprints it and sends it upstream as it is', async () => {
    const app = appWith(callerKey(fingerprint, keyHeaders.v2))
    const res = await app.request('/', { headers: { 'Api-Key': ' NRAK-ONE ' } })
    expect(await res.json()).toEqual({ keyHash: 'fp-8', upstreamKey: 'NRAK-ONE' })
  })

  it('answers 401 without a key or with one NerdGraph could not take', async () => {
    const app = appWith(callerKey(fingerprint, keyHeaders.v2))
    expect(await (await app.request('/')).json()).toMatchObject({ status: 401 })
    const spaced = await app.request('/', { headers: { 'X-Api-Key': 'NRAK one' } })
    expect(await spaced.json()).toMatchObject({ status: 401 })
  })

  it('takes a license key on the v0 deployments API only', async () => {
    const headers = { 'X-License-Key': 'license-key-0000' }
    const v2 = appWith(callerKey(fingerprint, keyHeaders.v2))
    expect((await v2.request('/', { headers })).status).toBe(401)
    const v0 = appWith(callerKey(fingerprint, keyHeaders.v0))
    expect(await (await v0.request('/', { headers })).json()).toMatchObject({ keyHash: 'fp-16' })
  })
})

describe('requestParams', () => {
  it('adds a form body’s parameters after the query’s, within the row’s cap', async () => {
    const app = appWith(
      operationRow(operationOf),
      callerKey(() => 'fp', keyHeaders.v2),
      requestParams(new VerifiedKeys())
    )
    const res = await app.request('/v2/applications.json?filter[name]=a', {
      method: 'POST',
      headers: { 'X-Api-Key': 'NRAK-ONE', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'filter[ids]=1',
    })
    expect(((await res.json()) as { params: unknown }).params).toEqual([
      ['filter[name]', 'a'],
      ['filter[ids]', '1'],
    ])
  })
})

describe('requestContext', () => {
  it('echoes X-Request-Id, counts the request and writes one line with its route template', async () => {
    const lines: RequestLogLine[] = []
    const counted: unknown[][] = []
    const app = new Hono<Env>()
    app.use(
      requestContext({
        config,
        caches: new CacheRegistry(),
        telemetry: { ...uncounted, request: (...args) => void counted.push(args) },
        log: (line) => lines.push(line),
        operationOf,
        isInternal: () => false,
      })
    )
    app.get('/v2/applications/:id', (c) => c.json({ caches: c.get('caches') !== undefined }))
    const res = await app.request('/v2/applications/7?secret=x', {
      headers: { 'X-Request-Id': 'abc-123' },
    })
    expect(res.headers.get('x-request-id')).toBe('abc-123')
    expect(await res.json()).toEqual({ caches: true })
    expect(counted).toEqual([['/v2/applications/:id', 'GET', 200, expect.any(Number)]])
    expect(lines).toEqual([
      expect.objectContaining({
        requestId: 'abc-123',
        route: '/v2/applications/:id',
        path: '/v2/applications/7',
        status: 200,
      }),
    ])
  })

  it('writes no line and counts nothing for v2bridge’s own internal call', async () => {
    const lines: RequestLogLine[] = []
    const app = new Hono<Env>()
    app.use(
      requestContext({
        config,
        caches: new CacheRegistry(),
        telemetry: uncounted,
        log: (line) => lines.push(line),
        operationOf,
        isInternal: () => true,
      })
    )
    app.get('/x', (c) => c.json({ internal: c.get('internal') }))
    expect(await (await app.request('/x')).json()).toEqual({ internal: true })
    expect(lines).toEqual([])
  })
})

/**
 * A GET body (curl `-X GET -d`, the command template of New Relic's v2 docs, D-intro) carries the
 * same parameters on the Worker as on Node (issue 40, item 5; test/http/get-body.test.ts). workerd
 * hands a Worker an incoming GET with its body as `request.body` (whatwg/fetch issue #1705, the
 * workerd maintainers' note), but a `Request` built in JavaScript cannot carry one; so the test
 * builds the request the Worker receives from a POST with its method read as GET, and calls the
 * Worker's own `fetch` inside workerd.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import worker from '../../src/worker'

const key = 'NRAK-DEMO0000000000000000000000'
const base = 'https://v2bridge.test'

/** A GET with a form body, as workerd hands it to the Worker. */
function getWithBody(path: string, body: string): Request {
  const req = new Request(`${base}${path}`, {
    method: 'POST',
    headers: { 'X-Api-Key': key, 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  })
  Object.defineProperty(req, 'method', { value: 'GET' })
  return req
}

async function call(req: Request): Promise<Response> {
  const ctx = createExecutionContext()
  const res = await worker.fetch(req, env as never, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

describe('a GET body inside workerd', () => {
  it('filters the application list by filter[name] from the body', async () => {
    const all = (await (
      await call(new Request(`${base}/v2/applications.json`, { headers: { 'X-Api-Key': key } }))
    ).json()) as { applications: { name: string }[] }
    const res = await call(getWithBody('/v2/applications.json', 'filter[name]=Checkout'))
    expect(res.status).toBe(200)
    const { applications } = (await res.json()) as { applications: { name: string }[] }
    expect(applications.length).toBeGreaterThan(0)
    expect(applications.length).toBeLessThan(all.applications.length)
    for (const app of applications) expect(app.name.toLowerCase()).toContain('checkout')
  })

  it('reads names[] of a metric-data call from the body', async () => {
    const res = await call(
      getWithBody(
        '/v2/applications/9045822/metrics/data.json',
        'names[]=HttpDispatcher&values[]=call_count&summarize=true'
      )
    )
    expect(res.status).toBe(200)
    const { metric_data } = (await res.json()) as {
      metric_data: { metrics_found: string[]; metrics: { name: string }[] }
    }
    expect(metric_data.metrics_found).toEqual(['HttpDispatcher'])
    expect(metric_data.metrics.map((m) => m.name)).toEqual(['HttpDispatcher'])
  })
})

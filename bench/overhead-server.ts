/**
 * @module bench/overhead-server
 * One server of `npm run bench:overhead`, in its own process: `upstream` (the canned NerdGraph),
 * `bridge` (v2bridge's Node entry, request lines on stdout as in production) or `bare` (a Hono
 * handler that forwards the GraphQL body v2bridge would send and answers NerdGraph's bytes as they
 * come). Reports its URL to the parent over IPC.
 */
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { parseConfig } from '../src/config'
import { startServer } from '../src/node'
import { startCannedUpstream } from './canned-upstream'

const [role, upstream] = process.argv.slice(2)
const send = (message: unknown) => process.send?.(message)

if (role === 'upstream') {
  send({ url: (await startCannedUpstream()).url })
} else if (role === 'bridge') {
  const config = parseConfig({
    PORT: '0',
    NERDGRAPH_URL: `${upstream}/graphql`,
    ALLOW_HTTP: 'true',
    ACCOUNT_ID: '1000001',
  })
  send({ url: (await startServer(config)).url })
} else if (role === 'bare') {
  const bodies = new Map<string, string>()
  process.on('message', (m: { path: string; body: string }) => {
    bodies.set(m.path, m.body)
    send({ ok: m.path })
  })
  const app = new Hono()
  app.get('*', async (c) => {
    const url = new URL(c.req.url)
    const res = await fetch(`${upstream}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'API-Key': c.req.header('x-api-key') ?? '' },
      body: bodies.get(url.pathname + url.search) ?? '{}',
    })
    return new Response(res.body, {
      status: res.status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
  })
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
    send({ url: `http://127.0.0.1:${info.port}` })
  )
  process.on('disconnect', () => server.close())
}
process.on('disconnect', () => process.exit(0))

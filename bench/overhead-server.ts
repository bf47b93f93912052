/**
 * @module bench/overhead-server
 * One server of `npm run bench:overhead`, in its own process: `upstream` (the canned NerdGraph),
 * `bridge` (v2bridge's Node entry, request lines on stdout as in production), `bare` (a Hono
 * handler that forwards the GraphQL body v2bridge would send and answers NerdGraph's bytes as they
 * come, through the global fetch; with `BENCH_BARE=node` through v2bridge's own Node transport,
 * src/node/transport.ts, so both pay the same for the upstream call) or `floor`, the translating
 * floor: the same passthrough, which also parses NerdGraph's answer (`JSON.parse`) and answers
 * `JSON.stringify` of the finished v2 object of the call (v2bridge's own answer to it, handed over
 * parsed by the parent), with no mapping between the two. Reports its URL to the parent
 * over IPC, and answers `{ drain: true }` once no request is in flight (a run's connections close
 * with requests still being worked on), with its CPU time, answered requests and time spent serving.
 */
import { serve } from '@hono/node-server'
import type { Server } from 'node:http'
import { Hono } from 'hono'
import { parseConfig } from '../src/core/config'
import { startServer } from '../src/node'
import { nodeTransport } from '../src/node/transport'
import { startCannedUpstream } from './canned-upstream'

const [role, upstream] = process.argv.slice(2)
const send = (message: unknown) => process.send?.(message)

/** Counts the requests `server` is working on and has answered; answers a drain request when
 * none is in flight, with the answered count, the process's CPU time so far (all threads) and the
 * time requests spent in it, from their arrival to their answer's last byte handed to the socket. */
function drains(server: Server) {
  let inFlight = 0
  let answered = 0
  let servedNs = 0n
  server.on('request', (_req, res) => {
    const arrived = process.hrtime.bigint()
    inFlight++
    res.once('finish', () => (servedNs += process.hrtime.bigint() - arrived))
    res.once('close', () => {
      inFlight--
      answered++
    })
  })
  process.on('message', (m: { drain?: boolean }) => {
    if (!m.drain) return
    const poll = () => {
      if (inFlight > 0) return void setTimeout(poll, 5)
      const cpu = process.cpuUsage()
      send({
        drained: true,
        answered,
        cpuMicros: cpu.user + cpu.system,
        servedNs: Number(servedNs),
      })
    }
    poll()
  })
}

if (role === 'upstream') {
  send({ url: (await startCannedUpstream()).url })
} else if (role === 'bridge') {
  const config = parseConfig({
    PORT: '0',
    NERDGRAPH_URL: `${upstream}/graphql`,
    ALLOW_HTTP: 'true',
    // Every call translated: answers shared across keys (src/upstream/reuse.ts) would serve the
    // rotating keys from memory, and the bench would measure no translation.
    SHARED_ANSWERS: 'false',
    ACCOUNT_ID: '1000001',
  })
  const server = await startServer(config)
  drains(server.http)
  send({ url: server.url })
} else if (role === 'bare' || role === 'floor') {
  const bodies = new Map<string, string>()
  /** The v2 object of each call, which the floor serialises on every answer. */
  const answers = new Map<string, unknown>()
  process.on('message', (m: { path?: string; body?: string; v2?: string }) => {
    if (m.path === undefined || m.body === undefined) return
    bodies.set(m.path, m.body)
    if (m.v2 !== undefined) answers.set(m.path, JSON.parse(m.v2))
    send({ ok: m.path })
  })
  const viaNode = process.env['BENCH_BARE'] === 'node'
  const post = viaNode ? nodeTransport() : fetch
  const app = new Hono()
  // A run that ends closes its connections mid-answer (largest call, concurrency 100): the fetch of
  // an answer nobody waits for fails with ECONNRESET. Not a failure of the passthrough; not logged.
  app.onError((_err, c) => c.body(null, 502))
  app.get('*', async (c) => {
    const url = new URL(c.req.url)
    const res = await post(`${upstream}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'API-Key': c.req.header('x-api-key') ?? '' },
      body: bodies.get(url.pathname + url.search) ?? '{}',
    })
    if (role === 'floor') {
      const parsed: unknown = JSON.parse(await res.text())
      const v2 = answers.get(url.pathname + url.search) ?? parsed
      return c.body(JSON.stringify(v2), res.status as 200, {
        'content-type': 'application/json; charset=utf-8',
      })
    }
    return new Response(viaNode ? await res.text() : res.body, {
      status: res.status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
  })
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
    send({ url: `http://127.0.0.1:${info.port}` })
  )
  drains(server as Server)
  process.on('disconnect', () => server.close())
}
process.on('disconnect', () => process.exit(0))

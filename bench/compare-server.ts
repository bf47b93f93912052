/**
 * @module bench/compare-server
 * One server of `npm run bench:compare`, in its own process (`node --expose-gc --import tsx`):
 *
 * - `upstream <simulator>`: NerdGraph and the v2 stand-in as a replay of the simulator. The first
 *   request with a given method, URL, key and body goes to the simulator; its answer (status, headers,
 *   bytes) is kept and every later identical request gets it back, so the upstream's own cost is a
 *   map lookup (as bench/canned-upstream.ts is for bench:overhead) and the extra upstream calls of
 *   compare mode take no CPU from the server measured: v2 and NerdGraph run elsewhere in production.
 *   `{ delayMs }` over IPC makes every answer wait that long first (a distant upstream's latency).
 * - `bridge <upstream> <mode> [sample]`: v2bridge's Node entry with `V2_COMPARE=<mode>` (`off`, `v2`
 *   or `bridge`), `V2_COMPARE_SAMPLE=<sample>` and `V2_COMPARE_PER_KEY=25` (the most: the bench's
 *   calls all carry one key, and every sampled call is compared). Request lines are dropped.
 *
 * Reports `{ url }` to the parent over IPC. A bridge answers `{ drain: true }` once no request is in
 * flight and its comparisons have settled (one outcome per served read), with its CPU time so far,
 * the reads it answered and its compare outcomes by kind; `{ memory: true }` the same after three
 * full GCs, with `heapUsed` and `rss`.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { parseConfig } from '../src/core/config'
import { startServer } from '../src/node'

const [role, target, mode, sample] = process.argv.slice(2)
const send = (message: unknown) => process.send?.(message)

interface Kept {
  status: number
  headers: [string, string][]
  body: Buffer
}

/** Headers that describe one transfer, not the answer (fetch has already decoded the body). */
const transfer = new Set(['connection', 'content-encoding', 'content-length', 'date', 'keep-alive'])
const forwarded = ['accept', 'api-key', 'content-type', 'x-api-key']

function replay(simulator: string) {
  const kept = new Map<string, Promise<Kept>>()
  let delayMs = 0
  process.on('message', (m: { delayMs?: number }) => {
    if (m.delayMs === undefined) return
    delayMs = m.delayMs
    send({ delayMs })
  })
  const fetchKept = (method: string, url: string, headers: IncomingHttpHeaders, body: Buffer) => {
    const out = new Headers()
    for (const h of forwarded) {
      const value = headers[h]
      if (typeof value === 'string') out.set(h, value)
    }
    return fetch(simulator + url, {
      method,
      headers: out,
      ...(body.length ? { body: new Uint8Array(body) } : {}),
    }).then(async (res) => ({
      status: res.status,
      headers: [...res.headers].filter(([h]) => !transfer.has(h)),
      body: Buffer.from(await res.arrayBuffer()),
    }))
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const key = [
        req.method,
        req.url,
        req.headers['api-key'] ?? req.headers['x-api-key'],
        body.toString('utf8'),
      ].join('\n')
      let answer = kept.get(key)
      if (!answer) {
        answer = fetchKept(req.method!, req.url!, req.headers, body)
        kept.set(key, answer)
        // A failure or a busy answer is not kept: asked again next time.
        answer.then(
          (a) => void ((a.status === 429 || a.status >= 500) && kept.delete(key)),
          () => kept.delete(key)
        )
      }
      const reply = () =>
        answer.then(
          (a) => res.writeHead(a.status, a.headers).end(a.body),
          (err: unknown) => res.writeHead(502).end(String(err))
        )
      if (delayMs) setTimeout(reply, delayMs)
      else void reply()
    })
  })
  server.listen(0, '127.0.0.1', () => {
    const address = server.address()
    send({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` })
  })
}

async function bridge(upstream: string) {
  const compared = mode !== 'off'
  const server = await startServer(
    parseConfig({
      PORT: '0',
      NERDGRAPH_URL: `${upstream}/graphql`,
      V2_URL: `${upstream}/v2`,
      ALLOW_HTTP: 'true',
      ...(compared
        ? { V2_COMPARE: mode!, V2_COMPARE_SAMPLE: sample ?? '1', V2_COMPARE_PER_KEY: '25' }
        : {}),
    }),
    undefined,
    { log: () => {} }
  )
  // Reads of the bench (`/v2/…`) in flight and answered; `/metrics`, read by the drain, is not one.
  let inFlight = 0
  let answered = 0
  server.http.on('request', (req, res) => {
    if (!req.url?.startsWith('/v2/')) return
    inFlight++
    res.once('close', () => {
      inFlight--
      answered++
    })
  })
  const outcomes = async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text()
    const by: Record<string, number> = {}
    for (const m of text.matchAll(/^v2bridge_compare_total\{.*,outcome="(\w+)"\} (\d+)$/gm))
      by[m[1]!] = (by[m[1]!] ?? 0) + Number(m[2])
    return by
  }
  const sum = (by: Record<string, number>) => Object.values(by).reduce((a, b) => a + b, 0)
  /** Resolves once no read is in flight and every answered read has its outcome (or, should a read
   * have none, once the outcomes have not moved for half a second). */
  const drained = async () => {
    let last = -1
    let still = 0
    for (;;) {
      const by = compared ? await outcomes() : {}
      const n = sum(by)
      if (inFlight === 0 && (!compared || n >= answered || still >= 10)) return by
      still = n === last ? still + 1 : 0
      last = n
      await new Promise((done) => setTimeout(done, 50))
    }
  }
  const gc = (globalThis as { gc?: () => void }).gc
  process.on('message', async (m: { drain?: boolean; memory?: boolean }) => {
    if (!m.drain && !m.memory) return
    const by = await drained()
    const cpu = process.cpuUsage()
    const reply = { answered, cpuMicros: cpu.user + cpu.system, outcomes: by }
    if (!m.memory) return send(reply)
    // Three full GCs, each followed by a turn of the event loop: what a GC finds unreachable but a
    // FinalizationRegistry still holds (undici's per-request signals) goes at the next one.
    for (let i = 0; i < 3; i++) {
      gc?.()
      await new Promise((done) => setTimeout(done, 50))
    }
    const { heapUsed, rss } = process.memoryUsage()
    send({ ...reply, heapUsed, rss, gc: Boolean(gc) })
  })
  send({ url: server.url })
}

if (role === 'upstream') replay(target!)
else await bridge(target!)
process.on('disconnect', () => process.exit(0))

/**
 * A hostile upstream on a loopback socket (issue 40): NerdGraph or v2 answering some calls with
 * bodies no reader should hold (a gzip bomb, an endless HTML page, a 200 MB string), or losing
 * them, and every other call with the in-process simulator's own answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { gzipSync } from 'node:zlib'
import { createSimulator, DEMO_KEYS } from '../../simulator'
import { createApp, type AppOptions } from '../../src/app'
import { parseConfig, type ConfigInput } from '../../src/core/config'
import { nodeTransport } from '../../src/node/transport'

export interface Call {
  method: string
  path: string
  body: string
  /** The key it carried (`API-Key` to NerdGraph, `X-Api-Key` to v2). */
  key: string
}

/** What the hostile upstream does with a call it picked: it writes the answer itself. */
export type Hostility = (res: ServerResponse, call: Call) => void

export interface HostileUpstream {
  url: string
  /** Every call, in order. */
  calls: Call[]
  /** Bytes the hostile answers had written when their connection closed. */
  written: number[]
  close(): Promise<void>
}

/**
 * Serves `pick(call)`'s hostility, or, when it picks none, `fallback`'s answer (the simulator's
 * fetch) to the same call.
 */
export async function hostileUpstream(
  pick: (call: Call) => Hostility | undefined,
  fallback?: (req: Request) => Promise<Response>
): Promise<HostileUpstream> {
  const calls: Call[] = []
  const written: number[] = []
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const key = req.headers['api-key'] ?? req.headers['x-api-key']
      const call = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        body: `${Buffer.concat(chunks)}`,
        key: typeof key === 'string' ? key : '',
      }
      calls.push(call)
      const hostility = pick(call)
      if (hostility) {
        res.once('close', () => written.push(res.socket?.bytesWritten ?? 0))
        return hostility(res, call)
      }
      const headers = new Headers()
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v)
      const init: RequestInit = { method: call.method, headers }
      if (call.method !== 'GET' && call.method !== 'HEAD') init.body = call.body
      void fallback!(new Request(`http://simulator.test${call.path}`, init)).then(
        async (answer) => {
          res.writeHead(answer.status, Object.fromEntries(answer.headers))
          res.end(Buffer.from(await answer.arrayBuffer()))
        }
      )
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    written,
    close: () => {
      server.closeAllConnections()
      return new Promise((done) => server.close(() => done()))
    },
  }
}

/** Writes `next()` while the client reads, up to `total` chunks; stops when it goes away. */
function pump(res: ServerResponse, next: () => Buffer, total: number) {
  let sent = 0
  const write = () => {
    while (sent < total && !res.destroyed) {
      sent++
      if (!res.write(next())) return void res.once('drain', write)
    }
    if (!res.destroyed) res.end()
  }
  res.once('close', () => (sent = total))
  write()
}

/** 64 MiB of spaces, gzipped (about 64 KiB): JSON whitespace, so only its size can refuse it. */
const bombMember = gzipSync(Buffer.alloc(64 * 2 ** 20, ' '), { level: 9 })

/** A 200 `application/json` in gzip whose members inflate to 10 GiB of whitespace. */
export const gzipBomb: Hostility = (res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })
  pump(res, () => bombMember, 160)
}

const mebibyte = (fill: string) => Buffer.alloc(2 ** 20, fill)

/** An answer of `status` and `type`: `prefix`, then `mib` MiB of `fill`, chunked, no length. */
export const endless =
  (status: number, type: string, mib: number, prefix = '', fill = 'a'): Hostility =>
  (res) => {
    res.writeHead(status, { 'Content-Type': type })
    if (prefix) res.write(prefix)
    const chunk = mebibyte(fill)
    pump(res, () => chunk, mib)
  }

/** A 200 JSON answer that is one 200 MB string. */
export const hugeString = endless(200, 'application/json', 200, '{"data":{"s":"')

/** The call is taken and its connection dropped without an answer. */
export const dropped: Hostility = (res) => res.socket?.destroy()

const started: HostileUpstream[] = []

/** Closes every upstream `bridgeBefore` started (call it after each test). */
export const closeHostile = () => Promise.all(started.splice(0).map((u) => u.close()))

/**
 * v2bridge over the Node transport, in front of a NerdGraph (`/graphql`) and a v2 (`/v2`) that
 * answer as the simulator does except where `pick` chooses. `call` sends the all-accounts demo key,
 * account 1000001 and a JSON content type unless told otherwise.
 */
export async function bridgeBefore(
  pick: (call: Call) => Hostility | undefined,
  settings: ConfigInput = {},
  parts: Partial<AppOptions> = {}
) {
  const sim = createSimulator()
  const upstream = await hostileUpstream(pick, (req) => sim.fetch(req))
  started.push(upstream)
  const app = createApp({
    config: parseConfig({
      NERDGRAPH_URL: `${upstream.url}/graphql`,
      V2_URL: `${upstream.url}/v2`,
      ALLOW_HTTP: 'true',
      ...settings,
    }),
    fetch: nodeTransport(),
    log: () => {},
    ...parts,
  })
  const call = (path: string, init: RequestInit = {}) =>
    app.request(path, {
      ...init,
      headers: {
        'X-Api-Key': DEMO_KEYS.all,
        'X-Account-Id': '1000001',
        'Content-Type': 'application/json',
        ...init.headers,
      },
    })
  return { call, upstream }
}

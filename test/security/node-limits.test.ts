/**
 * The Node entry over real sockets against hostile or careless clients (issue 12): bodies past the
 * cap with and without a length, on GET and POST, and clients that leave mid-body.
 */
import { request, type ClientRequest, type IncomingMessage } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../src/core/config'
import { startServer, type NodeServer } from '../../src/node'
import type { RequestLogLine } from '../../src/core/request-log'
import { DEMO_KEYS, startSimulatorServer, type SimulatorServer } from '../../simulator'

let sim: SimulatorServer
let bridge: NodeServer
const log: RequestLogLine[] = []

beforeAll(async () => {
  sim = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
  const config = parseConfig({ PORT: '0', NERDGRAPH_URL: `${sim.url}/graphql`, ALLOW_HTTP: 'true' })
  bridge = await startServer(config, undefined, { log: (line) => log.push(line) })
})
afterAll(async () => {
  await bridge.close()
  await sim.close()
})

function open(method: string, path: string, headers: Record<string, string | number> = {}) {
  const req = request(`${bridge.url}${path}`, {
    method,
    headers: { 'X-Api-Key': DEMO_KEYS.all, ...headers },
  })
  const response = new Promise<{ status: number; text: string; res: IncomingMessage }>(
    (resolve, reject) => {
      req.on('response', (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (text += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, res }))
      })
      req.on('error', reject)
    }
  )
  return { req, response }
}

const waitFor = async (test: () => boolean, ms = 3000) => {
  const until = Date.now() + ms
  while (!test() && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
}

const form = (bytes: number) => `names[]=${'a'.repeat(bytes - 8)}`

describe('bodies on the Node entry', () => {
  it('answers 413 to a GET body past 64 KiB instead of answering with part of it', async () => {
    const body = `filter[name]=Storefront&${form(70 * 1024)}`
    const { req, response } = open('GET', '/v2/applications.json', {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Length': Buffer.byteLength(body),
    })
    req.end(body)
    const res = await response
    expect(res.status).toBe(413)
    expect(JSON.parse(res.text)).toEqual({ error: { title: 'Request body too large' } })
  })

  it('answers 413 to a chunked POST while the client is still sending it', async () => {
    const { req, response } = open('POST', '/v2/applications.json', {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Transfer-Encoding': 'chunked',
    })
    const chunk = form(16 * 1024)
    for (let i = 0; i < 6; i++) req.write(chunk) // 96 KiB sent, the request left open
    const res = await response
    expect(res.status).toBe(413)
    expect(req.writableEnded).toBe(false)
    req.destroy()
  })

  it('closes the connection after answering a request whose body is still arriving', async () => {
    // A made-up key is refused before the body is read; keeping the connection would make Node
    // read the rest to discard it: 100 MiB of it held a core in `npm run bench:hostile`.
    const { req, response } = open('POST', '/v2/applications.json', {
      'X-Api-Key': 'NRAK-MADEUP-0000000000000000000',
      'Content-Type': 'text/plain',
      'Transfer-Encoding': 'chunked',
    })
    req.write('a'.repeat(16 * 1024))
    const res = await response
    expect(res.status).toBe(401)
    expect(res.res.headers['connection']).toBe('close')
    await waitFor(() => req.socket?.destroyed === true || req.socket?.readyState === 'readOnly')
    expect(req.writableEnded).toBe(false)
    req.destroy()
  })

  it('reads a chunked GET body without Content-Length like any other GET body', async () => {
    // curl -H 'Transfer-Encoding: chunked' --data-binary @- -X GET …: the form arrives in chunks.
    const { req, response } = open('GET', '/v2/applications.json', {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Transfer-Encoding': 'chunked',
    })
    req.write('filter[name]=Cart')
    await new Promise((r) => setTimeout(r, 50))
    req.end('+Gateway&exclude_links=true')
    const res = await response
    expect(res.status).toBe(200)
    expect(res.res.headers['content-length']).toBeDefined()
    const body = JSON.parse(res.text) as { applications: { name: string }[]; links?: unknown }
    // the key's own account (src/entities/accounts.ts listAccount): not 'Cart Gateway (staging)'
    expect(body.applications.map((a) => a.name)).toEqual(['Cart Gateway (nodejs)'])
    expect(body.links).toBeUndefined() // exclude_links, from the second chunk
  })

  it('closes the connection after a 413 instead of draining the rest of the body', async () => {
    const { req, response } = open('POST', '/v2/applications.json', {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Transfer-Encoding': 'chunked',
    })
    const closed = new Promise<void>((done) => req.once('close', () => done()))
    req.on('error', () => {}) // the server may reset what is still being sent
    for (let i = 0; i < 6; i++) req.write(form(16 * 1024))
    const res = await response
    expect(res.status).toBe(413)
    expect(res.res.headers['connection']).toBe('close')
    await closed // without ending the request: the server closed the connection
    expect(req.writableEnded).toBe(false)
  })

  it('answers 413 to a chunked GET body past the cap, and keeps serving others', async () => {
    const { req, response } = open('GET', '/v2/applications.xml', {
      'Transfer-Encoding': 'chunked',
    })
    for (let i = 0; i < 6; i++) req.write(form(16 * 1024))
    const res = await response
    expect(res.status).toBe(413)
    expect(res.text).toContain('<title>Request body too large</title>')
    req.destroy()
    const ok = await fetch(`${bridge.url}/v2/applications.json?filter[name]=Storefront`, {
      headers: { 'X-Api-Key': DEMO_KEYS.all },
    })
    expect(ok.status).toBe(200)
  })

  it('logs a client that leaves mid-body as an abort (499), not a server error', async () => {
    const before = log.length
    const { req, response } = open('POST', '/v2/applications.json', {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Length': 50_000,
    })
    response.catch(() => {})
    req.write('filter[name]=Store')
    await new Promise((r) => setTimeout(r, 100))
    ;(req as ClientRequest).destroy()
    await waitFor(() => log.length > before)
    const line = log.slice(before).find((l) => l.path === '/v2/applications.json')
    expect(line?.status).toBe(499)
    expect(line?.error).toBeUndefined()
  })
})

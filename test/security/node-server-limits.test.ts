/**
 * The Node server's own limits (issue 12, items 11 and 14): timeouts for slow clients, a connection
 * cap that still lets an exporter's ~600 connections through, v2-shaped 400/408/431 from Node itself,
 * and `Content-Length` on HEAD.
 */
import { Agent, request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConfigInput } from '../../src/core/config'
import { parseNodeConfig } from '../../src/node/config'
import { startServer, type NodeServer } from '../../src/node'

let server: NodeServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function start(settings: ConfigInput = {}) {
  const config = parseNodeConfig({
    PORT: '0',
    NERDGRAPH_URL: 'http://127.0.0.1:9/graphql',
    ALLOW_HTTP: 'true',
    ...settings,
  })
  server = await startServer(config, undefined, { log: () => {} })
  return new URL(server.url)
}

/** Writes `text` on a raw socket and collects everything until the server closes it. */
function raw(url: URL, text: string, keepOpen = true): Promise<{ data: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    let data = ''
    const socket: Socket = connect(Number(url.port), url.hostname, () => {
      socket.write(text)
      if (!keepOpen) socket.end()
    })
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (data += chunk))
    socket.on('close', () => resolve({ data, ms: Date.now() - started }))
    socket.on('error', reject)
  })
}

const v2Error = (data: string, status: number, title: string) => {
  expect(data).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `))
  expect(data.toLowerCase()).toContain('content-type: application/json; charset=utf-8')
  expect(data.slice(data.indexOf('\r\n\r\n') + 4)).toBe(JSON.stringify({ error: { title } }))
}

describe('slow clients', () => {
  it('answers 408 in v2 shape to a body that does not arrive within REQUEST_TIMEOUT_MS', async () => {
    const url = await start({ REQUEST_TIMEOUT_MS: '300', HEADERS_TIMEOUT_MS: '300' })
    const { data, ms } = await raw(
      url,
      'POST /v2/applications.json HTTP/1.1\r\nHost: x\r\nX-Api-Key: NRAK-SLOW\r\n' +
        'Content-Length: 1000\r\n\r\nfilter'
    )
    v2Error(data, 408, 'Request timeout')
    expect(ms).toBeLessThan(2500)
  })

  it('answers 408 to headers that never end within HEADERS_TIMEOUT_MS', async () => {
    const url = await start({ HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '1000' })
    const { data, ms } = await raw(url, 'GET /v2/applications.json HTTP/1.1\r\nHost: x\r\n')
    v2Error(data, 408, 'Request timeout')
    expect(ms).toBeLessThan(2500)
  })

  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const url = await start({ KEEP_ALIVE_TIMEOUT_MS: '200' })
    const { data, ms } = await raw(url, 'GET /v2/applications.json HTTP/1.1\r\nHost: x\r\n\r\n')
    expect(data).toMatch(/^HTTP\/1\.1 401 /)
    expect(ms).toBeLessThan(1500)
  })
})

describe('what Node refuses itself', () => {
  it('answers an unparsable request with a v2 400', async () => {
    const url = await start()
    v2Error((await raw(url, 'NOT HTTP AT ALL\r\n\r\n')).data, 400, 'Bad request')
  })

  it('answers headers over Node’s limit with a v2 431', async () => {
    const url = await start()
    const big = `GET /v2/applications.json HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`
    v2Error((await raw(url, big)).data, 431, 'Request header fields too large')
  })

  it('answers an HTTP/1.1 request without Host with a v2 400', async () => {
    const url = await start()
    const { data } = await raw(
      url,
      'GET /v2/applications.json HTTP/1.1\r\nX-Api-Key: NRAK-X\r\n\r\n'
    )
    v2Error(data, 400, 'Bad request')
  })

  it('answers a malformed Host with a v2 400', async () => {
    const url = await start()
    const { data } = await raw(
      url,
      'GET /v2/applications.json HTTP/1.1\r\nHost: a@b\r\nConnection: close\r\n\r\n'
    )
    expect(data).toMatch(/^HTTP\/1\.1 400 /)
    expect(data).toContain('"error":{"title":')
  })
})

describe('connections', () => {
  it('refuses connections past MAX_CONNECTIONS', async () => {
    const url = await start({ MAX_CONNECTIONS: '2' })
    const open = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<Socket>((resolve) => {
            const s = connect(Number(url.port), url.hostname, () => resolve(s))
          })
      )
    )
    await new Promise((r) => setTimeout(r, 50))
    const third = await raw(url, 'GET /v2/applications.json HTTP/1.1\r\nHost: x\r\n\r\n')
    expect(third.data).toBe('')
    for (const s of open) s.destroy()
  })

  it('answers 600 simultaneous connections with the default settings', async () => {
    const url = await start()
    const agent = new Agent({ keepAlive: true, maxSockets: 600 })
    const statuses = await Promise.all(
      Array.from(
        { length: 600 },
        () =>
          new Promise<number>((resolve, reject) => {
            request(`${url.origin}/v2/applications.json`, { agent }, (res) => {
              res.resume()
              res.on('end', () => resolve(res.statusCode ?? 0))
            })
              .on('error', reject)
              .end()
          })
      )
    )
    agent.destroy()
    expect(statuses.every((s) => s === 401)).toBe(true)
  }, 20_000)
})

describe('HEAD', () => {
  it('answers with the Content-Length of the GET', async () => {
    const url = await start()
    const lengthOf = (method: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        request(`${url.origin}/v2/applications.xml`, { method }, (res) => {
          res.resume()
          res.on('end', () => resolve(res.headers['content-length']))
        })
          .on('error', reject)
          .end()
      })
    const get = await lengthOf('GET')
    expect(get).toMatch(/^\d+$/)
    expect(await lengthOf('HEAD')).toBe(get)
  })
})

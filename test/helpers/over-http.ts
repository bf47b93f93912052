/**
 * Serves a fetch handler (test/helpers/fake-fetch.ts) on a loopback HTTP server and answers with a
 * fetch that reaches it through the Node entry's transport (src/node/transport.ts), so the same
 * scripted replies test both ways to NerdGraph. A handler that rejects cuts the connection.
 */
import { createServer, type Server } from 'node:http'
import { nodeTransport } from '../../src/node/transport'

const servers: Server[] = []
const forwarded = ['api-key', 'content-type', 'user-agent', 'accept']

export function overHttp(handler: typeof fetch): typeof fetch {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const headers = forwarded.flatMap((h) => {
        const v = req.headers[h]
        return typeof v === 'string' ? [[h, v] as [string, string]] : []
      })
      const init = { method: req.method, headers, body: Buffer.concat(chunks).toString() }
      handler(`https://nerdgraph.test${req.url}`, init).then(
        async (answer) => {
          res.writeHead(answer.status, Object.fromEntries(answer.headers))
          res.end(await answer.text())
        },
        () => req.socket.destroy()
      )
    })
  })
  servers.push(server)
  const listening = new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`)
    })
  )
  const transport = nodeTransport()
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(input instanceof Request ? input.url : input).pathname
    return transport(`${await listening}${path}`, init)
  }) as typeof fetch
}

/** Closes every server `overHttp` started, with the connections still open. */
export async function closeServers(): Promise<void> {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((done) => server.close(done))
  }
}

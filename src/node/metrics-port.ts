/**
 * @module node/metrics-port
 * `GET /metrics` on a port of its own (`METRICS_PORT`), so the public port need not expose it: a
 * second listener on the same host that answers only that path (Prometheus text format, Prometheus
 * docs "Exposition formats"). The public port then answers `/metrics` 404, as for `METRICS=false`.
 */
import { createServer } from 'node:http'
import { contentType } from '../core/prometheus'
import { titles } from '../core/errors'

export interface MetricsServer {
  url: string
  close(): Promise<void>
}

/** Listens on `host:port`; `render` gives the whole exposition at each scrape. */
export function startMetricsServer(
  host: string,
  port: number,
  render: () => string
): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
      const body = render()
      res.writeHead(200, {
        'Content-Type': contentType,
        'Content-Length': Buffer.byteLength(body),
        'Cache-Control': 'no-store',
      })
      res.end(req.method === 'HEAD' ? undefined : body)
      return
    }
    const body = JSON.stringify({ error: { title: titles.notFound } })
    res.writeHead(404, { 'Content-Type': 'application/json', 'Content-Length': body.length })
    res.end(body)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      const { port: bound } = server.address() as { port: number }
      resolve({
        url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
        close: () => new Promise((done) => server.close(() => done())),
      })
    })
  })
}

/** @module simulator/node-server — runs a simulator on a real socket (Node only; @hono/node-server is loaded on demand). */
import { createSimulator, type Simulator, type SimulatorOptions } from './simulator'

export interface SimulatorServerOptions extends SimulatorOptions {
  /** 0 = any free port. */
  port?: number
  hostname?: string
}

export interface SimulatorServer {
  /** `http://127.0.0.1:<port>` (loopback even when listening on all interfaces). */
  url: string
  close(): Promise<void>
  simulator: Simulator
}

/** Starts `createSimulator()` with @hono/node-server; resolves once it listens. */
export async function startSimulatorServer(
  options: SimulatorServerOptions = {}
): Promise<SimulatorServer> {
  const { port = 0, hostname = '127.0.0.1', ...simOptions } = options
  const { serve } = await import('@hono/node-server')
  const simulator = createSimulator(simOptions)
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: (req) => simulator.fetch(req), hostname, port }, (info) => {
      const host = hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname
      resolve({
        url: `http://${host.includes(':') ? `[${host}]` : host}:${info.port}`,
        simulator,
        close: () =>
          new Promise((done) => {
            server.close(() => done())
            if ('closeAllConnections' in server) server.closeAllConnections()
          }),
      })
    })
    server.once('error', reject)
  })
}

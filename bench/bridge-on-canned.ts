/**
 * @module bench/bridge-on-canned
 * v2bridge's Node entry in this process (startServer, its own transport, request lines not written)
 * in front of the canned NerdGraph (bench/canned-upstream.ts via bench/overhead-server.ts) in a child
 * process: what bench/profile.ts and bench/overhead-memory.ts measure.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { parseConfig } from '../src/core/config'
import { startServer, type NodeServer } from '../src/node'

export async function bridgeOnCanned(): Promise<{
  server: NodeServer
  upstream: ChildProcess
  upstreamUrl: string
}> {
  const upstream = fork(new URL('./overhead-server.ts', import.meta.url).pathname, ['upstream'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  const upstreamUrl = await new Promise<string>((resolve) =>
    upstream.once('message', (m: { url: string }) => resolve(m.url))
  )
  const server = await startServer(
    parseConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      NERDGRAPH_URL: `${upstreamUrl}/graphql`,
      ALLOW_HTTP: 'true',
      // Every call translated: answers shared across keys (src/upstream/reuse.ts) would serve the
      // rotating keys from memory, and the bench would measure no translation.
      SHARED_ANSWERS: 'false',
      ACCOUNT_ID: '1000001',
    }),
    undefined,
    { log: () => {} }
  ).catch((err: unknown) => {
    upstream.kill()
    throw err
  })
  return { server, upstream, upstreamUrl }
}

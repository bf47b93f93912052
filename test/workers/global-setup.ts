/** Starts the NerdGraph simulator on a free loopback port for the workerd project, and writes the
 * Worker's static assets (scripts/assets.ts) that wrangler.toml's `[assets]` binds as `ASSETS`. */
import type { TestProject } from 'vitest/node'
import { startSimulatorServer } from '../../simulator'
import { writeAssets } from '../../scripts/assets'
import { clockOffsetMs } from '../helpers/real-clock'

/**
 * workerd's INFO lines for the two connections a green run ends on purpose, each written whole by the
 * pool (`exception = …`, with a `stack:` line): the pool's socket to a test file's runner, closed when
 * the file is done (@cloudflare/vitest-pool-workers filters it itself from 0.16.6,
 * cloudflare/workers-sdk#13833), and the upload of bodies.test.ts that the Worker stops reading at
 * 64 KiB. The pool runs workerd with `verbose: true` and its own log handler, which the config cannot
 * replace (workers-sdk#14821); so these exact lines, and nothing else, are dropped from this process's
 * output. A failing test still fails and prints: vitest reports it, not workerd.
 */
const expectedDisconnect =
  /^exception = (workerd\/api\/web-socket\.c\+\+:\d+: disconnected: WebSocket peer disconnected|kj\/async-io\.c\+\+:\d+: disconnected: read end of pipe was aborted)(\nstack:[^\n]*)?\n$/

function dropExpectedDisconnects(stream: NodeJS.WriteStream) {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    typeof chunk === 'string' && expectedDisconnect.test(chunk)
      ? true
      : write(chunk, ...rest)) as typeof stream.write
}

export default async function setup(project: TestProject) {
  // Not undone at teardown: the pool closes its last runner socket after global teardown.
  dropExpectedDisconnects(process.stdout)
  dropExpectedDisconnects(process.stderr)
  writeAssets()
  // Writes show in NerdGraph's reads at once (`writeVisibilityMs: 0`): compare.test.ts reads a
  // deployment written to the v2 stand-in through v2bridge's own list right after.
  const server = await startSimulatorServer({
    port: 0,
    hostname: '127.0.0.1',
    limits: { writeVisibilityMs: 0 },
  })
  project.provide('simulatorUrl', server.url)
  project.provide('clockOffsetMs', clockOffsetMs())
  project.provide('setupAt', Date.now())
  return () => server.close()
}

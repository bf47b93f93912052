/**
 * A server that cannot start for a reason its settings can fix (a port in use, a HOST that does
 * not resolve, a bad setting) says so in one line on stderr, with no stack, and exits 2: the Node
 * entry and `v2bridge serve` alike.
 */
import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main, type Io } from '../../src/cli/main'
import { startFailure, StartFailure } from '../../src/node/lifecycle'
import { repoRoot } from '../helpers/child-server'

let taken: Server
let port: number
beforeAll(async () => {
  taken = createServer()
  await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done))
  port = (taken.address() as { port: number }).port
})
afterAll(() => new Promise<void>((done) => taken.close(() => done())))

/** The Node entry as `node dist/node.js` runs it, with `env`: its exit code and output. */
function serve(env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/node.ts'], {
      cwd: repoRoot,
      env: {
        PATH: process.env['PATH'] ?? '',
        NERDGRAPH_URL: 'https://api.newrelic.com/graphql',
        ...env,
      },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (b: Buffer) => (stdout += b))
    child.stderr.on('data', (b: Buffer) => (stderr += b))
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

const oneLine = (text: string) => text.trimEnd().split('\n')

describe('start failures of the Node server', () => {
  it('a port in use: one line naming PORT, exit 2', async () => {
    const run = await serve({ HOST: '127.0.0.1', PORT: String(port) })
    expect(run.code).toBe(2)
    expect(oneLine(run.stderr)).toEqual([
      `v2bridge: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE); stop what listens there or set PORT to a free port`,
    ])
    expect(run.stdout).toBe('')
  })

  it('a HOST that does not resolve: one line naming HOST, exit 2', async () => {
    // .invalid never resolves (RFC 2606 §2).
    const run = await serve({ HOST: 'v2bridge.invalid', PORT: '0' })
    expect(run.code).toBe(2)
    const lines = oneLine(run.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^v2bridge: cannot listen on v2bridge\.invalid:0: HOST v2bridge\.invalid (does not resolve \(ENOTFOUND\)|could not be resolved now \(EAI_AGAIN\)); set HOST to an address/
    )
  })

  it('a bad setting: the settings named, no stack, exit 2', async () => {
    const run = await serve({ PORT: 'eighty' })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^invalid v2bridge configuration:\n {2}PORT: /)
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })

  it('v2bridge serve: the same line, exit 2', async () => {
    const err: string[] = []
    const io: Io = {
      out: () => {},
      err: (l) => err.push(l),
      env: {
        HOST: '127.0.0.1',
        PORT: String(port),
        NERDGRAPH_URL: 'https://api.newrelic.com/graphql',
      },
      log: () => {},
    }
    expect(await main(['serve'], io)).toBe(2)
    expect(err).toEqual([
      `v2bridge: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE); stop what listens there or set PORT to a free port`,
    ])
  })

  it('leaves an error the settings cannot fix as it is', () => {
    const odd = Object.assign(new Error('odd'), { code: 'EMFILE' })
    expect(startFailure(odd, '127.0.0.1', 1)).toBe(odd)
    const failure = startFailure(
      Object.assign(new Error('x'), { code: 'EACCES' }),
      '0.0.0.0',
      80,
      'METRICS_PORT'
    )
    expect(failure).toBeInstanceOf(StartFailure)
    expect((failure as StartFailure).message).toContain('set METRICS_PORT to 1024 or above')
    expect((failure as StartFailure).code).toBe('EACCES')
  })
})

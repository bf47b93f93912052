import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_KEYS, startSimulatorServer, type SimulatorServer } from '../simulator'
import { startChild, repoRoot } from './helpers/child-server'
import { runDockerfile, type Stage } from './helpers/dockerfile'

let sim: SimulatorServer
let work: string
let stages: Stage[]

beforeAll(async () => {
  sim = await startSimulatorServer()
  work = mkdtempSync(join(tmpdir(), 'v2bridge-docker-'))
  stages = runDockerfile(repoRoot, work)
}, 300_000)
afterAll(async () => {
  await sim.close()
  rmSync(work, { recursive: true, force: true })
})

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

describe('the Dockerfile, its steps run without Docker', () => {
  it('builds in one stage and runs from a second, as a non-root user on 0.0.0.0', () => {
    expect(stages.map((s) => s.from)).toEqual(['node:20-bookworm-slim', 'node:20-bookworm-slim'])
    const runtime = stages.at(-1)!
    expect(runtime.user).toBe('node')
    expect(runtime.env).toMatchObject({ HOST: '0.0.0.0', PORT: '8787', NODE_ENV: 'production' })
    expect(runtime.expose).toEqual(['8787'])
    const app = join(runtime.root, runtime.workdir)
    expect(readdirSync(app).sort()).toEqual([
      'dist',
      'node_modules',
      'package-lock.json',
      'package.json',
    ])
    expect(existsSync(join(app, 'dist/node.js'))).toBe(true)
    // Runtime dependencies only: no compiler, test runner or wrangler in the image.
    for (const dev of ['tsx', 'esbuild', 'vitest', 'wrangler', 'typescript'])
      expect(existsSync(join(app, 'node_modules', dev))).toBe(false)
  })

  it('starts with its CMD, passes its HEALTHCHECK, serves v2 and stops on SIGTERM', async () => {
    const runtime = stages.at(-1)!
    const port = String(await freePort())
    const env = {
      ...runtime.env,
      HOST: '127.0.0.1',
      PORT: port,
      NERDGRAPH_URL: `${sim.url}/graphql`,
      ALLOW_HTTP: 'true',
    }
    const cwd = join(runtime.root, runtime.workdir)
    const [cmd, ...args] = runtime.cmd!
    const server = await startChild([cmd === 'node' ? process.execPath : cmd!, ...args], env, {
      cwd,
    })
    try {
      const [check, ...checkArgs] = runtime.healthcheck!
      execFileSync(check === 'node' ? process.execPath : check!, checkArgs, {
        env: { ...process.env, ...env },
      })
      const res = await fetch(`${server.url}/v2/applications.json`, {
        headers: { 'X-Api-Key': DEMO_KEYS.all },
      })
      expect(res.status).toBe(200)
      expect(
        ((await res.json()) as { applications: unknown[] }).applications.length
      ).toBeGreaterThan(0)
    } finally {
      server.child.kill('SIGTERM')
    }
    expect(await server.exited).toBe(0)
  })
})

import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
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
// The stages hold about 450 MB (the build stage's dev dependencies): removing them can take longer
// than the default hook timeout on a busy disk.
afterAll(async () => {
  await sim.close()
  rmSync(work, { recursive: true, force: true })
}, 120_000)

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

/** `node` in an image is the Node running this test (test:node-lines runs it on each LTS line). */
const local = (command: string) => (command === 'node' ? process.execPath : command)

/** Runs a command without blocking this process, which serves the simulator. */
function run(command: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const [file, ...args] = command
    const child = spawn(local(file!), args, {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', ...env },
    })
    let out = ''
    child.stdout.on('data', (b: Buffer) => (out += b))
    child.stderr.on('data', (b: Buffer) => (out += b))
    child.once('exit', (code) => resolve({ code, out }))
  })
}

describe('the Dockerfile, its steps run without Docker', () => {
  it('builds on the newest LTS line test:node-lines tests, in both image stages', () => {
    // Node's release schedule (github.com/nodejs/Release): even majors become LTS in October.
    const lines = /majors=\(([\d ]+)\)/.exec(
      readFileSync(join(repoRoot, 'scripts/node-lines.sh'), 'utf8')
    )!
    const newest = Math.max(...lines[1]!.split(' ').map(Number))
    // An exact release's tag, optionally pinned by digest (docs/deploy.md#container): both stages
    // on the same base.
    const base = new RegExp(`^node:${newest}\\.\\d+\\.\\d+-bookworm-slim(@sha256:[0-9a-f]{64})?$`)
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime', 'cli', 'server'])
    expect(stages.map((s) => s.from)).toEqual([
      expect.stringMatching(base),
      stages[0]!.from,
      'runtime',
      'runtime',
    ])
    // Run by test:node-lines on the newest line (its Node in .tmp/node-lines): the very release.
    if (/\/node-lines\//.test(process.execPath) && process.versions.node.startsWith(`${newest}.`))
      expect(stages[0]!.from.split('@')[0]).toBe(`node:${process.versions.node}-bookworm-slim`)
  })

  it('builds in one stage and runs from another, as a numeric non-root user on 0.0.0.0', () => {
    const runtime = stages.at(-1)!
    expect(runtime.name).toBe('server')
    // By number, not name: the kubelet refuses runAsNonRoot with a user it cannot read as a uid
    // ("image has non-numeric user"). 1000:1000 is the base image's `node` user.
    expect(runtime.user).toBe('1000:1000')
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

  it('has a cli target whose ENTRYPOINT is the v2bridge command: --help, then doctor', async () => {
    const cli = stages.find((s) => s.name === 'cli')!
    expect(cli.user).toBe('1000:1000')
    expect(cli.entrypoint).toEqual(['node', 'bin/v2bridge.js'])
    expect(cli.cmd).toEqual(['--help'])
    const app = join(cli.root, cli.workdir)
    expect(readdirSync(app).sort()).toEqual([
      'bin',
      'dist',
      'node_modules',
      'package-lock.json',
      'package.json',
    ])
    for (const dev of ['tsx', 'esbuild', 'vitest', 'wrangler', 'typescript'])
      expect(existsSync(join(app, 'node_modules', dev))).toBe(false)
    // docker run --rm v2bridge-cli
    const help = await run([...cli.entrypoint!, ...cli.cmd!], cli.env, app)
    expect(help.code, help.out).toBe(0)
    expect(help.out).toContain('usage: v2bridge <command>')
    // docker run --rm -e NEW_RELIC_USER_KEY v2bridge-cli doctor (here against the simulator)
    const doctor = await run(
      [...cli.entrypoint!, 'doctor', '--nerdgraph-url', `${sim.url}/graphql`],
      { ...cli.env, NEW_RELIC_USER_KEY: DEMO_KEYS.all },
      app
    )
    expect(doctor.code, doctor.out).toBe(0)
    expect(doctor.out).toContain('core read path (applications and metric data): works')
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
    expect(runtime.entrypoint).toBeUndefined()
    const [cmd, ...args] = runtime.cmd!
    const server = await startChild([local(cmd!), ...args], env, { cwd })
    try {
      const [check, ...checkArgs] = runtime.healthcheck!
      execFileSync(local(check!), checkArgs, {
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

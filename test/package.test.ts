/**
 * A publishable package (issue 25, item 3): `npm pack` builds it (`prepack`), and installed from the
 * tarball into an empty folder, with runtime dependencies only, `v2bridge --help`, `doctor`, `serve`
 * and `doctor --bridge` against that server work there, with no clone and no dev dependency.
 */
import { execFileSync, spawn } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_KEYS, startSimulatorServer, type SimulatorServer } from '../simulator'
import { repoRoot } from './helpers/child-server'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
let work: string
let bin: string
let sim: SimulatorServer

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'v2bridge-package-'))
  const packed = join(work, 'packed')
  mkdirSync(packed)
  execFileSync(npm, ['pack', '--silent', '--pack-destination', packed], {
    cwd: repoRoot,
    stdio: 'pipe',
    env: { ...process.env, npm_config_loglevel: 'error' },
  })
  const [tarball] = readdirSync(packed).filter((f) => f.endsWith('.tgz'))
  const app = join(work, 'app')
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), '{"name":"empty","private":true}\n')
  execFileSync(
    npm,
    [
      'install',
      '--omit=dev',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      join(packed, tarball!),
    ],
    { cwd: app, stdio: 'pipe' }
  )
  bin = join(app, 'node_modules', '.bin', 'v2bridge')
  sim = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
}, 300_000)
afterAll(async () => {
  await sim?.close()
  rmSync(work, { recursive: true, force: true })
})

/** A user's shell: none of this test runner's own settings (its NODE_OPTIONS, its workers). */
/** A bare environment, but for the clock: under `faketime` the installed command keeps this process's
 * shifted clock (docs/development.md, "Tests on any day"), or its windows miss the simulator's. */
const clock = Object.fromEntries(
  Object.entries(process.env).filter(
    (e): e is [string, string] =>
      (e[0] === 'LD_PRELOAD' || e[0].startsWith('FAKETIME')) && e[1] !== undefined
  )
)
const clean = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...clock }

/** Runs the installed command without blocking this process, which serves the simulator. */
function run(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(bin, args, { cwd: join(work, 'app'), env: { ...clean, ...env } })
    let out = ''
    child.stdout.on('data', (b: Buffer) => (out += b))
    child.stderr.on('data', (b: Buffer) => (out += b))
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, out })
    })
  })
}

describe('the package, installed from its tarball into an empty folder', () => {
  it('ships the built server, CLI and demo, and no TypeScript source', () => {
    const files = readdirSync(join(work, 'app', 'node_modules', 'v2bridge'), { recursive: true })
      .map(String)
      .filter((f) => !f.startsWith('node_modules'))
    expect(files).toEqual(
      expect.arrayContaining(['dist/node.js', 'dist/cli.js', 'bin/v2bridge.js'])
    )
    expect(files.some((f) => f.endsWith('.ts'))).toBe(false)
    expect(readdirSync(join(work, 'app', 'node_modules'))).not.toContain('tsx')
  })

  it('ships the user docs only, and every link in them to a file it ships', () => {
    const root = join(work, 'app', 'node_modules', 'v2bridge')
    const files = readdirSync(root, { recursive: true })
      .map(String)
      .filter((f) => !f.startsWith('node_modules'))
    const docs = files.filter((f) => f.startsWith('docs/') && f.endsWith('.md'))
    expect(docs).toEqual(expect.arrayContaining(['docs/deploy.md', 'docs/troubleshooting.md']))
    for (const developer of ['development.md', 'architecture.md', 'sources.md'])
      expect(docs).not.toContain(`docs/${developer}`)
    const broken = [...docs, 'README.md'].flatMap((doc) => {
      // Links outside fenced blocks; web and mail links aside.
      const text = readFileSync(join(root, doc), 'utf8').replace(/```[\s\S]*?```/g, '')
      return [...text.matchAll(/\]\(([^)#\s]+)[^)]*\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(join(root, dirname(doc), target)))
        .map((target) => `${doc} → ${target}`)
    })
    expect(broken).toEqual([])
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      keywords?: string[]
    }
    expect(manifest.keywords).toEqual(expect.arrayContaining(['new-relic', 'nerdgraph']))
  })

  it('runs v2bridge --help and doctor', async () => {
    const help = await run(['--help'])
    expect(help.code).toBe(0)
    expect(help.out).toContain('usage: v2bridge <command>')
    const doctor = await run([
      'doctor',
      '--key',
      DEMO_KEYS.all,
      '--nerdgraph-url',
      `${sim.url}/graphql`,
    ])
    expect(doctor.code, doctor.out).toBe(0)
  })

  it('serves v2 calls with v2bridge serve, and doctor --bridge checks it', async () => {
    const child = spawn(bin, ['serve'], {
      cwd: join(work, 'app'),
      env: {
        ...clean,
        PORT: '0',
        NERDGRAPH_URL: `${sim.url}/graphql`,
        V2_URL: `${sim.url}/v2`,
        ALLOW_HTTP: 'true',
      },
    })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout.on('data', (b: Buffer) => {
          out += b
          const m = /v2bridge on (http:\/\/\S+?)\/v2/.exec(out)
          if (m) resolve(m[1]!)
        })
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
      })
      const res = await fetch(`${url}/v2/applications.json`, {
        headers: { 'X-Api-Key': DEMO_KEYS.all },
      })
      expect(res.status).toBe(200)
      // The deployed-bridge check a user runs next (issue 25, item 4), from the same empty folder.
      const checked = await run(['doctor', '--bridge', url, '--key', DEMO_KEYS.all])
      expect(checked.code, checked.out).toBe(0)
      expect(checked.out).toContain('core read path (applications and metric data): works')
    } finally {
      child.kill('SIGTERM')
    }
  })
})

/**
 * The command line's options (issue 38 item 6): every command has its own `--help`, `v2bridge
 * help [COMMAND]` and `--version` answer, an option a command does not take is refused in one line
 * with exit 2 (never ignored), and `doctor --format json` prints JSON.
 */
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { commands, main, type Io } from '../../src/cli/main'
import { createSimulator, DEMO_KEYS } from '../../simulator'

function io() {
  const out: string[] = []
  const err: string[] = []
  const sim = createSimulator()
  const value: Io = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: {},
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) =>
      sim.fetch(new Request(input, init))) as typeof fetch,
  }
  return { io: value, out, err }
}

const run = async (...argv: string[]) => {
  const t = io()
  const code = await main(argv, t.io)
  return { code, out: t.out.join('\n'), err: t.err }
}

const names = Object.keys(commands)

describe('v2bridge help', () => {
  it.each(names)('%s --help prints that command’s own usage and exits 0', async (name) => {
    const { code, out } = await run(name, '--help')
    expect(code).toBe(0)
    expect(out.startsWith(`usage: v2bridge ${name} [options]`)).toBe(true)
    for (const other of names.filter((n) => n !== name))
      expect(out).not.toMatch(new RegExp(`^ {2}${other}\\b`, 'm'))
  })

  it('help and help COMMAND print the global and one command’s usage', async () => {
    const all = await run('help')
    expect(all.code).toBe(0)
    for (const name of names) expect(all.out).toMatch(new RegExp(`^ {2}${name}\\b`, 'm'))
    const one = await run('help', 'verify')
    expect(one.code).toBe(0)
    expect(one.out).toContain('--bridge URL')
    expect(one.out).not.toMatch(/^ {2}doctor\b/m)
    expect((await run('help', 'nope')).code).toBe(2)
  })

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }
    const { code, out } = await run('--version')
    expect(code).toBe(0)
    expect(out).toBe(`v2bridge ${version}`)
  })

  it('never calls serve "same as npm start": the docs say to run node dist/node.js', async () => {
    const { out } = await run('--help')
    expect(out).not.toContain('npm start')
    expect(out).toContain('node dist/node.js')
  })
})

describe('an option a command does not take', () => {
  it.each([
    ['verify', '--account', '1'],
    ['verify', '--method', 'GET'],
    ['doctor', '--urls', 'calls.txt'],
    ['doctor', '--apps', '2'],
    ['serve', '--bridge', 'https://x.example'],
    ['demo', '--key', 'NRAK-X'],
    ['explain', '--bridge', 'https://x.example', '/v2/applications.json'],
    ['doctor', '--no-such-option'],
  ])('%s %s is refused in one line, exit 2', async (...argv) => {
    const { code, err } = await run(...argv)
    expect(code).toBe(2)
    expect(err).toHaveLength(1)
    expect(err[0]).toMatch(
      new RegExp(`^v2bridge: .*'${argv[1]}'.*; see v2bridge ${argv[0]} --help$`)
    )
  })

  it('refuses an argument a command does not take, and an unknown command', async () => {
    expect((await run('verify', 'extra')).code).toBe(2)
    const unknown = await run('frobnicate')
    expect(unknown.code).toBe(2)
    expect(unknown.err).toEqual([
      'v2bridge: unknown command frobnicate; v2bridge --help lists them',
    ])
  })
})

describe('doctor --format', () => {
  it('json prints the report as JSON', async () => {
    const { code, out } = await run(
      'doctor',
      '--key',
      DEMO_KEYS.all,
      '--nerdgraph-url',
      'http://127.0.0.1:9/graphql',
      '--format',
      'json'
    )
    expect(code).toBe(0)
    const body = JSON.parse(out) as { ok: boolean; lines: string[] }
    expect(body.ok).toBe(true)
    expect(body.lines).toContain('core read path (applications and metric data): works')
  })

  it('refuses a format it does not print', async () => {
    expect((await run('doctor', '--key', DEMO_KEYS.all, '--format', 'yaml')).err).toEqual([
      'v2bridge: --format is text or json',
    ])
  })
})

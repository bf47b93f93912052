/**
 * Every example command of the README and docs/ (issue 25, "Done when"), against the demo started in
 * process (test/docs/demo-shell.ts). Blocks fenced `sh` run line by line in bash: a curl answers 2xx,
 * or the status its trailing comment names (`# 404`); other commands exit 0. Blocks fenced `shell`
 * need more than the demo (a build, Docker, a Cloudflare account, a real key): not run, but every
 * npm script and `v2bridge` command they name exists. The convention is in docs/development.md.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../helpers/child-server'
import { blocks, commands, docFiles, expectedStatus, readDoc, type Block } from './markdown'
import { onDemo, runCommands, startQuietDemo, type Demo } from './demo-shell'

let demo: Demo
beforeAll(async () => {
  demo = await startQuietDemo()
})
afterAll(() => demo?.close())

const all = docFiles().flatMap((file) => blocks(file))
const runnable = all.filter((b) => b.info === 'sh')
const named = (b: Block) => `${b.file}:${b.line}`

describe('the docs', () => {
  it('mark shell examples sh (run against the demo) or shell (not run), nothing else', () => {
    const shells = all.filter((b) => /^(bash|console|zsh)$/.test(b.info))
    expect(shells.map(named)).toEqual([])
    expect(runnable.length).toBeGreaterThan(10)
  })
})

describe.each(runnable.map((b) => [named(b), b] as const))('%s', (_, block) => {
  it('runs against the demo as documented', { timeout: 120_000 }, async () => {
    const lines = commands(block)
    const ran = await runCommands(lines.map((c) => onDemo(demo, c.text)))
    const wrong: string[] = []
    lines.forEach((command, i) => {
      const { exit, statuses } = ran.results[i]!
      const expected = expectedStatus(command.text)
      const last = statuses.at(-1)
      const ok =
        exit === 0 &&
        statuses.slice(0, -1).every((s) => s >= 200 && s < 300) &&
        (last === undefined
          ? expected === undefined
          : expected === undefined
            ? last >= 200 && last < 300
            : last === expected)
      if (!ok)
        wrong.push(
          `${block.file}:${command.line} exit ${exit}, statuses [${statuses.join(', ')}], expected ${expected ?? '2xx'}: ${command.text}`
        )
    })
    expect(wrong, ran.stderr.slice(-2000)).toEqual([])
  })
})

describe("the README's quick start", () => {
  it('names the demo and the test command CI runs (.ci/run)', () => {
    const quick = blocks('README.md').find((b) => b.info === 'shell')!
    const lines = commands(quick).map((c) => c.text.replace(/\s+#.*$/, ''))
    expect(lines).toEqual(['npm ci && npm run demo', 'npm test'])
    expect(readFileSync(join(repoRoot, '.ci/run'), 'utf8')).toMatch(/^npm test\b/m)
  })
})

describe('commands that need more than the demo', () => {
  const scripts = Object.keys(
    (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: object })
      .scripts
  )
  const cli = ['doctor', 'explain', 'verify', 'serve', 'demo', '--help']

  it('name npm scripts that exist, anywhere in the docs', () => {
    const missing = docFiles().flatMap((file) =>
      [...readDoc(file).matchAll(/npm run (?:--silent )?([\w:-]+)/g)]
        .map((m) => m[1]!)
        .filter((name) => !scripts.includes(name))
        .map((name) => `${file}: npm run ${name}`)
    )
    expect(missing).toEqual([])
  })

  it('name v2bridge commands that exist', () => {
    const missing = docFiles().flatMap((file) =>
      [...readDoc(file).matchAll(/v2bridge (doctor|explain|verify|serve|demo|--help|[a-z-]+ --)/g)]
        .map((m) => m[1]!.split(' ')[0]!)
        .filter((name) => !cli.includes(name))
        .map((name) => `${file}: v2bridge ${name}`)
    )
    expect(missing).toEqual([])
  })

  it('use only node, npm, npx, docker, kubectl, curl, diff, systemctl and environment settings', () => {
    const shellBlocks = all.filter((b) => b.info === 'shell')
    expect(shellBlocks.length).toBeGreaterThan(3)
    const unknown = shellBlocks.flatMap((b) =>
      commands(b)
        .map((c) => c.text.replace(/^([A-Z_]+=\S+\s+)+/, '').split(/\s/)[0]!)
        .filter((tool) => !/^(node|npm|npx|docker|kubectl|curl|diff|systemctl)$/.test(tool))
        .map((tool) => `${b.file}:${b.line} ${tool}`)
    )
    expect(unknown).toEqual([])
  })
})

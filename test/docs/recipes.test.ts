/**
 * The CI recipes of docs/recipes-deployments.md (issue 25, item 13): the shell of the GitHub Actions
 * step (`run: |`) and of the GitLab job (`script:` `- |`) run against the demo with the variables
 * each CI sets (GitHub Docs "Variables reference"; GitLab docs "Predefined CI/CD variables"), and
 * the deployment they record is then listed. The `sh` blocks of the page run in commands.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_KEYS } from '../../simulator'
import { blocks, type Block } from './markdown'
import { runCommands, startQuietDemo, type Demo } from './demo-shell'

let demo: Demo
let dir: string
beforeAll(async () => {
  demo = await startQuietDemo()
  dir = mkdtempSync(join(tmpdir(), 'v2bridge-recipes-'))
})
afterAll(async () => {
  await demo?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The block scalars (`run: |`, `- |`) of a YAML block, dedented. */
function scripts(block: Block): string[] {
  const lines = block.body.split('\n')
  const out: string[] = []
  lines.forEach((line, i) => {
    const m = /^(\s*)(?:run: \||- \|)\s*$/.exec(line)
    if (!m) return
    const body: string[] = []
    for (let j = i + 1; j < lines.length; j++) {
      const indent = /^\s*/.exec(lines[j]!)![0].length
      if (lines[j]!.trim() !== '' && indent <= m[1]!.length) break
      body.push(lines[j]!)
    }
    const cut = Math.min(...body.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length))
    out.push(body.map((l) => l.slice(cut)).join('\n'))
  })
  return out
}

const recipes = blocks('docs/recipes-deployments.md').filter((b) => b.info === 'yaml')
const appId = '9045822'

const ci = {
  'GitHub Actions': (revision: string) => ({
    GITHUB_SHA: revision,
    GITHUB_ACTOR: 'octocat',
    GITHUB_REPOSITORY: 'example/shop',
    GITHUB_RUN_ID: '1234567890',
  }),
  'GitLab CI': (revision: string) => ({
    CI_COMMIT_SHA: revision,
    GITLAB_USER_LOGIN: 'ana',
    CI_PIPELINE_URL: 'https://gitlab.example.com/shop/-/pipelines/42',
  }),
}

describe.each(Object.entries(ci))('the %s recipe', (name, variables) => {
  it('records a deployment through the demo, as the CI would run it', async () => {
    const recipe = recipes.find((b) =>
      (name === 'GitHub Actions' ? /run: \|/ : /script:/).test(b.body)
    )
    const [script] = recipe ? scripts(recipe) : []
    expect(script, `no ${name} script in docs/recipes-deployments.md`).toBeDefined()
    const revision = `${name.split(' ')[0]!.toLowerCase()}-${Date.now()}`
    const ran = await runCommands([script!], {
      cwd: dir,
      env: {
        V2BRIDGE_URL: demo.bridge.url,
        NEW_RELIC_API_KEY: DEMO_KEYS.all,
        NEW_RELIC_APP_ID: appId,
        ...variables(revision),
      },
    })
    expect(ran.results[0], ran.stderr).toEqual({ exit: 0, statuses: [201] })
    const body = JSON.parse(ran.stdout) as { deployment: { revision: string } }
    expect(body.deployment.revision).toBe(revision)

    const list = await fetch(`${demo.bridge.url}/v2/applications/${appId}/deployments.json`, {
      headers: { 'X-Api-Key': DEMO_KEYS.all },
    })
    const { deployments } = (await list.json()) as { deployments: { revision: string }[] }
    expect(deployments[0]?.revision).toBe(revision)
  })
})

describe('the Ansible recipe', () => {
  it('sends the deployment v2bridge answers 201, with the key header the module used', () => {
    const uri = recipes.find((b) => b.body.includes('ansible.builtin.uri'))
    expect(uri?.body).toMatch(
      /url: ['"]https:\/\/v2bridge\.example\.com\/v2\/applications\/.*\/deployments\.json['"]/
    )
    expect(uri?.body).toMatch(/Api-Key:/)
    expect(uri?.body).toMatch(/status_code: 201/)
  })
})

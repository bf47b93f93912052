/**
 * Explain's curl line runs as copied: pasted into bash with `NERDGRAPH_URL` and `NEW_RELIC_USER_KEY`
 * set, it sends the planned document to the demo's NerdGraph (the simulator on a port) and gets
 * the rows the call itself would.
 */
import { execFile } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo } from '../../scripts/demo-server'
import { DEMO_KEYS } from '../../simulator'

let demo: Awaited<ReturnType<typeof startDemo>>
beforeAll(async () => {
  demo = await startDemo({ PORT: '0', SIM_PORT: '0' }, () => {})
})
afterAll(() => demo.close())

/** Runs `line` in bash with only PATH and `env` set; resolves with stdout. */
function bash(line: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'bash',
      ['-c', line],
      { env: { PATH: process.env['PATH'] ?? '', ...env } },
      (err, out) => (err ? reject(err) : resolve(out))
    )
  )
}

interface Plan {
  explain: { nerdgraph: { curl: string; nrql: string[] }[] }
}

describe("explain's curl line", () => {
  it('runs as printed in bash against the demo NerdGraph, reading the URL and the key from the environment', async () => {
    // The last 30 minutes (v2's default window) on the clock the test runs on.
    const path = '/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&summarize=true'
    const res = await fetch(`${demo.bridge.url}${path}`, {
      headers: { 'X-Api-Key': DEMO_KEYS.all, 'X-V2bridge-Explain': '1' },
    })
    expect(res.status).toBe(200)
    const [planned] = ((await res.json()) as Plan).explain.nerdgraph
    // The simulator's URL is private: shown by its setting's name, in quotes the shell expands.
    expect(planned!.curl).toMatch(/^curl -sS -X POST "\$NERDGRAPH_URL" \\\n/)
    expect(planned!.curl).toContain('-H "API-Key: $NEW_RELIC_USER_KEY"')

    const before = demo.simulator.simulator.stats().nrqlQueries
    const out = await bash(planned!.curl, {
      NERDGRAPH_URL: `${demo.simulator.url}/graphql`,
      NEW_RELIC_USER_KEY: DEMO_KEYS.all,
    })
    const answer = JSON.parse(out) as { data?: unknown; errors?: unknown }
    expect(answer.errors).toBeUndefined()
    expect(JSON.stringify(answer.data)).toContain('"metricTimesliceName":"HttpDispatcher"')
    expect(demo.simulator.simulator.stats().nrqlQueries).toBe(before + planned!.nrql.length)
  })

  it('is refused by NerdGraph without the key in the environment, not sent somewhere else', async () => {
    const res = await fetch(`${demo.bridge.url}/v2/applications.json`, {
      headers: { 'X-Api-Key': DEMO_KEYS.all, 'X-V2bridge-Explain': '1' },
    })
    const [planned] = ((await res.json()) as Plan).explain.nerdgraph
    const out = await bash(`${planned!.curl} -o /dev/null -w '%{http_code}'`, {
      NERDGRAPH_URL: `${demo.simulator.url}/graphql`,
    })
    expect(out).toBe('401')
  })
})

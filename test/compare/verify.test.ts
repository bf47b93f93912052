/**
 * `v2bridge verify` (src/cli/verify.ts) against the demo's simulator and v2 stand-in, in process:
 * the default sweep prints a table per operation and exits 0 when nothing differs beyond noise and
 * the known paths (test/compare/known.ts), 1 with the path when the stand-in
 * perturbs a value, 2 when v2 cannot be reached; `--format json` prints the same as JSON.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from '../../src/cli/main'
import { createSimulator, type V2Switches } from '../../simulator'
import { known } from './known'
import { verifyArgs } from './setup'

const allowed = [...new Set(Object.values(known).flatMap((paths) => Object.keys(paths)))]

async function run(args: string[], v2: Partial<V2Switches> = {}, reachable = true) {
  const sim = createSimulator({ v2 })
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    if (!reachable && new URL(req.url).pathname.startsWith('/v2/'))
      throw new TypeError('fetch failed')
    return sim.fetch(req)
  }) as typeof globalThis.fetch
  const out: string[] = []
  const err: string[] = []
  const code = await main(verifyArgs('--apps', '2', ...args), {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: {},
    fetch,
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

const allow = allowed.flatMap((path) => ['--allow', path])

describe('v2bridge verify', () => {
  beforeAll(() => {
    // One fixed now for both sides (src/compare/ compares windows ending now).
    vi.useFakeTimers({ toFake: ['Date'], now: Math.floor(Date.now() / 60_000) * 60_000 + 30_000 })
  })
  afterAll(() => {
    vi.useRealTimers()
  })

  it('prints a table per operation and exits 0 when nothing differs beyond noise', async () => {
    const { code, out } = await run(allow)
    expect(out).toContain(
      'GET /v2/applications/{application_id}/metrics/data\n  compared 4  equal 4'
    )
    expect(out).toMatch(/GET \/v2\/applications\/\{id\}\n {2}compared 2 {2}equal 2/)
    expect(out).toMatch(/13 calls: no difference beyond noise$/)
    expect(code).toBe(0)
  })

  it('exits 1 and names the path when the stand-in perturbs a value', async () => {
    const { code, out } = await run(allow, { perturb: 'value' })
    expect(out).toContain('differs  application.application_summary.response_time  in 2 (value)')
    expect(out).toMatch(/differences beyond noise \(above\)$/)
    expect(code).toBe(1)
  })

  it('prints JSON with --format json', async () => {
    const { code, out } = await run([...allow, '--format', 'json'], { perturb: 'type' })
    const body = JSON.parse(out) as {
      ok: boolean
      operations: { path: string; differences: { path: string; kinds: string[] }[] }[]
    }
    expect(body.ok).toBe(false)
    const show = body.operations.find((o) => o.path === '/v2/applications/{id}')!
    expect(show.differences).toContainEqual(
      expect.objectContaining({
        path: 'application.application_summary.response_time',
        kinds: ['type'],
      })
    )
    expect(code).toBe(1)
  })

  it("takes its calls from the key's report, downloaded as JSON", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verify-'))
    const file = join(dir, 'report.json')
    const op = (path: string, names: string[] = []) => ({
      method: 'GET',
      path,
      answer: 'served',
      metric_names: names,
      value_types: [],
    })
    writeFileSync(
      file,
      JSON.stringify({
        report: {
          operations: [
            op('/v2/applications/{id}'),
            op('/v2/applications/{application_id}/hosts/{id}'),
            op('/v2/applications/{application_id}/metrics/data', ['HttpDispatcher']),
            { ...op('/v2/alerts_policies'), answer: 'forwarded' },
          ],
        },
      })
    )
    const { code, out } = await run([...allow, '--from-report', file])
    expect(out).toContain('GET /v2/applications/{application_id}/hosts/{id}\n  compared 1')
    expect(out).toContain('GET /v2/applications/{application_id}/metrics/data\n  compared 1')
    expect(out).not.toContain('alerts_policies')
    expect(out).toMatch(/3 calls: no difference beyond noise$/)
    expect(code).toBe(0)
  })

  it('exits 2 when v2 cannot be reached', async () => {
    const { code, err } = await run([], {}, false)
    expect(err).toContain('v2 at http://127.0.0.1:9/v2/applications.json could not be read')
    expect(code).toBe(2)
  })
})

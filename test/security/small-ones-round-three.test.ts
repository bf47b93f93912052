/**
 * The small ones of issue 22 (item 13): compressed bodies, the report page's headers, a request id
 * that looks like a key, a forwarded GET past the URL limit, and the CLI bundle run by itself.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { buildSync } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { DEMO_KEYS, harness } from '../helpers/harness'
import { repoRoot } from '../helpers/child-server'

describe('the small ones, round three', () => {
  it('answers 415 for a compressed body instead of reading it as text', async () => {
    const { app } = harness()
    const res = await app.request('/v2/applications/9045822/deployments.json', {
      method: 'POST',
      headers: {
        'X-Api-Key': DEMO_KEYS.all,
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
      },
      body: new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]),
    })
    expect(res.status).toBe(415)
    expect(await res.json()).toEqual({
      error: { title: 'Unsupported Content-Encoding: send the body without compression' },
    })
  })

  it('serves the report page with a CSP that allows only its own script, nosniff and no framing', async () => {
    const { get } = harness()
    const res = await get('/v2bridge/report')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('never echoes a request id that looks like a key', async () => {
    const { get } = harness()
    for (const id of [
      DEMO_KEYS.all,
      '0123456789abcdef0123456789abcdef01234567',
      '0123456789abcdef0123456789abcdef0123456789abcde',
    ]) {
      const res = await get('/v2/applications.json', { headers: { 'X-Request-Id': id } })
      expect(res.headers.get('x-request-id')).not.toBe(id)
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    }
    const plain = await get('/v2/applications.json', { headers: { 'X-Request-Id': 'ci-run-42' } })
    expect(plain.headers.get('x-request-id')).toBe('ci-run-42')
  })

  it('answers 414 in v2 shape when a forwarded GET would exceed the URL limit', async () => {
    const { get } = harness({ V2_URL: 'http://simulator.test/v2' })
    const res = await get(`/v2/alerts_policies.json?filter[name]=${'x'.repeat(9000)}`)
    expect(res.status).toBe(414)
    expect(await res.json()).toEqual({ error: { title: 'URI Too Long' } })
  })

  it('never starts a server when the CLI bundle is run by itself', () => {
    // Inside the project, so the bundle's packages resolve from its node_modules.
    mkdirSync(join(repoRoot, '.tmp'), { recursive: true })
    const out = mkdtempSync(join(repoRoot, '.tmp', 'cli-'))
    buildSync({
      absWorkingDir: repoRoot,
      entryPoints: ['src/cli/main.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outfile: join(out, 'cli.js'),
      logLevel: 'warning',
    })
    // Before, the server code in the bundle took the bundle for its own entry and listened.
    const printed = execFileSync(process.execPath, [join(out, 'cli.js')], {
      cwd: repoRoot,
      env: { ...process.env, PORT: '0', ALLOW_HTTP: 'true' },
      timeout: 10_000,
      encoding: 'utf8',
    })
    expect(printed).not.toContain('v2bridge on')
  }, 30_000)
})

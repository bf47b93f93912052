/**
 * The files docs/deploy.md gives to copy: the systemd unit passes `systemd-analyze verify` (where
 * systemd is installed; skipped, saying so, elsewhere), and the Kubernetes manifest probes the
 * health routes v2bridge serves and waits longer than the default SHUTDOWN_GRACE_MS before killing.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app'
import { blocks } from './markdown'

const deploy = blocks('docs/deploy.md')
const unit = deploy.find((b) => b.info === 'ini')!.body
const manifest = deploy.find((b) => b.info === 'yaml' && b.body.includes('kind: Deployment'))!.body

const hasSystemd = await new Promise<boolean>((done) => {
  const child = spawn('systemd-analyze', ['--version'])
  child.once('error', () => done(false))
  child.once('close', (code) => done(code === 0))
})
if (!hasSystemd) console.warn('skipped: systemd-analyze is not installed')

describe('the systemd unit', () => {
  it.skipIf(!hasSystemd)('passes systemd-analyze verify', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'v2bridge-unit-'))
    const file = join(dir, 'v2bridge.service')
    writeFileSync(file, unit)
    const child = spawn('systemd-analyze', ['verify', file])
    let err = ''
    child.stderr.on('data', (b: Buffer) => (err += b))
    const code = await new Promise<number | null>((done) => child.once('close', done))
    rmSync(dir, { recursive: true, force: true })
    expect({ code, err }).toEqual({ code: 0, err: '' })
  })

  it('starts Node itself and stops it after the grace period', () => {
    expect(unit).toMatch(/^ExecStart=\S*node .*dist\/node\.js$/m)
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m)
    expect(Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1])).toBeGreaterThan(8)
  })
})

describe('the Kubernetes manifest', () => {
  it('probes /healthz and /readyz, which answer 200 without a key', async () => {
    expect(manifest).toMatch(/livenessProbe:\s+httpGet: \{ path: \/healthz, port: http \}/)
    expect(manifest).toMatch(/readinessProbe:\s+httpGet: \{ path: \/readyz, port: http \}/)
    const app = createApp()
    for (const path of ['/healthz', '/readyz'])
      expect((await app.request(`https://v2bridge.example.com${path}`)).status).toBe(200)
  })

  it('waits longer than SHUTDOWN_GRACE_MS (8 s) before killing a pod', () => {
    const grace = Number(/terminationGracePeriodSeconds: (\d+)/.exec(manifest)?.[1])
    expect(grace).toBeGreaterThan(8)
  })
})

/**
 * The files docs/deploy.md gives to copy: the systemd unit passes `systemd-analyze verify` (where
 * systemd is installed; skipped, saying so, elsewhere), and the Kubernetes manifest, read as YAML:
 * it probes the health routes v2bridge serves, passes the "restricted" Pod Security Standard
 * (Kubernetes docs "Pod Security Standards") as the image's numeric user, pauses before SIGTERM and
 * waits for the drain, and takes KEY_MAP from a Secret.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app'
import { parseNodeConfig } from '../../src/node/config'
import { parseYamlDocuments, type Yaml } from '../helpers/yaml-subset'
import { instructions } from '../helpers/dockerfile'
import { blocks, readDoc } from './markdown'

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the manifest's shape is what is tested
type Doc = { [key: string]: any }
const [deployment, service] = parseYamlDocuments(manifest) as Doc[]
const pod = deployment!['spec']['template']['spec'] as Doc
const [container] = pod['containers'] as Doc[]
/** A container's effective security setting: its own, else the pod's. */
const effective = (name: string): Yaml | undefined =>
  container!['securityContext']?.[name] ?? pod['securityContext']?.[name]
const env: Record<string, Doc> = Object.fromEntries(
  (container!['env'] as Doc[]).map((e) => [e['name'], e])
)

describe('the Kubernetes manifest', () => {
  it('is read by a YAML reader that refuses what it does not understand', () => {
    expect(
      parseYamlDocuments(
        "a:\n- 1\n- { b: 'c: d', e: [x, 2] }\n---\n- k: v\n  l: # note\n    m: true"
      )
    ).toEqual([{ a: [1, { b: 'c: d', e: ['x', 2] }] }, [{ k: 'v', l: { m: true } }]])
    for (const text of ['a: &x 1', 'a: |\n  text', 'a: 1\n  b: 2', 'a: 1\na: 2', 'a: [1'])
      expect(() => parseYamlDocuments(text), text).toThrow(/^yaml line/)
  })

  it('is a Deployment and a Service whose selector and port match the pods', () => {
    expect([deployment!['kind'], service!['kind']]).toEqual(['Deployment', 'Service'])
    expect(service!['spec']['selector']).toEqual(
      deployment!['spec']['template']['metadata']['labels']
    )
    expect(service!['spec']['ports']).toEqual([{ name: 'http', port: 80, targetPort: 'http' }])
    expect(container!['ports']).toEqual([{ name: 'http', containerPort: 8787 }])
  })

  it('probes /healthz and /readyz, which answer 200 without a key', async () => {
    expect(container!['livenessProbe']['httpGet']).toEqual({ path: '/healthz', port: 'http' })
    expect(container!['readinessProbe']['httpGet']).toEqual({ path: '/readyz', port: 'http' })
    const app = createApp()
    for (const path of ['/healthz', '/readyz'])
      expect((await app.request(`https://v2bridge.example.com${path}`)).status).toBe(200)
  })

  it("runs as the image's numeric non-root user, as the kubelet can verify", () => {
    expect(effective('runAsNonRoot')).toBe(true)
    const user = `${effective('runAsUser')}:${effective('runAsGroup')}`
    expect(user).toBe('1000:1000')
    // The image's own USER (test/dockerfile.test.ts runs its stages): the same numbers.
    const image = instructions(readDoc('Dockerfile')).filter(([op]) => op === 'USER')
    expect(image.map(([, args]) => args)).toEqual([user])
  })

  it('passes the restricted Pod Security Standard', () => {
    expect(effective('allowPrivilegeEscalation')).toBe(false)
    expect(effective('capabilities')).toEqual({ drop: ['ALL'] })
    expect(effective('seccompProfile')).toEqual({ type: 'RuntimeDefault' })
    expect(effective('privileged') ?? false).toBe(false)
    // No host namespaces, no volumes beyond the kinds the standard allows (here none).
    for (const field of ['hostNetwork', 'hostPID', 'hostIPC', 'volumes'])
      expect(pod[field], field).toBeUndefined()
  })

  it('runs on a read-only root filesystem (the server writes nothing without REPORT_FILE)', () => {
    expect(effective('readOnlyRootFilesystem')).toBe(true)
    expect(env['REPORT_FILE']).toBeUndefined()
    expect(pod['automountServiceAccountToken']).toBe(false)
  })

  it('pauses in preStop before SIGTERM, then waits for the pause and the drain before killing', () => {
    const preStop = container!['lifecycle']['preStop'] as Doc
    const pause = preStop['sleep']
      ? Number(preStop['sleep']['seconds'])
      : Number((preStop['exec']['command'] as string[])[1])
    expect(preStop['exec']?.['command']?.[0] ?? 'sleep').toBe('sleep')
    expect(pause).toBeGreaterThanOrEqual(5)
    const drain = parseNodeConfig({}).shutdownGraceMs / 1000
    expect(pod['terminationGracePeriodSeconds']).toBeGreaterThan(pause + drain)
  })

  it('takes KEY_MAP from a Secret, optional, and the other settings as the config reads them', () => {
    expect(env['KEY_MAP']).toEqual({
      name: 'KEY_MAP',
      valueFrom: { secretKeyRef: { name: 'v2bridge', key: 'KEY_MAP', optional: true } },
    })
    const settings = Object.fromEntries(
      Object.values(env)
        .filter((e) => e['value'] !== undefined)
        .map((e) => [e['name'], String(e['value'])])
    )
    expect(Object.keys(settings)).toEqual(['REGION', 'PUBLIC_URL', 'TRUSTED_PROXIES'])
    expect(parseNodeConfig(settings)).toMatchObject({
      region: 'us',
      publicUrl: 'https://v2bridge.example.com',
      trustedProxies: ['10.0.0.0/8'],
    })
  })
})

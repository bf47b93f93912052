/**
 * Compare mode inside workerd (issue 24; docs/migration.md "Verify before you switch"), as
 * test/compare/modes.test.ts checks it on Node: `V2_COMPARE=v2` answers the caller with v2's own
 * bytes and compares after the answer (`ctx.waitUntil`); `bridge` answers with v2bridge's and asks
 * v2 after; a perturbation of v2 is found under its path; a write in `v2` mode goes to v2 only,
 * once. The real v2 is the simulator's stand-in (`V2_URL` = the simulator's `/v2`). Each call runs
 * the Worker's default export with its own bindings and execution context; the Worker shares this
 * isolate's `fetch`, so a spy sees (and can hold) its upstream requests. Comparisons are read where
 * the Worker keeps them: the key's migration report (the `REPORTS` Durable Object); the Worker has
 * no `/metrics` (src/app.ts `AppOptions.telemetry`).
 */
import { SELF, createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterAll, afterEach, describe, expect, inject, it, vi } from 'vitest'
import worker from '../../src/worker'
import type { Bindings } from '../../src/http/env'

const key = 'NRAK-DEMO0000000000000000000000' // DEMO_KEYS.all (simulator/data/keys.ts)
const base = 'https://v2bridge.test'
const sim = inject('simulatorUrl')
const appId = 9045822 // Checkout Service (java), account 1000001 (simulator/data/catalog.ts)
const show = { path: `/v2/applications/${appId}`, op: '/v2/applications/{id}' }
const hosts = {
  path: `/v2/applications/${appId}/hosts`,
  op: '/v2/applications/{application_id}/hosts',
}

type Mode = 'v2' | 'bridge' | 'off'
const bindingsOf = Object.fromEntries(
  (['v2', 'bridge', 'off'] as const).map((mode) => [
    mode,
    { ...(env as Bindings), V2_COMPARE: mode, V2_URL: `${sim}/v2` } satisfies Bindings,
  ])
) as Record<Mode, Bindings>

/** A call through the Worker's default export, answered and read; its `waitUntil` jobs may run on. */
async function start(mode: Mode, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  if (!headers.has('x-api-key')) headers.set('X-Api-Key', key)
  const ctx = createExecutionContext()
  const req = new Request(`${base}${path}`, { ...init, headers })
  const res = await worker.fetch(req, bindingsOf[mode], ctx)
  const bytes = new Uint8Array(await res.arrayBuffer())
  const text = new TextDecoder().decode(bytes)
  return { res, bytes, text, settled: () => waitOnExecutionContext(ctx) }
}

/** A call whose `waitUntil` jobs (the comparison, the report's write) have all settled. */
async function call(mode: Mode, path: string, init: RequestInit = {}) {
  const answer = await start(mode, path, init)
  await answer.settled()
  return answer
}

/** The stand-in's own answer to a read, asked directly. */
async function standIn(path: string) {
  const res = await fetch(`${sim}${path}`, { headers: { 'X-Api-Key': key } })
  const bytes = new Uint8Array(await res.arrayBuffer())
  return { res, bytes, text: new TextDecoder().decode(bytes) }
}

interface VerificationView {
  summary: string
  compared: number
  equal: number
  differing: number
  not_compared: number
  differences: { path: string; count: number; kinds: string[]; examples: string[] }[]
}

/** The key's verification of one operation (the report's `verification`), zeros before any. */
async function verificationOf(op: string, method = 'GET'): Promise<VerificationView> {
  const res = await SELF.fetch(`${base}/v2bridge/report.json`, { headers: { 'X-Api-Key': key } })
  expect(res.status).toBe(200)
  const body = (await res.json()) as {
    report: { verification: (VerificationView & { method: string; path: string })[] }
  }
  const found = body.report.verification.find((v) => v.method === method && v.path === op)
  return (
    found ?? { summary: '', compared: 0, equal: 0, differing: 0, not_compared: 0, differences: [] }
  )
}

/** Releases of the requests `watchUpstream` holds, all called after each test. */
const releases: (() => void)[] = []

/** Records every request this isolate's `fetch` sends from now on (the Worker's included); those
 * `hold` picks wait until `release()`. */
function watchUpstream(hold: (url: URL) => boolean = () => false) {
  const original = globalThis.fetch
  const sent: { method: string; url: URL }[] = []
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  releases.push(release)
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = input instanceof Request ? input : undefined
    const url = new URL(req?.url ?? String(input))
    sent.push({ method: init?.method ?? req?.method ?? 'GET', url })
    if (hold(url)) await gate
    return original(input, init)
  })
  const at = (prefix: string) => sent.filter((s) => s.url.pathname.startsWith(prefix))
  return { sent, release, toV2: () => at('/v2/'), toNerdGraph: () => at('/graphql') }
}

const isNerdGraph = (url: URL) => url.pathname === '/graphql'
const isV2 = (url: URL) => url.pathname.startsWith('/v2/')

/** The answer comes back while the held side still waits; fails after 10 s instead of hanging. */
async function answeredWhileHeld<T>(answer: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the answer waited for the held requests')), 10_000)
  })
  return Promise.race([answer, late]).finally(() => clearTimeout(timer))
}

const v2Switches = (body: object) =>
  fetch(`${sim}/_sim/v2`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })

async function graphqlRequests(): Promise<number> {
  const res = await fetch(`${sim}/_sim/stats`)
  return ((await res.json()) as { graphqlRequests: number }).graphqlRequests
}

/** Waits past a turn of the minute closer than 3 s: the stand-in and v2bridge both answer over
 * windows ending at the last complete minute, so a call across a turn may differ on both sides. */
async function awayFromMinuteTurn() {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < 3_000) await new Promise((resolve) => setTimeout(resolve, left + 200))
}

afterEach(async () => {
  for (const release of releases.splice(0)) release()
  vi.restoreAllMocks()
  expect((await v2Switches({})).status).toBe(200) // every stand-in switch off
})

// The deployment the write test records stays in the simulator, which later files share.
afterAll(async () => {
  expect((await fetch(`${sim}/_sim/reset`, { method: 'POST' })).status).toBe(200)
})

describe('v2 mode (shadow) inside workerd', () => {
  it("answers with the stand-in's status, type and bytes; an application show or list compares equal", async () => {
    for (const [path, op] of [
      [`${show.path}.json`, show.op],
      [`${show.path}.xml`, show.op],
      ['/v2/applications.json?filter[name]=Checkout', '/v2/applications'],
    ] as const) {
      const before = await verificationOf(op)
      await awayFromMinuteTurn()
      const v2Before = await standIn(path)
      const { res, bytes } = await call('v2', path)
      const v2After = await standIn(path)
      expect(res.status, path).toBe(200)
      expect(res.status, path).toBe(v2Before.res.status)
      expect(res.headers.get('content-type'), path).toBe(v2Before.res.headers.get('content-type'))
      // A minute may turn between the calls: the caller's bytes are one of the stand-in's answers.
      expect([v2Before.bytes, v2After.bytes], path).toContainEqual(bytes)
      const after = await verificationOf(op)
      expect(after.compared - before.compared, `${path}: ${after.summary}`).toBe(1)
      expect(after.equal - before.equal, `${path}: ${after.summary}`).toBe(1)
    }
  })

  it("answers while v2bridge's own side waits on NerdGraph, and compares in waitUntil", async () => {
    const before = await verificationOf(hosts.op)
    const upstream = watchUpstream(isNerdGraph)
    const answer = await answeredWhileHeld(start('v2', `${hosts.path}.json`))
    expect(answer.res.status).toBe(200)
    // Nothing recorded yet: v2bridge's side is waiting on NerdGraph.
    expect((await verificationOf(hosts.op)).compared).toBe(before.compared)
    upstream.release()
    await answer.settled()
    expect(upstream.toNerdGraph().length).toBeGreaterThan(0)
    const after = await verificationOf(hosts.op)
    expect(after.compared - before.compared, after.summary).toBe(1)
    expect(after.equal + after.differing - before.equal - before.differing).toBe(1)
  })
})

describe('bridge mode (canary) inside workerd', () => {
  it("answers with v2bridge's own answer while v2 waits, then records the comparison", async () => {
    const path = `${hosts.path}.json`
    const before = await verificationOf(hosts.op)
    const off1 = await call('off', path)
    const upstream = watchUpstream(isV2)
    const answer = await answeredWhileHeld(start('bridge', path))
    expect(answer.res.status).toBe(200)
    expect((await verificationOf(hosts.op)).compared).toBe(before.compared)
    upstream.release()
    await answer.settled()
    vi.restoreAllMocks()
    const off2 = await call('off', path)
    // v2bridge's answer: the bytes and ETag (src/http/etag.ts) it gives with compare mode off.
    expect([off1.text, off2.text]).toContain(answer.text)
    expect(answer.res.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/)
    expect([off1.res.headers.get('etag'), off2.res.headers.get('etag')]).toContain(
      answer.res.headers.get('etag')
    )
    expect(upstream.toV2().map((s) => `${s.method} ${s.url.pathname}`)).toContain(`GET ${path}`)
    const after = await verificationOf(hosts.op)
    expect(after.compared - before.compared, after.summary).toBe(1)
  })
})

describe('perturbations of the stand-in are found with their path (simulator/v2/perturb.ts)', () => {
  // `value`: the first number that is not an identity, ×1.1; `missing-item`: the first list loses its
  // first item, extra in v2bridge's answer; `extra-field`: a field v2 gained, missing from v2bridge's.
  const cases = [
    ['v2', 'value', show, 'value', 'application.application_summary.response_time'],
    ['bridge', 'value', hosts, 'value', 'application_hosts[].application_summary.response_time'],
    ['bridge', 'missing-item', hosts, 'extra', 'application_hosts[]'],
    ['v2', 'extra-field', hosts, 'missing', 'application_hosts[].perturbed_field'],
  ] as const
  for (const [mode, perturb, target, kind, at] of cases) {
    it(`${mode} mode: ${perturb} is found at ${at} (${kind})`, async () => {
      const before = await verificationOf(target.op)
      const counted = before.differences.find((d) => d.path === at)?.count ?? 0
      expect((await v2Switches({ perturb })).status).toBe(200)
      const { res, text } = await call(mode, `${target.path}.json`)
      expect(res.status).toBe(200)
      const perturbed = (await standIn(`${target.path}.json`)).text
      // The caller gets v2's answer, perturbed, in `v2` mode; v2bridge's, untouched, in `bridge` mode.
      if (mode === 'v2') expect(text).toBe(perturbed)
      else expect(text).not.toBe(perturbed)
      const after = await verificationOf(target.op)
      expect(after.differing - before.differing, after.summary).toBe(1)
      const found = after.differences.find((d) => d.path === at)
      expect(found, after.summary).toBeDefined()
      expect(found!.kinds).toContain(kind)
      expect(found!.count - counted).toBe(1)
      expect(found!.examples.length).toBeGreaterThan(0)
    })
  }
})

describe('a write in v2 mode goes to v2 only, once', () => {
  const revision = `workerd-compare-${Date.now()}`
  // v2's create (New Relic docs "Record and view deployments (v2)") and the legacy v0 call, sent to
  // v0 beside V2_URL (src/http/forward.ts `forwardUrl`); the stand-in answers both with 201
  // (simulator/v2/deployment-writes.ts).
  const writes = [
    {
      op: '/v2/applications/{application_id}/deployments',
      path: `/v2/applications/${appId}/deployments.json`,
      type: 'application/json',
      body: JSON.stringify({ deployment: { revision: `${revision}-v2` } }),
      revision: `${revision}-v2`,
    },
    {
      op: '/deployments',
      path: '/deployments.xml',
      type: 'application/x-www-form-urlencoded',
      body: `deployment[application_id]=${appId}&deployment[revision]=${revision}-v0`,
      revision: `${revision}-v0`,
    },
  ]
  for (const w of writes) {
    it(`POST ${w.op} reaches the stand-in once and NerdGraph never`, async () => {
      const before = await verificationOf(w.op, 'POST')
      const graphqlBefore = await graphqlRequests()
      const upstream = watchUpstream()
      const { res, text } = await call('v2', w.path, {
        method: 'POST',
        headers: { 'Content-Type': w.type },
        body: w.body,
      })
      const sent = upstream.sent.filter((s) => s.url.origin === new URL(sim).origin)
      vi.restoreAllMocks()
      expect(res.status, text).toBe(201)
      expect(text).toContain(w.revision)
      expect(sent.map((s) => `${s.method} ${s.url.pathname}`)).toEqual([`POST ${w.path}`])
      expect(await graphqlRequests()).toBe(graphqlBefore)
      const after = await verificationOf(w.op, 'POST')
      expect(after.not_compared - before.not_compared, after.summary).toBe(1)
      expect(after.compared).toBe(before.compared)
      // Recorded once, where both v2 and NerdGraph (so v2bridge's own list) see it.
      const list = `/v2/applications/${appId}/deployments.json`
      for (const answer of [(await standIn(list)).text, (await call('off', list)).text]) {
        const { deployments } = JSON.parse(answer) as { deployments: { revision: string }[] }
        expect(deployments.filter((d) => d.revision === w.revision)).toHaveLength(1)
      }
    })
  }
})

/**
 * @module report/org
 * `GET /v2bridge/report/org.json` (Node only): the organisation view of the migration report,
 * every key's report summed up, for an operator sending `Authorization: Bearer
 * <REPORT_ADMIN_TOKEN>`; `/v2bridge/report/org` is its page (src/report/org-page.ts). Unset (the
 * default), the routes do not exist (404); a missing or wrong token is 401. Keys appear only as
 * the report's fingerprints (`sha256:` and 12 hex digits). The token check compares SHA-256
 * digests in constant time, so neither the token nor its length leaks through timing. The Worker
 * does not carry it: its store, one Durable Object per key, lists no keys.
 */
import { operations, type OperationRow } from '../../mappings/operations'
import type { ReportEntry } from './entries'
import { pageHeaders, type OrgView } from './routes'
import { Hono } from '../http/hono'
import type { Env } from '../http/env'
import { orgCss, orgHtml, orgScript } from './org-page'

export const orgTitles = {
  noToken: 'No admin token specified',
  badToken: 'Invalid admin token',
  noList: 'The organisation view needs a report store that lists its keys (memory or REPORT_FILE)',
} as const

/** What the view sums of compare mode's outcomes (src/compare/aggregate.ts `Verification`). */
interface Compared {
  method: string
  path: string
  compared: number
  equal: number
  differing: number
}

const rowOf = (method: string, path: string): OperationRow | undefined =>
  (operations as readonly OperationRow[]).find((r) => r.method === method && r.path === path)

/** The report's name for a key (src/report/view.ts shows the same). */
export const keyLabel = (keyHash: string) => `sha256:${keyHash.slice(0, 12)}…`

const iso = (ms: number) => new Date(ms).toISOString()

interface Totals {
  calls: number
  errors: number
  first: number
  last: number
  clients: Set<string>
}

const totals = (): Totals => ({
  calls: 0,
  errors: 0,
  first: Infinity,
  last: -Infinity,
  clients: new Set(),
})

function add(t: Totals, e: ReportEntry) {
  t.calls += e.count
  t.errors += e.errors
  t.first = Math.min(t.first, e.firstSeen)
  t.last = Math.max(t.last, e.lastSeen)
  t.clients.add(e.client)
}

const shown = (t: Totals) => ({
  calls: t.calls,
  errors: t.errors,
  clients: [...t.clients].sort(),
  first_seen: t.calls ? iso(t.first) : null,
  last_seen: t.calls ? iso(t.last) : null,
})

interface Operation {
  row: OperationRow | undefined
  keys: number
  t: Totals
  verified: { compared: number; equal: number; differing: number }
}

/** Every key's entries (and compare outcomes) → the organisation view: totals, each operation
 * over the keys that called it (most called first), and each key by fingerprint (most recently
 * seen first). */
export function orgBody(
  reports: Iterable<readonly [string, readonly ReportEntry[]]>,
  compared: ReadonlyMap<string, readonly Compared[]> = new Map()
) {
  const all = totals()
  const byOperation = new Map<string, Operation>()
  const operationOf = (method: string, path: string) => {
    const id = `${method} ${path}`
    let op = byOperation.get(id)
    if (!op) {
      const row = rowOf(method, path)
      const verified = { compared: 0, equal: 0, differing: 0 }
      byOperation.set(id, (op = { row, keys: 0, t: totals(), verified }))
    }
    return op
  }
  const keys = []
  for (const [keyHash, entries] of reports) {
    for (const v of compared.get(keyHash) ?? []) {
      const { verified } = operationOf(v.method, v.path)
      verified.compared += v.compared
      verified.equal += v.equal
      verified.differing += v.differing
    }
    if (entries.length === 0) continue
    const mine = totals()
    const answers: Record<string, number> = {}
    const seen = new Set<string>()
    for (const e of entries) {
      add(all, e)
      add(mine, e)
      const id = `${e.method} ${e.path}`
      const op = operationOf(e.method, e.path)
      add(op.t, e)
      if (seen.has(id)) continue
      seen.add(id)
      op.keys += 1
      const answer = op.row?.answer ?? 'unknown'
      answers[answer] = (answers[answer] ?? 0) + 1
    }
    keys.push({ key: keyLabel(keyHash), operations: seen.size, answers, ...shown(mine) })
  }
  keys.sort((a, b) => (b.last_seen ?? '').localeCompare(a.last_seen ?? ''))
  const operationsCalled = [...byOperation.entries()]
    .map(([id, op]) => ({
      method: id.slice(0, id.indexOf(' ')),
      path: id.slice(id.indexOf(' ') + 1),
      summary: op.row?.summary ?? null,
      answer: op.row?.answer ?? null,
      keys: op.keys,
      ...shown(op.t),
      ...(op.verified.compared ? { verification: op.verified } : {}),
    }))
    .sort((a, b) => b.calls - a.calls || a.path.localeCompare(b.path))
  return {
    organisation: { keys: keys.length, ...shown(all), operations: operationsCalled, by_key: keys },
  }
}

const digest = async (text: string) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))

/** Whether `given` is `secret`, in time independent of where they differ and of their lengths. */
export async function sameSecret(given: string, secret: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(given), digest(secret)])
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}

/** The bearer token of an `Authorization` header, if any. */
export const bearer = (header: string | undefined) => /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1]

const page = (text: string, type: string) => () =>
  new Response(text, { headers: { 'Content-Type': `${type}; charset=utf-8`, ...pageHeaders } })

/** The view for the token `secret`: its JSON and its page (src/report/org-page.ts), mounted at
 * `/v2bridge/report/org` (src/report/routes.ts) by the Node entry when `REPORT_ADMIN_TOKEN` is set. */
export const orgReport =
  (secret: string): OrgView =>
  (storeOf) => {
    const view = new Hono<Env>()
    // `.json` is stripped by the app's routing (src/http/render/index.ts), so one route serves both.
    view.get('/', async (c) => {
      if (!new URL(c.req.url).pathname.endsWith('.json')) return page(orgHtml, 'text/html')()
      const given = bearer(c.req.header('authorization'))
      if (!given || !(await sameSecret(given, secret))) {
        c.header('WWW-Authenticate', 'Bearer realm="v2bridge report"')
        return c.json({ error: { title: given ? orgTitles.badToken : orgTitles.noToken } }, 401)
      }
      const store = storeOf(c)
      if (!store.all) return c.json({ error: { title: orgTitles.noList } }, 501)
      const reports = [...(await store.all())]
      const compared = new Map<string, readonly Compared[]>()
      if (store.verification)
        for (const [keyHash] of reports) compared.set(keyHash, await store.verification(keyHash))
      c.header('Cache-Control', 'no-store')
      return c.json(orgBody(reports, compared))
    })
    view.get('/app.js', page(orgScript, 'text/javascript'))
    view.get('/app.css', page(orgCss, 'text/css'))
    return view
  }

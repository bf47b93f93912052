/**
 * @module cli/doctor
 * `v2bridge doctor`: what a key can do through v2bridge, checked with read-only NerdGraph requests:
 * accounts visible, APM applications, whether timeslice metrics answer NRQL (v2 metric data needs
 * APM timeslices as dimensional metrics: New Relic docs "Query APM metric timeslice data with
 * NRQL"), whether the write mutations exist, and which v2 routes follow. Creates nothing, unless
 * `--write-probe` asks it to add and delete one tag (src/cli/doctor-write-probe.ts).
 */
import { operations, type OperationRow } from '../../mappings/operations'
import { nrqlDocument, type NrqlData } from '../upstream/nrql-document'
import {
  assumptionLines,
  probeAssumptions,
  type AssumptionResult,
  type GqlAnswer,
} from './doctor-assumptions'
import { quote } from '../core/nrql'
import { bodyJson, keyFetch, KeyRefused } from './key-transport'
import { notProbed, probeWriteVisibility, type WriteProbeOptions } from './doctor-write-probe'
import {
  doctorAccountsDocument,
  doctorApplicationsDocument,
  doctorMutationsDocument,
  type AccountsData,
  type ApplicationsData,
  type MutationsData,
} from './doctor-documents'

export interface DoctorOptions {
  key: string
  endpoint: string
  account?: number
  fetch?: typeof fetch
  /** Applications whose timeslices are tried. */
  sample?: number
  /** Runs the write probe (`--write-probe`); without it doctor sends no write. */
  writeProbe?: WriteProbeOptions
}

/** Mutations v2 writes become (mappings/operations.ts rows name them once served). */
export const writeMutations = {
  'change tracking': 'changeTrackingCreateDeployment',
  'application settings': 'agentApplicationSettingsUpdate',
} as const

type Check = 'ok' | 'fail' | 'unchecked'

type Gql<T> = GqlAnswer<T>

/** Why a fetch failed: the system's code (ECONNREFUSED…) or the message. */
export function whyOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? (err as Error).message
}

/** NerdGraph could not be reached at all: doctor says why in one line and exits 2 (src/cli/main.ts). */
export class Unreachable extends Error {
  override name = 'Unreachable'
}

async function post<T>(o: DoctorOptions, query: string, variables = {}): Promise<Gql<T>> {
  let res: Response
  let body: { data?: T; errors?: GqlAnswer<T>['errors'] }
  try {
    res = await keyFetch(
      o.endpoint,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'API-Key': o.key,
          'User-Agent': 'v2bridge',
        },
        body: JSON.stringify({ query, variables }),
      },
      { timeoutMs: 30_000, what: 'NerdGraph at', ...(o.fetch ? { fetch: o.fetch } : {}) }
    )
    body = ((await bodyJson(res)) ?? {}) as typeof body
  } catch (err) {
    if (err instanceof KeyRefused) throw err
    throw new Unreachable(`NerdGraph at ${o.endpoint} could not be reached (${whyOf(err)})`)
  }
  return { status: res.status, data: body.data ?? undefined, errors: body.errors ?? [] }
}

export interface DoctorReport {
  ok: boolean
  lines: string[]
  /** What v2bridge assumes about NerdGraph, probed (src/cli/doctor-assumptions.ts). */
  assumptions?: AssumptionResult[]
}

export async function doctor(o: DoctorOptions): Promise<DoctorReport> {
  const lines = [`v2bridge doctor → ${o.endpoint}`]
  const say = (check: Check, text: string) => lines.push(`${check.padEnd(9)} ${text}`)

  const accounts = await post<AccountsData>(o, doctorAccountsDocument)
  const visible = accounts.data?.actor.accounts ?? []
  if (accounts.status >= 400 || !accounts.data) {
    if (accounts.status === 404) {
      // A v2bridge or v2 URL answers its own 404 to `POST` at its root: not NerdGraph.
      say(
        'fail',
        `${o.endpoint} is not NerdGraph (HTTP 404); to check a deployed v2bridge use --bridge URL`
      )
      return { ok: false, lines }
    }
    const why = accounts.errors[0]?.message ?? `HTTP ${accounts.status}`
    say('fail', `key rejected by NerdGraph (${why}); v2bridge needs a user key (NRAK-…)`)
    return { ok: false, lines }
  }
  const ids = visible.map((a) => a.id)
  say(
    ids.length ? 'ok' : 'fail',
    `key accepted: ${ids.length} account(s) visible (${ids.join(', ')})`
  )
  if (o.account !== undefined && !ids.includes(o.account)) {
    say('fail', `account ${o.account} is not visible to this key`)
    return { ok: false, lines }
  }

  const where = `domain = 'APM' AND type = 'APPLICATION'`
  const search = await post<ApplicationsData>(o, doctorApplicationsDocument, {
    query: o.account === undefined ? where : `${where} AND accountId = ${quote(o.account)}`,
  })
  const apps = search.data?.actor.entitySearch?.results.entities ?? []
  const appCount = search.data?.actor.entitySearch?.count ?? 0
  const appsCheck: Check = appCount > 0 ? 'ok' : 'fail'
  say(appsCheck, `APM applications: ${appCount} found`)

  const sample = apps.slice(0, o.sample ?? 3)
  const answered = await Promise.all(sample.map((app) => timeslicesAnswer(o, app)))
  const withData = sample.filter((_, i) => answered[i])
  const slicesCheck: Check = withData.length > 0 ? 'ok' : 'fail'
  say(
    slicesCheck,
    `timeslice metrics answer NRQL: ${withData.length} of ${sample.length} sampled application(s)` +
      (sample.length
        ? ` (${sample.map((a, i) => `${a.name}: ${answered[i] ? 'yes' : 'no'}`).join(', ')})`
        : '') +
      (slicesCheck === 'fail' ? `; ${timeslicePrerequisite}` : '')
  )

  const introspected = await post<MutationsData>(o, doctorMutationsDocument)
  const mutations = new Set(introspected.data?.__schema.mutationType?.fields.map((f) => f.name))
  for (const [label, name] of Object.entries(writeMutations)) {
    const present = mutations.has(name)
    say(
      present ? 'ok' : 'fail',
      `${label} (${name}): ${present ? 'in the schema for this key; permission shows at the first write' : 'not available'}`
    )
  }

  const checks = { entity: appsCheck, nrql: slicesCheck, mutations }
  lines.push(
    '',
    'v2 routes for this key (works: every NerdGraph field it uses passed a check above; unchecked: it uses',
    'fields doctor does not try without writing, which show at the first call; fails: a check failed):'
  )
  let forwarded = 0
  for (const row of operations as readonly OperationRow[]) {
    const status = routeStatus(row, checks)
    if (status === 'forwarded') forwarded += 1
    else if (status) lines.push(`  ${status.padEnd(10)} ${row.method} ${row.path}  ${row.summary}`)
  }
  if (forwarded)
    lines.push(`  forwarded  ${forwarded} alerts operations, passed to REST API v2 unchanged`)
  const ok = appsCheck === 'ok' && slicesCheck === 'ok'
  lines.push('', `core read path (applications and metric data): ${ok ? 'works' : 'does not work'}`)
  const ctx = {
    ask: <T>(query: string, variables = {}) => post<T>(o, query, variables),
    key: o.key,
    app: withData[0] ?? apps[0],
    accounts: ids,
    now: Date.now(),
  }
  const assumptions = await probeAssumptions(ctx)
  // The one probe that writes, after every read-only one, and only when asked.
  const write = o.writeProbe ? await probeWriteVisibility(ctx, o.writeProbe) : { result: notProbed }
  assumptions.push(write.result)
  lines.push('', ...assumptionLines(assumptions))
  if (write.leftover) say('fail', `the write probe's tag is left: ${write.leftover}`)
  return { ok: ok && !write.leftover, lines, assumptions }
}

async function timeslicesAnswer(o: DoctorOptions, app: { guid: string; accountId: number }) {
  const nrql =
    `SELECT count(newrelic.timeslice.value) AS 'slices' FROM Metric ` +
    `WHERE entity.guid = ${quote(app.guid)} SINCE 1 day ago`
  const res = await post<NrqlData>(o, nrqlDocument, { accountId: app.accountId, nrql })
  const row = res.data?.actor.account?.nrql?.results[0]
  return Number(row?.['slices'] ?? 0) > 0
}

/** What v2 metric data needs of an account, said where the check fails (New Relic docs "Query APM
 * metric timeslice data with NRQL"). */
export const timeslicePrerequisite =
  'v2 metric data needs APM metric timeslice data queryable as dimensional metrics (NRQL FROM Metric): New Relic docs "Query APM metric timeslice data with NRQL" say how it is enabled for an account'

/** Rows doctor never calls "works" whatever the checks: their answer is fixed (a deployment
 * delete always answers 409: NerdGraph deployments are immutable). */
const fixedAnswers = new Set(['DELETE /v2/applications/{application_id}/deployments/{id}'])

/** A served row works when every NerdGraph field it uses passed its check. */
function routeStatus(
  row: OperationRow,
  checks: { entity: Check; nrql: Check; mutations: Set<string> }
): string | undefined {
  if (row.answer === 'forwarded') return 'forwarded'
  if (row.answer !== 'served') return undefined
  if (fixedAnswers.has(`${row.method} ${row.path}`)) return 'always 409'
  const each = (row.nerdgraph ?? []).map((field): Check => {
    if (field.startsWith('actor.entit')) return checks.entity
    if (field === 'actor.account.nrql') return checks.nrql
    if (!field.includes('.')) return checks.mutations.has(field) ? 'ok' : 'fail'
    return 'unchecked'
  })
  if (each.includes('fail')) return 'fails'
  return each.includes('unchecked') ? 'unchecked' : 'works'
}

/**
 * @module cli/doctor-assumptions
 * What v2bridge assumes about the live NerdGraph, each checked by one read-only probe on the caller's
 * own account and answered `confirmed`, `contradicted` (with what was seen) or `unknown`. Each
 * assumption, its public evidence and its probe are listed in docs/assumptions.md, under a heading
 * named by its id; a contradicted one names the setting or docs section that covers it.
 */
import { quote } from '../core/nrql'
import { keyAccountDocument, type KeyAccountData } from '../entities/accounts'
import type { NrqlData } from '../upstream/nrql-document'
import {
  doctorErrorRateDocument,
  doctorOtherAccountDocument,
  doctorTimeoutDocument,
  doctorUserDocument,
  identicalNrqlDocument,
  type ErrorRateData,
  type UserData,
} from './doctor-assumption-documents'
import { capProbes } from './doctor-assumption-caps'
import { keyProbes } from './doctor-assumption-keys'
import { loadProbes } from './doctor-assumption-load'
import { writeVisibility } from './doctor-write-probe'
import {
  doc,
  errorsOf,
  hour,
  minute,
  nrql,
  throttled,
  type AssumptionResult,
  type GqlAnswer,
  type Probe,
  type ProbeContext,
} from './doctor-assumption-probe'

export type {
  Ask,
  AssumptionResult,
  GqlAnswer,
  ProbeContext,
  Verdict,
} from './doctor-assumption-probe'

/** Identical queries the rate-limit probe sends in one request: one past the live limit of 120 a
 * minute of one query per user (New Relic docs "Rate limits with NRQL"). */
export const identicalProbeCount = 121

const probes: Probe[] = [
  {
    id: 'metric-timeslices',
    statement: 'APM metric timeslice data answers NRQL as `Metric` (newrelic.timeslice.value)',
    covers: `${doc('metric-timeslices')} (New Relic docs "Query APM metric timeslice data with NRQL")`,
    async run(ctx, app) {
      const { answer, result } = await nrql(
        ctx,
        app.accountId,
        `SELECT count(newrelic.timeslice.value) AS 'slices' FROM Metric ` +
          `WHERE entity.guid = ${quote(app.guid)} SINCE 1 day ago`
      )
      if (!result) return ['unknown', errorsOf(answer)]
      const slices = Number(result.results[0]?.['slices'] ?? 0)
      return slices > 0
        ? ['confirmed', `${slices} timeslices in a day`]
        : ['contradicted', 'no timeslice of an APM application in a day']
    },
  },
  {
    id: 'facet-rows',
    statement:
      'a `FACET a, b` row carries `facet`, an array in `metadata.facets` order, and not the attributes',
    covers: `${doc('facet-rows')} (v2bridge reads by position, whichever shape)`,
    async run(ctx, app) {
      const { answer, result } = await nrql(
        ctx,
        app.accountId,
        `SELECT count(newrelic.timeslice.value) FROM Metric WHERE entity.guid = ${quote(app.guid)} ` +
          `FACET metricTimesliceName, host SINCE 1 hour ago LIMIT 5`
      )
      if (!result) return ['unknown', errorsOf(answer)]
      const facets = result.metadata?.facets ?? null
      const rows = result.results
      if (rows.length === 0) return ['unknown', 'no rows in the last hour']
      if (JSON.stringify(facets) !== '["metricTimesliceName","host"]')
        return ['contradicted', `metadata.facets ${JSON.stringify(facets)}`]
      const bad = rows.find((r) => !Array.isArray(r['facet']) || r['facet'].length !== 2)
      if (bad) return ['contradicted', `a row's facet is ${JSON.stringify(bad['facet'])}`]
      const keyed = rows.filter((r) => 'metricTimesliceName' in r || 'host' in r).length
      return keyed
        ? ['contradicted', `${keyed} of ${rows.length} rows also carry the attributes' keys`]
        : ['confirmed', `${rows.length} rows, each with a two-value facet array only`]
    },
  },
  {
    id: 'rollups',
    statement: 'Metric timeslices older than 8 days are hourly rollups (1-minute data kept 8 days)',
    covers: `${doc('rollups')} (New Relic docs "Manage data retention")`,
    async run(ctx, app) {
      const since = Math.floor((ctx.now - 10 * 24 * hour) / hour) * hour
      const { answer, result } = await nrql(
        ctx,
        app.accountId,
        `SELECT count(newrelic.timeslice.value) AS 'n' FROM Metric WHERE entity.guid = ` +
          `${quote(app.guid)} SINCE ${since} UNTIL ${since + 2 * hour} TIMESERIES 1 minute`
      )
      if (!result) return ['unknown', errorsOf(answer)]
      const filled = result.results.filter((r) => Number(r['n'] ?? 0) > 0)
      if (filled.length === 0) return ['unknown', 'no timeslices 10 days ago']
      const offEdge = filled.filter((r) => (Number(r['beginTimeSeconds']) * 1000) % hour !== 0)
      return offEdge.length
        ? ['contradicted', `1-minute data 10 days ago (${offEdge.length} minutes off the hour)`]
        : ['confirmed', `${filled.length} buckets with data, all on the hour`]
    },
  },
  {
    id: 'no-access',
    statement:
      'an account the key cannot use is refused with "Access denied." and no FORBIDDEN class',
    covers: `${doc('no-access')} (v2bridge answers 404 or 403 for either shape)`,
    async run(ctx) {
      const other = Math.max(0, ...ctx.accounts) + 1
      const answer = await ctx.ask<unknown>(doctorOtherAccountDocument, { accountId: other })
      const error = answer.errors[0]
      if (!error) return ['unknown', `account ${other} answered without an error`]
      const cls = error.extensions?.errorClass
      if (cls === 'FORBIDDEN') return ['contradicted', `errorClass FORBIDDEN: "${error.message}"`]
      return /access denied/i.test(error.message)
        ? ['confirmed', `"${error.message}"${cls ? `, errorClass ${cls}` : ''}`]
        : ['unknown', `"${error.message}"${cls ? `, errorClass ${cls}` : ''}`]
    },
  },
  {
    id: 'key-search',
    statement:
      "a key search narrowed to the caller's user lists the caller's own key in full, with its account",
    covers: `${doc('key-search')} (else set ACCOUNT_ID or send X-Account-Id)`,
    async run(ctx) {
      const user = await ctx.ask<UserData>(doctorUserDocument)
      const userId = user.data?.actor.user?.id
      if (typeof userId !== 'number') return ['unknown', errorsOf(user)]
      let cursor: string | null = null
      let keys = 0
      for (let page = 0; page < 10; page++) {
        const answer: GqlAnswer<KeyAccountData> = await ctx.ask<KeyAccountData>(
          keyAccountDocument,
          {
            userId,
            cursor,
          }
        )
        const search = answer.data?.actor.apiAccess?.keySearch
        if (!search) return ['unknown', errorsOf(answer)]
        keys += search.keys?.length ?? 0
        const own = search.keys?.find((k) => k?.key === ctx.key)
        if (own) return ['confirmed', `found among ${keys} key(s), account ${own.accountId}`]
        cursor = search.nextCursor
        if (!cursor) break
      }
      return ['contradicted', `not found among the user's ${keys} key(s)`]
    },
  },
  {
    id: 'error-rate',
    statement: '`apmSummary.errorRate` is a percent (0–100), as v2 `error_rate` is',
    covers: `${doc('error-rate')} (v2bridge takes error_rate from timeslices where it can)`,
    async run(ctx, app) {
      const search = await ctx.ask<ErrorRateData>(doctorErrorRateDocument, {
        query: `domain = 'APM' AND type = 'APPLICATION' AND accountId = ${quote(app.accountId)}`,
      })
      const entities = search.data?.actor.entitySearch?.results.entities ?? []
      for (const e of entities.slice(0, 5)) {
        const rate = e.apmSummary?.errorRate
        if (typeof rate !== 'number' || rate <= 0) continue
        const { result } = await nrql(
          ctx,
          e.accountId,
          `SELECT filter(count(newrelic.timeslice.value), WHERE metricTimesliceName = 'Errors/all') ` +
            `AS 'errors', filter(count(newrelic.timeslice.value), WHERE metricTimesliceName IN ` +
            `('HttpDispatcher', 'OtherTransaction/all')) AS 'calls' FROM Metric WHERE ` +
            `entity.guid = ${quote(e.guid)} AND scope IS NULL SINCE 5 minutes ago`
        )
        const row = result?.results[0]
        const calls = Number(row?.['calls'] ?? 0)
        const errors = Number(row?.['errors'] ?? 0)
        if (!calls || !errors) continue
        const percent = (100 * errors) / calls
        const ratio = rate / percent
        if (ratio > 0.2 && ratio < 5)
          return ['confirmed', `${rate.toFixed(3)} beside ${percent.toFixed(3)} % from timeslices`]
        if (ratio > 0.002 && ratio < 0.05)
          return ['contradicted', `a fraction: ${rate} beside ${percent.toFixed(3)} %`]
        return ['unknown', `${rate} beside ${percent.toFixed(3)} % from timeslices`]
      }
      return ['unknown', 'no application with errors in the last minutes']
    },
  },
  {
    id: 'nrql-timeout',
    statement: 'an NRQL query takes `timeout:` up to 120 seconds',
    covers: `${doc('nrql-timeout')} (New Relic docs "Rate limits with NRQL")`,
    async run(ctx, app) {
      const answer = await ctx.ask<NrqlData>(doctorTimeoutDocument, {
        accountId: app.accountId,
        nrql: `SELECT count(newrelic.timeslice.value) FROM Metric WHERE entity.guid = ${quote(app.guid)} SINCE 5 minutes ago`,
      })
      return answer.data?.actor.account?.nrql
        ? ['confirmed', 'answered with timeout: 120']
        : ['contradicted', errorsOf(answer)]
    },
  },
  {
    id: 'rate-limit',
    statement:
      'past 120 runs a minute of one query by one user, NerdGraph answers 429 (TOO_MANY_REQUESTS)',
    covers: `${doc('rate-limit')} (v2bridge answers v2's 429 with Retry-After)`,
    async run(ctx, app) {
      // A window no other query names: the 121 are identical to each other only.
      const until = Math.floor(ctx.now / minute) * minute - 7 * minute - (ctx.now % 997)
      const answer = await ctx.ask<unknown>(identicalNrqlDocument(identicalProbeCount), {
        accountId: app.accountId,
        nrql: `SELECT count(newrelic.timeslice.value) FROM Metric WHERE entity.guid = ${quote(app.guid)} SINCE ${until - minute} UNTIL ${until}`,
      })
      if (throttled(answer)) {
        const cls = answer.errors.some((e) => e.extensions?.errorClass === 'TOO_MANY_REQUESTS')
        return ['confirmed', `HTTP ${answer.status}${cls ? ', TOO_MANY_REQUESTS' : ''}`]
      }
      if (answer.status === 200 && answer.errors.length === 0)
        return ['contradicted', `${identicalProbeCount} identical queries answered in one minute`]
      return ['unknown', errorsOf(answer)]
    },
  },
  ...capProbes,
  ...loadProbes,
  ...keyProbes,
]

/** Every probe, in the order of docs/assumptions.md; a probe that throws is `unknown`. */
export async function probeAssumptions(ctx: ProbeContext): Promise<AssumptionResult[]> {
  const out: AssumptionResult[] = []
  for (const p of probes) {
    const base = { id: p.id, statement: p.statement, covers: p.covers }
    if (!ctx.app) {
      const needsNoApp = ['no-access', 'key-search', 'admin-key-search'].includes(p.id)
      if (!needsNoApp) {
        out.push({ ...base, verdict: 'unknown', seen: 'no APM application to probe' })
        continue
      }
    }
    try {
      const [verdict, seen] = await p.run(ctx, ctx.app ?? { guid: '', accountId: 0 })
      out.push({ ...base, verdict, seen })
    } catch (err) {
      out.push({ ...base, verdict: 'unknown', seen: (err as Error).message })
    }
  }
  return out
}

/** The probe ids, for docs/assumptions.md's test; the write probe, opt-in, comes last. */
export const assumptionIds = [...probes.map((p) => p.id), writeVisibility.id]

/** Text lines of the results. */
export function assumptionLines(results: readonly AssumptionResult[]): string[] {
  return [
    'Assumptions about NerdGraph (docs/assumptions.md), probed on this account:',
    ...results.map(
      (r) =>
        `  ${r.verdict.padEnd(13)} ${r.id}: ${r.statement}` +
        (r.verdict === 'not probed' ? ` (${r.seen})` : `; seen: ${r.seen}`) +
        (r.verdict === 'contradicted' ? `; see ${r.covers}` : '')
    ),
  ]
}

/**
 * @module cli/doctor-assumption-load
 * Doctor's timed probes, which read how NerdGraph answers load: the 25 requests a user may have in
 * flight (New Relic docs "NerdGraph usage limits"), and an NRQL query's latency growing with the data
 * it scans (docs "Rate limits with NRQL"). Each is timed by the client; docs/assumptions.md gives each.
 */
import { quote } from '../core/nrql'
import { nrqlDocument, type NrqlData } from '../upstream/nrql-document'
import { doctorUserDocument } from './doctor-assumption-documents'
import {
  doc,
  errorsOf,
  minute,
  throttled,
  type GqlAnswer,
  type Probe,
  type ProbeContext,
  type Verdict,
} from './doctor-assumption-probe'

type Answer = [Verdict, string]

/** Requests the concurrency probe sends at once: one past the 25 in flight per user (New Relic
 * docs "NerdGraph usage limits"). */
export const concurrentProbeCount = 26

/** Batches the concurrency probe sends at most: a second only when the first saw no 429. */
export const concurrentProbeBatches = 2

/** One request of a batch, from the client's view: when it was sent and answered (ms). */
export interface Flight {
  started: number
  answered: number
  throttled: boolean
  ok: boolean
}

/** Pure: the verdict on `concurrentProbeCount` requests sent together, beside the time (ms) one of
 * them took alone just before. */
export function concurrencyVerdict(flights: readonly Flight[], aloneMs: number): Answer {
  const n = flights.length
  const firstAnswer = Math.min(...flights.map((f) => f.answered))
  const together = Math.max(...flights.map((f) => f.started)) < firstAnswer
  const refused = flights.filter((f) => f.throttled)
  // A 429 that came while another request was still unanswered.
  const amid = refused.filter((r) => flights.some((f) => !f.throttled && f.answered > r.answered))
  if (amid.length)
    return ['confirmed', `${refused.length} of ${n} answered 429 while others were in flight`]
  if (!together) return ['unknown', `the ${n} requests did not overlap`]
  if (refused.length) return ['unknown', `${refused.length} of ${n} answered 429, after the rest`]
  // Side by side at NerdGraph: each request was there for at least the time one takes alone, so
  // answers that all came within that time were all there at once. Answers spread wider may have
  // reached it one after another (a connection still opening, a busy link or client).
  const spread = Math.max(...flights.map((f) => f.answered)) - firstAnswer
  if (spread >= aloneMs)
    return [
      'unknown',
      `the ${n} answers came over ${ms(spread)}, one alone took ${ms(aloneMs)}: not all at once`,
    ]
  if (flights.every((f) => f.ok))
    return ['contradicted', `all ${n} answered, every one sent before any answered`]
  return ['unknown', `${flights.filter((f) => !f.ok).length} of ${n} failed otherwise`]
}

/** Pure: the verdict on the client's times (ms) of the narrow and wide queries, best of each. */
export function costVerdict(
  narrow: readonly number[],
  wide: readonly number[] | 'TIMEOUT'
): Answer {
  const n = Math.min(...narrow)
  if (wide === 'TIMEOUT')
    return ['confirmed', `the wide query answered TIMEOUT, the narrow ${ms(n)}`]
  const w = Math.min(...wide)
  const seen = `the wide query took ${ms(w)}, the narrow ${ms(n)} (best of ${wide.length} each)`
  if (w >= 3 * n && w - n >= costMarginMs) return ['confirmed', seen]
  if (w < 1.5 * n || w - n < costMarginMs / 2) return ['contradicted', seen]
  return ['unknown', seen]
}

/** The least a wide query must take beyond the narrow one to count as slower (ms). */
export const costMarginMs = 20

/** Runs of each query of the cost probe: the best of them is compared, so one slow answer (a
 * garbage collection, a busy link) does not decide. */
export const costRuns = 3

const ms = (t: number) => `${Math.round(t)} ms`

async function timed<T>(ctx: ProbeContext, send: () => Promise<GqlAnswer<T>>) {
  const clock = ctx.clock ?? (() => performance.now())
  const started = clock()
  const answer = await send()
  return { answer, started, answered: clock() }
}

/** The metric names of one application in `window` (NRQL `SINCE … UNTIL …`), as `alias`. */
const namesQuery = (guid: string, alias: string, window: string) =>
  `SELECT uniques(metricTimesliceName) AS '${alias}' FROM Metric ` +
  `WHERE entity.guid = ${quote(guid)} ${window}`

/** The 7 days before the last complete minute. */
function weekOf(now: number): string {
  const end = Math.floor(now / minute) * minute - minute
  return `SINCE ${end - 7 * 1440 * minute} UNTIL ${end}`
}

const ask = (ctx: ProbeContext, accountId: number, nrql: string) =>
  timed(ctx, () => ctx.ask<NrqlData>(nrqlDocument, { accountId, nrql }))

export const loadProbes: Probe[] = [
  {
    id: 'concurrency',
    statement: 'past 25 requests in flight per user, NerdGraph answers HTTP 429',
    covers: `${doc('concurrency')} (New Relic docs "NerdGraph usage limits"; v2bridge keeps to 25 per user)`,
    async run(ctx, app) {
      // A week of one application's metric names: cheap, but not instant, so the requests are in
      // flight together. Each text differs (its alias): the identical-query limit is not what answers.
      const week = weekOf(ctx.now)
      // A batch whose 26 all answered may still have reached NerdGraph staggered (a busy link or
      // server): a second batch must agree before the limit is called contradicted.
      let verdict: Answer = ['unknown', 'not sent']
      for (let batch = 0; batch < concurrentProbeBatches; batch++) {
        // 26 light requests first open (and keep alive) as many connections, so the 26 queries
        // leave at once rather than one handshake after another; one may be refused, harmlessly.
        await Promise.all(
          Array.from({ length: concurrentProbeCount }, () => ctx.ask(doctorUserDocument))
        )
        const alone = await ask(ctx, app.accountId, namesQuery(app.guid, `a${batch}`, week))
        if (!alone.answer.data?.actor.account?.nrql) return ['unknown', errorsOf(alone.answer)]
        const flights = await Promise.all(
          Array.from({ length: concurrentProbeCount }, (_, i) =>
            ask(ctx, app.accountId, namesQuery(app.guid, `c${batch}_${i}`, week))
          )
        )
        verdict = concurrencyVerdict(
          flights.map(({ answer, started, answered }) => ({
            started,
            answered,
            throttled: throttled(answer),
            ok: answer.status === 200 && answer.errors.length === 0,
          })),
          alone.answered - alone.started
        )
        if (verdict[0] !== 'contradicted') return verdict
      }
      return [verdict[0], `${verdict[1]}, in each of ${concurrentProbeBatches} batches`]
    },
  },
  {
    id: 'nrql-cost',
    statement:
      'an NRQL query takes longer the more data it scans (5 s default timeout, then TIMEOUT)',
    covers: `${doc('nrql-cost')} (v2bridge sizes a query's timeout: by its names and minutes)`,
    async run(ctx, app) {
      // The same question over one minute and over a week of the application's timeslices.
      const end = Math.floor(ctx.now / minute) * minute - minute
      const narrow: number[] = []
      const wide: number[] = []
      for (let i = 0; i < costRuns; i++) {
        const a = await ask(
          ctx,
          app.accountId,
          namesQuery(app.guid, `n${i}`, `SINCE ${end - minute} UNTIL ${end}`)
        )
        if (!a.answer.data?.actor.account?.nrql) return ['unknown', errorsOf(a.answer)]
        narrow.push(a.answered - a.started)
        const b = await ask(ctx, app.accountId, namesQuery(app.guid, `w${i}`, weekOf(ctx.now)))
        if (b.answer.errors.some((e) => e.extensions?.errorClass === 'TIMEOUT'))
          return costVerdict(narrow, 'TIMEOUT')
        if (!b.answer.data?.actor.account?.nrql) return ['unknown', errorsOf(b.answer)]
        wide.push(b.answered - b.started)
      }
      return costVerdict(narrow, wide)
    },
  },
]

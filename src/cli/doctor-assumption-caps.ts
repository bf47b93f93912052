/**
 * @module cli/doctor-assumption-caps
 * Doctor's probes of how NRDB shapes a Metric answer: its caps, past which v2bridge asks a cut answer
 * again in halves (src/upstream/nrql-pages.ts), and the snapping of a long window to rollup edges,
 * which v2bridge's metric-data slices follow (src/core/time-range.ts). docs/assumptions.md gives each.
 */
import { quote } from '../core/nrql'
import { limitMax, uniquesMax } from '../upstream/nrql-pages'
import {
  doc,
  errorsOf,
  hour,
  minute,
  nrql,
  type Probe,
  type Verdict,
} from './doctor-assumption-probe'

type Answer = [Verdict, string]

/** A `LIMIT MAX` FACET of `facets` rows holding `inFacets` of the `rows` the window has. */
export function facetCapVerdict(facets: number, inFacets: number, rows: number): Answer {
  if (facets > limitMax)
    return ['contradicted', `LIMIT MAX answered ${facets} facets, past ${limitMax}`]
  const left = rows - inFacets
  if (left <= 0)
    return ['unknown', `all ${facets} facets of the minute, under the cap of ${limitMax}`]
  return facets === limitMax
    ? [
        'confirmed',
        `LIMIT MAX stopped at ${facets} facets, ${left} of ${rows} timeslices in others`,
      ]
    : ['contradicted', `LIMIT MAX stopped at ${facets} facets, under ${limitMax}, ${left} left out`]
}

/** `uniques(…, cap)` answering `names` beside a `uniqueCount()` of `distinct`. */
export function uniquesCapVerdict(names: unknown, distinct: number): Answer {
  if (!Array.isArray(names)) return ['unknown', `uniques() answered ${JSON.stringify(names)}`]
  const n = names.length
  if (n > uniquesMax) return ['contradicted', `uniques() answered ${n} values, past ${uniquesMax}`]
  if (n === uniquesMax && distinct > n)
    return ['confirmed', `uniques() stopped at ${n} of ${distinct} names`]
  return [
    'unknown',
    `uniques() answered ${n} of ${distinct} names, the cap of ${uniquesMax} unreached`,
  ]
}

/** Contradicted if either half is, confirmed if either is, else unknown; both halves seen. */
function both(a: Answer, b: Answer): Answer {
  const verdicts = [a[0], b[0]]
  const verdict: Verdict = verdicts.includes('contradicted')
    ? 'contradicted'
    : verdicts.includes('confirmed')
      ? 'confirmed'
      : 'unknown'
  return [verdict, `${a[1]}; ${b[1]}`]
}

const fiveMinutes = 5 * minute
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16) + 'Z'

export const capProbes: Probe[] = [
  {
    id: 'truncation',
    statement: `a FACET's \`LIMIT MAX\` answers at most ${limitMax} facets, \`uniques()\` at most ${uniquesMax} values`,
    covers: `${doc('truncation')} (New Relic docs "NRQL syntax, clauses, and functions")`,
    async run(ctx, app) {
      const until = Math.floor(ctx.now / minute) * minute - 3 * minute
      const window = `SINCE ${until - minute} UNTIL ${until}`
      const whole = await nrql(
        ctx,
        app.accountId,
        `SELECT count(newrelic.timeslice.value) AS 'n', uniques(metricTimesliceName, ${uniquesMax}) ` +
          `AS 'names', uniqueCount(metricTimesliceName) AS 'distinct' FROM Metric ${window}`
      )
      if (!whole.result) return ['unknown', errorsOf(whole.answer)]
      const faceted = await nrql(
        ctx,
        app.accountId,
        `SELECT count(newrelic.timeslice.value) AS 'n' FROM Metric ` +
          `FACET entity.guid, metricTimesliceName ${window} LIMIT MAX`
      )
      if (!faceted.result) return ['unknown', errorsOf(faceted.answer)]
      const row = whole.result.results[0] ?? {}
      const facets = faceted.result.results
      const inFacets = facets.reduce((sum, r) => sum + Number(r['n'] ?? 0), 0)
      return both(
        facetCapVerdict(facets.length, inFacets, Number(row['n'] ?? 0)),
        uniquesCapVerdict(row['names'], Number(row['distinct'] ?? 0))
      )
    },
  },
  {
    id: 'window-snapping',
    statement: 'a 47 h 59 min Metric window snaps to the 5-minute edges of the rollup it reads',
    covers: `${doc('window-snapping')} (New Relic docs "Set a query's time range")`,
    async run(ctx, app) {
      // The docs' example: 00:04 to 00:03 two days later answers 00:00 to 00:00.
      const since = Math.floor(ctx.now / hour) * hour - 72 * hour + 4 * minute
      const until = since + 47 * hour + 59 * minute
      const { answer, result } = await nrql(
        ctx,
        app.accountId,
        `SELECT count(newrelic.timeslice.value) FROM Metric WHERE entity.guid = ${quote(app.guid)} ` +
          `SINCE ${since} UNTIL ${until}`
      )
      const window = result?.metadata?.timeWindow
      if (!window) return ['unknown', result ? 'no metadata.timeWindow' : errorsOf(answer)]
      const seen = `${iso(since)} to ${iso(until)} answered as ${iso(window.begin)} to ${iso(window.end)}`
      if (window.begin === since && window.end === until)
        return ['contradicted', `not snapped: ${seen}`]
      const snapped = [since - window.begin, until - window.end].every(
        (d) => d >= 0 && d < fiveMinutes
      )
      return snapped && window.begin % fiveMinutes === 0 && window.end % fiveMinutes === 0
        ? ['confirmed', seen]
        : ['unknown', seen]
    },
  },
]

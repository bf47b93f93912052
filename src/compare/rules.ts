/**
 * @module compare/rules
 * The one table of comparison rules (issue 24): what of an answer is compared beside its body, how
 * list items are matched, how close two numbers must be, and how noise is learned. Data only; the
 * functions of `diff.ts` and `noise.ts` read it.
 */

export const compareRules = {
  /** Compared beside the body, each under its own path: the HTTP status, the media type of
   * `Content-Type` (parameters such as `charset` aside) and each `Link` relation with its query
   * parameters (RFC 8288; v2 pages with `rel="next"`, `"last"`… as New Relic docs "Pagination for
   * API output" shows). The error title is the body's `error.title`. */
  answer: { status: '(status)', contentType: '(content-type)', link: '(link)' },
  /** List items are matched by the first of these identities they have, not by position: `id`
   * (applications, hosts, instances, deployments, users…), a metric's `name`, a timeslice's
   * `from`/`to`. Items with none are matched by position; lists of scalars as multisets. */
  identity: [['id'], ['name'], ['from', 'to']] as readonly (readonly string[])[],
  /** Numbers equal within `abs` or `rel` (the larger), by field name; `default` for every field
   * without a row. Only floating-point error by default: a rounding that differs is a difference. */
  tolerance: {
    default: { abs: 1e-9, rel: 1e-9 },
  } as Readonly<Record<string, { abs: number; rel: number }>>,
  /** Times (ISO 8601 text) equal within these milliseconds, by field name: a window that ends now
   * (metric data without `to`: New Relic docs "Extract metric timeslice data", the last 30 minutes)
   * ends at the second each side is asked, which may be a second or two apart. */
  time: { from: 5_000, to: 5_000 } as Readonly<Record<string, number>>,
  /** The granularity of a time field whose value moves between two v2 reads: a time that moved is
   * allowed the largest move seen between v2's reads plus this, never more. `last_reported_at` is
   * under a minute off on v2bridge (docs/differences.md), "accurate to within a few minutes" on v2
   * (v2 API explorer, application model). Other times: a second. */
  timeGranularity: { last_reported_at: 60_000, default: 1_000 } as Readonly<Record<string, number>>,
  /** Learning noise, Diffy's way, per key and per list item: the first `first` comparisons of an
   * operation, then one in `every`, read v2 `reads` times; a comparison that finds a difference
   * reads v2 again, up to `reads` … `most` reads in all, before it reports it. A number differs
   * when it is further from some v2 read than `factor` times that item's own spread (the largest
   * range of its values over one call's v2 reads, relative to its value. With uniform jitter the
   * true value falls outside that reach only when the reads' range is below a sixth of the
   * jitter's width: about once in 8,000 values with six reads, under once in a million with ten,
   * which a list of 500 values needs). A time differs when it is further from every v2 read
   * than the largest move plus its granularity; anything else when no v2 read agrees with it.
   * Bands hold at most `paths` item paths per key, for at most `keys` keys (the least recently
   * seen key goes first). */
  noise: { first: 10, every: 10, reads: 3, most: 10, factor: 3, paths: 2_000, keys: 256 },
  /** The last comparisons remembered, at most `entries` in all (the least recently used goes
   * first), each of one key and operation, and only when both answers are under `bytes`: v2's
   * answer parsed and the differences found. A call whose two answers are byte for byte the ones
   * remembered is not parsed and walked again (issue 40: a list of 20,000 items compared on every
   * read). Never read for another key. */
  memo: { entries: 4, bytes: 2 ** 20 },
  /** Work per comparison: tree nodes walked, differences kept, characters of an item identity;
   * `slice`: nodes walked between two pauses of a comparison (a few milliseconds of work). */
  limits: { nodes: 1_000_000, differences: 1_000, identity: 96, slice: 1_024 },
  /** Per differing path: how many example values are kept, and how long each may be. */
  examples: { count: 3, length: 80 },
} as const

export type Tolerance = { abs: number; rel: number }

const fieldOf = (path: string) => path.slice(path.lastIndexOf('.') + 1)

/** The tolerance of a number, by its field (the last path segment). */
export function toleranceOf(path: string): Tolerance {
  return compareRules.tolerance[fieldOf(path)] ?? compareRules.tolerance['default']!
}

/** The granularity of a time field (`timeGranularity`). */
export function timeGranularityOf(path: string): number {
  return compareRules.timeGranularity[fieldOf(path)] ?? compareRules.timeGranularity['default']!
}

/** Whether two texts are the same time within the field's `time` tolerance. */
export function sameTime(path: string, a: string, b: string): boolean {
  const ms = compareRules.time[fieldOf(path)]
  if (ms === undefined) return false
  const [ta, tb] = [Date.parse(a), Date.parse(b)]
  return Number.isFinite(ta) && Number.isFinite(tb) && Math.abs(ta - tb) <= ms
}

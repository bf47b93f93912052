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
  /** Learning noise, Diffy's way: the first `first` comparisons of an operation, then one in
   * `every`, ask v2 twice; the largest spread between two answers, times `factor` (each side of a
   * comparison drifts by up to one spread), is that path's band. Bands per operation hold at most
   * `paths` paths. */
  noise: { first: 10, every: 10, factor: 2, paths: 200 },
  /** Per differing path: how many example values are kept, and how long each may be. */
  examples: { count: 3, length: 80 },
} as const

export type Tolerance = { abs: number; rel: number }

const fieldOf = (path: string) => path.slice(path.lastIndexOf('.') + 1)

/** The tolerance of a number, by its field (the last path segment). */
export function toleranceOf(path: string): Tolerance {
  return compareRules.tolerance[fieldOf(path)] ?? compareRules.tolerance['default']!
}

/** Whether two texts are the same time within the field's `time` tolerance. */
export function sameTime(path: string, a: string, b: string): boolean {
  const ms = compareRules.time[fieldOf(path)]
  if (ms === undefined) return false
  const [ta, tb] = [Date.parse(a), Date.parse(b)]
  return Number.isFinite(ta) && Number.isFinite(tb) && Math.abs(ta - tb) <= ms
}

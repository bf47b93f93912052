/**
 * @module resources/metrics/read
 * One metric's v2 values from one NRQL result row (pure). The readers of a metric are built once
 * per call and applied to each of its slices: a plain loop over a small array per value, no closure
 * or `reduce` per value (issue 16: the per-value path dominates large calls).
 */
import { formulas, type Inputs } from '../../../mappings/value-types'
import { round3 } from '../../core/numbers'
import type { ValueRead } from './plan'

type Row = Record<string, unknown>

/** One value's reader: a column times `scale`, or a formula over input columns. */
export interface Reader {
  key: string
  /** Rounded to about 3 significant digits (not a count, not `raw=true`). */
  round: boolean
  alias: string
  scale: readonly number[]
  formula: ((inputs: Inputs) => number | null) | undefined
  inputs: readonly (readonly [keyof Inputs, string])[]
  /** Read from the slice's row of the `others` query, not the metric's own row. */
  others: boolean
}

/** Readers per value list (plans share theirs across calls, src/resources/metrics/columns.ts): rounded, raw. */
const built = new WeakMap<readonly ValueRead[], [Reader[]?, Reader[]?]>()

export function readersOf(reads: readonly ValueRead[], raw: boolean): Reader[] {
  let pair = built.get(reads)
  if (!pair) built.set(reads, (pair = []))
  return (pair[raw ? 1 : 0] ??= compile(reads, raw))
}

/** A value named twice is read once, at its first place (as a repeated object key is). */
function compile(reads: readonly ValueRead[], raw: boolean): Reader[] {
  const once = reads.filter((read, i) => reads.findIndex((r) => r.value === read.value) === i)
  return once.map((read) => {
    const round = !raw && !read.count
    if ('alias' in read) {
      const { alias, scale = [] } = read
      return { key: read.value, round, alias, scale, formula: undefined, inputs: [], others: false }
    }
    const inputs = Object.entries(read.inputs) as [keyof Inputs, string][]
    const formula = formulas[read.formula]
    return { key: read.value, round, alias: '', scale: [], formula, inputs, others: !!read.others }
  })
}

/**
 * One value of a row before rounding, or null without data (null, NaN, a missing column). The
 * constants multiply in plan order, `0` and `null` staying as they are (src/resources/metrics/columns.ts `scaled`).
 */
export function readRaw(reader: Reader, row: Row): number | null {
  if (reader.formula !== undefined) return reader.formula(inputsOf(reader, row))
  let n = numberOf(row[reader.alias])
  const scale = reader.scale
  for (let i = 0; i < scale.length; i++) n = n && n * scale[i]!
  return n
}

/** One v2 value: 0 without data, as v2 answers for metrics that stopped reporting (docs "Extract
 * metric timeslice data"); rounded unless a count or `raw=true` (src/core/numbers.ts). */
export function readValue(reader: Reader, row: Row): number {
  const n = readRaw(reader, row)
  return n === null ? 0 : reader.round ? round3(n) : n
}

/** The formulas' inputs, one object reused (formulas only read it, mappings/value-types.ts). */
const scratch: Inputs = {
  count: 0,
  total: 0,
  totalExclusive: 0,
  sumOfSquares: 0,
  endUserErrors: 0,
  pageViews: 0,
}

function inputsOf(reader: Reader, row: Row): Inputs {
  scratch.count = scratch.total = scratch.totalExclusive = scratch.sumOfSquares = 0
  scratch.endUserErrors = scratch.pageViews = 0
  for (const [input, alias] of reader.inputs) scratch[input] = numberOf(row[alias]) ?? 0
  return scratch
}

/**
 * The `values` object of one timeslice, in family order; a slice without a row answers 0 for every
 * value (`other`: the slice's row of the `others` query, for the readers that read it). Counts are
 * exact; the rest is rounded unless `raw=true` (src/core/numbers.ts).
 */
export function sliceValues(
  readers: readonly Reader[],
  row: Row | undefined,
  other?: Row
): Record<string, number> {
  const values: Record<string, number> = {}
  for (const reader of readers) {
    const from = reader.others ? other : row
    values[reader.key] = from === undefined ? 0 : readValue(reader, from)
  }
  return values
}

function numberOf(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null
}

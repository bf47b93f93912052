/**
 * @module resources/metrics/json
 * The JSON text of a v2 `metric_data` body written in one pass from the shaped rows
 * (src/resources/metrics/reshape.ts), without building the v2 object: exactly `JSON.stringify` of the
 * object `toV2MetricData` gives (test/metrics/json.test.ts checks it over random answers). Issue 16:
 * building, then stringifying, some 100,000 value objects dominated large calls. Issue 27: written
 * in pieces into the answer's bytes (src/http/render/json.ts), never as one string.
 */
import type { JsonSink } from '../../http/render/json'
import { round3Json } from '../../core/numbers'
import { readRaw, type Reader } from './read'

type Row = Record<string, unknown>

/** The metric-data answer before it is written: reshape.ts builds it, this module writes it. */
export interface ShapedMetricData {
  from: string
  to: string
  notFound: string[]
  /** Found metrics in request order, each with its rows at their slice index. */
  found: { name: string; readers: Reader[]; rows: (Row | undefined)[] }[]
  /** The rows of the `others` query (inputs of other metrics) at their slice index. */
  others: (Row | undefined)[]
  slices: { from: string; to: string }[]
}

const text = JSON.stringify

/**
 * Writes the answer into `sink` in pieces: the head, then each metric's name and its slices joined
 * into one flat string. No piece holds the whole answer (issue 27: the peak memory of the largest
 * call); after the first metric the sink is told how much the rest will take, at that metric's size.
 */
export function writeMetricDataJson(shaped: ShapedMetricData, sink: JsonSink): void {
  const { found, others, slices } = shaped
  sink.write(
    `{"metric_data":{"from":${text(shaped.from)},"to":${text(shaped.to)},` +
      `"metrics_not_found":${text(shaped.notFound)},` +
      `"metrics_found":${text(found.map((m) => m.name))},"metrics":[`
  )
  // Times are formatTime's `YYYY-MM-DDTHH:MM:SS+00:00`: nothing in them to escape.
  const heads = slices.map((s, i) => `${i ? ',' : ''}{"from":"${s.from}","to":"${s.to}","values":{`)
  // Each metric's slices are joined into one flat string: one rope of some 200,000 `+=` pieces
  // costs more to flatten when the answer is encoded (largest bench case: 17.9 instead of 19.7 ms).
  const parts: string[] = []
  for (let k = 0; k < found.length; k++) {
    const { name, readers, rows } = found[k]!
    const { keys, zeros, mixed } = layoutOf(readers)
    parts.length = heads.length
    for (let i = 0; i < heads.length; i++) {
      const row = rows[i]
      let slice = heads[i]!
      if (row === undefined && !mixed) slice += zeros
      else {
        for (let j = 0; j < keys.length; j++) {
          const reader = readers[j]!
          const from = reader.others ? others[i] : row // a value of other metrics: their row
          slice += keys[j] + (from === undefined ? '0' : valueJson(reader, from))
        }
        slice += '}}'
      }
      parts[i] = slice
    }
    const head = `${k ? ',' : ''}{"name":${text(name)},"timeslices":[`
    const timeslices = parts.join('')
    sink.write(head)
    sink.write(timeslices)
    sink.write(']}')
    // The other metrics at about this one's size (their values' digits vary: 1/32 more).
    const rest = (head.length + timeslices.length + 2) * (found.length - 1)
    if (k === 0) sink.expect(rest + (rest >> 5) + 3)
  }
  sink.write(']}}')
}

/** Per reader list (shared across calls, src/resources/metrics/read.ts): each value's `,"key":`, the
 * values of a slice without data, `"key":0,…}}`, and whether some value reads the `others` rows. */
const layouts = new WeakMap<readonly Reader[], { keys: string[]; zeros: string; mixed: boolean }>()

function layoutOf(readers: readonly Reader[]) {
  let layout = layouts.get(readers)
  if (!layout) {
    const keys = readers.map((r, j) => `${j ? ',' : ''}${text(r.key)}:`)
    const zeros = `${keys.map((key) => `${key}0`).join('')}}}`
    layouts.set(readers, (layout = { keys, zeros, mixed: readers.some((r) => r.others) }))
  }
  return layout
}

/** `JSON.stringify(readValue(reader, row))` (src/resources/metrics/read.ts): `-0` is `0`, NaN and ±Infinity
 * are `null` (ECMA-262 SerializeJSONProperty). */
function valueJson(reader: Reader, row: Record<string, unknown>): string {
  const n = readRaw(reader, row)
  if (n === null) return '0'
  if (reader.round) return round3Json(n)
  return Number.isFinite(n) ? String(n) : 'null'
}

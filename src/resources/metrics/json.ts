/**
 * @module resources/metrics/json
 * The JSON text of a v2 `metric_data` body written in one pass from the shaped rows
 * (src/resources/metrics/reshape.ts), without building the v2 object: exactly `JSON.stringify` of the
 * object `toV2MetricData` gives (test/metrics/json.test.ts checks it over random answers). Issue 16:
 * building, then stringifying, some 100,000 value objects dominated large calls. Issue 27: written
 * in pieces into the answer's bytes (src/http/render/json.ts), never as one string; issue 39: the
 * slices as bytes, never as strings.
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
const encoder = new TextEncoder()

/**
 * Writes the answer into `sink`: the head and each metric's name as text, its slices as bytes
 * straight into the sink's buffer (issue 39: each slice built as a string of some 23 pieces, then
 * joined, flattened and encoded, left as much garbage as answer). No piece holds the whole answer
 * (issue 27); after the first metric the sink makes room for the rest, at that metric's size.
 */
export function writeMetricDataJson(shaped: ShapedMetricData, sink: JsonSink): void {
  const { found, others, slices } = shaped
  sink.write(
    `{"metric_data":{"from":${text(shaped.from)},"to":${text(shaped.to)},` +
      `"metrics_not_found":${text(shaped.notFound)},` +
      `"metrics_found":${text(found.map((m) => m.name))},"metrics":[`
  )
  // Times are formatTime's `YYYY-MM-DDTHH:MM:SS+00:00`: nothing in them to escape.
  const heads = slices.map((s, i) =>
    encoder.encode(`${i ? ',' : ''}{"from":"${s.from}","to":"${s.to}","values":{`)
  )
  for (let k = 0; k < found.length; k++) {
    const { name, readers, rows } = found[k]!
    const { keys, zeros, mixed, most } = layoutOf(readers)
    const start = sink.size
    sink.write(`${k ? ',' : ''}{"name":${text(name)},"timeslices":[`)
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i]!
      sink.room(head.length + most)
      const buf = sink.buffer
      let p = copy(buf, sink.size, head)
      const row = rows[i]
      if (row === undefined && !mixed) p = copy(buf, p, zeros)
      else {
        for (let j = 0; j < keys.length; j++) {
          const reader = readers[j]!
          const from = reader.others ? others[i] : row // a value of other metrics: their row
          p = copy(buf, p, keys[j]!)
          if (from === undefined) buf[p++] = ZERO
          else p = writeValue(buf, p, reader, from)
        }
        buf[p++] = CLOSE_OBJECT
        buf[p++] = CLOSE_OBJECT
      }
      sink.size = p
    }
    sink.write(']}')
    // The other metrics at about this one's size (their values' digits vary: 1/32 more).
    const rest = (sink.size - start) * (found.length - 1)
    if (k === 0) sink.room(rest + (rest >> 5) + 3)
  }
  sink.write(']}}')
}

const ZERO = 0x30
const MINUS = 0x2d
const CLOSE_OBJECT = 0x7d
/** The longest text of one value: a double's shortest form (ECMA-262 Number::toString) is at most
 * 17 digits, a sign, a point and an exponent `e-324`, 25 characters. */
const valueBytes = 32

/** Per reader list (shared across calls, src/resources/metrics/read.ts): each value's `,"key":` and
 * the values of a slice without data, `"key":0,…}}`, as UTF-8; whether some value reads the
 * `others` rows; and the most bytes a slice's values take. */
const layouts = new WeakMap<
  readonly Reader[],
  { keys: Uint8Array[]; zeros: Uint8Array; mixed: boolean; most: number }
>()

function layoutOf(readers: readonly Reader[]) {
  let layout = layouts.get(readers)
  if (!layout) {
    const keys = readers.map((r, j) => `${j ? ',' : ''}${text(r.key)}:`)
    const zeros = encoder.encode(`${keys.map((key) => `${key}0`).join('')}}}`)
    const encoded = keys.map((key) => encoder.encode(key))
    const most = encoded.reduce((n, key) => n + key.length + valueBytes, 2)
    const mixed = readers.some((r) => r.others)
    layouts.set(readers, (layout = { keys: encoded, zeros, mixed, most }))
  }
  return layout
}

/** Writes `JSON.stringify(readValue(reader, row))` (src/resources/metrics/read.ts) at `p`; answers
 * the index after it. `-0` is `0`, NaN and ±Infinity are `null` (ECMA-262 SerializeJSONProperty). */
function writeValue(buf: Uint8Array, p: number, reader: Reader, row: Row): number {
  const n = readRaw(reader, row)
  if (n === null) {
    buf[p] = ZERO
    return p + 1
  }
  if (reader.round) return ascii(buf, p, round3Json(n))
  if (Number.isSafeInteger(n)) return integer(buf, p, n) // counts: no string
  return ascii(buf, p, Number.isFinite(n) ? String(n) : 'null')
}

/** The decimal digits of a safe integer, as Number::toString writes them (`-0` as `0`). */
function integer(buf: Uint8Array, p: number, n: number): number {
  if (n < 0) {
    buf[p++] = MINUS
    n = -n
  }
  let end = p + 1
  for (let q = n; q >= 10; q = Math.floor(q / 10)) end++
  for (let k = end - 1; k >= p; k--) {
    buf[k] = ZERO + (n % 10)
    n = Math.floor(n / 10)
  }
  return end
}

/** Text known to be ASCII (a number's), byte by byte. */
function ascii(buf: Uint8Array, p: number, s: string): number {
  for (let k = 0; k < s.length; k++) buf[p + k] = s.charCodeAt(k)
  return p + s.length
}

function copy(buf: Uint8Array, p: number, bytes: Uint8Array): number {
  for (let k = 0; k < bytes.length; k++) buf[p + k] = bytes[k]!
  return p + bytes.length
}

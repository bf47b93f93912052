/**
 * @module http/render/json
 * V2 body → the UTF-8 bytes of its JSON text. Key order is the body's insertion order: the main key
 * first (hakamadare/rubygem-reliquary reads the first top-level value).
 */

/** Writes a body's JSON text into a sink: exactly `JSON.stringify(body)`, in pieces. */
export type JsonWriter = (sink: JsonSink) => void

/** Bodies that write their own JSON text, exactly `JSON.stringify(body)` but without walking it
 * (src/resources/metrics/json.ts: issue 16, large metric-data answers). Such a body is not changed after. */
const writers = new WeakMap<object, JsonWriter>()

export function withJsonWriter<T extends object>(body: T, write: JsonWriter): T {
  writers.set(body, write)
  return body
}

const encoder = new TextEncoder()

/**
 * The UTF-8 bytes of `JSON.stringify(body)`. A body with a writer writes them straight into one
 * buffer (issue 27: the largest metric-data answer, 3.5 MB, was a rope of pieces, then a flat copy
 * of it, then its bytes; now only its bytes). The answer is a view of that buffer: what the writer's
 * estimate left over (a few per cent) is never sent.
 */
export function renderJsonBytes(body: Record<string, unknown>): Uint8Array<ArrayBuffer> {
  const write = writers.get(body)
  if (!write) return encoder.encode(JSON.stringify(body))
  const out = new JsonSink()
  write(out)
  return out.bytes()
}

/**
 * Where a body that writes its own JSON puts its bytes: a growing buffer. Text goes in through
 * `TextEncoder#encodeInto` (WHATWG Encoding; Workers and Node); a hot loop writes `buffer` at `size`
 * itself, after `room` (issue 39: a metric's 100,000 small values as bytes, not as strings to join
 * and encode).
 */
export class JsonSink {
  // A small answer (a summarized call: a few hundred bytes) fits; a large one grows by `room`.
  buffer = new Uint8Array(1024)
  /** The bytes written so far: `buffer[0, size)`. */
  size = 0

  /** Any text, as UTF-8. */
  write(piece: string): void {
    let rest = piece
    for (;;) {
      const { read, written } = encoder.encodeInto(rest, this.buffer.subarray(this.size))
      this.size += written
      if (read === rest.length) return
      // Out of room: encodeInto stops before a character that does not fit, never inside one.
      rest = rest.slice(read)
      this.room(rest.length)
    }
  }

  /** Room for `bytes` more at `size` (`buffer` may then be a new array). A large answer's writer
   * asks once for what it expects the rest to take, so the buffer grows about once. */
  room(bytes: number): void {
    if (this.size + bytes <= this.buffer.length) return
    // At least a quarter more than now, so a run of misses copies little.
    const length = Math.max(this.size + bytes, this.buffer.length + (this.buffer.length >> 2))
    const next = new Uint8Array(length)
    next.set(this.buffer.subarray(0, this.size))
    this.buffer = next
  }

  bytes(): Uint8Array<ArrayBuffer> {
    return this.buffer.subarray(0, this.size)
  }
}

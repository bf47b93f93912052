/**
 * @module http/render/json
 * V2 body → the UTF-8 bytes of its JSON text. Key order is the body's insertion order: the main key
 * first (hakamadare/rubygem-reliquary reads the first top-level value).
 */

/** Where a body that writes its own JSON puts its text, piece by piece. */
export interface JsonSink {
  write(piece: string): void
  /** A hint: about `bytes` more are coming, so the sink can make room once instead of growing. */
  expect(bytes: number): void
}

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
 * The UTF-8 bytes of `JSON.stringify(body)`. A body with a writer is encoded piece by piece into one
 * buffer (issue 27: the largest metric-data answer, 3.5 MB, was a rope of pieces, then a flat copy
 * of it, then its bytes; now only its bytes). The answer is a view of that buffer: what the writer's
 * estimate left over (a few per cent) is never sent.
 */
export function renderJsonBytes(body: Record<string, unknown>): Uint8Array<ArrayBuffer> {
  const write = writers.get(body)
  if (!write) return encoder.encode(JSON.stringify(body))
  const out = new Utf8Buffer()
  write(out)
  return out.bytes()
}

/** A growing UTF-8 buffer filled by `TextEncoder#encodeInto` (WHATWG Encoding; Workers and Node). */
class Utf8Buffer implements JsonSink {
  // A small answer (a summarized call: a few hundred bytes) fits; a large one grows by `expect`.
  private buffer = new Uint8Array(1024)
  private size = 0

  write(piece: string): void {
    let rest = piece
    for (;;) {
      const { read, written } = encoder.encodeInto(rest, this.buffer.subarray(this.size))
      this.size += written
      if (read === rest.length) return
      // Out of room: encodeInto stops before a character that does not fit, never inside one.
      rest = rest.slice(read)
      this.grow(rest.length)
    }
  }

  expect(bytes: number): void {
    if (this.size + bytes > this.buffer.length) this.grow(bytes)
  }

  /** Room for `bytes` more: at least a quarter more than now, so a run of misses copies little. */
  private grow(bytes: number): void {
    const length = Math.max(this.size + bytes, this.buffer.length + (this.buffer.length >> 2))
    const next = new Uint8Array(length)
    next.set(this.buffer.subarray(0, this.size))
    this.buffer = next
  }

  bytes(): Uint8Array<ArrayBuffer> {
    return this.buffer.subarray(0, this.size)
  }
}

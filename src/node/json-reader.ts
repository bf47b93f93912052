/**
 * @module node/json-reader
 * `JSON.parse` of a body read in chunks as they arrive, so its whole text never exists at once (issue
 * 27: the largest NerdGraph answer, 3.6 MB, was held as its chunks, their concatenation and its text
 * before it was parsed). Objects outside arrays are read token by token; the elements of every array
 * (NerdGraph's NRQL `results` rows, its `errors`) are parsed by `JSON.parse` itself, in batches cut
 * at the commas between them, about one batch per chunk; where elements are objects, the cut is
 * found by the platform's byte search and proved by the parse (`guessCut`). The value is the one `JSON.parse` gives for
 * the whole body decoded as UTF-8 (ECMA-262 JSON.parse): same values and key order, `__proto__` an own
 * key, a later duplicate key winning; a body `JSON.parse` refuses throws a `SyntaxError`
 * (test/node/json-reader.test.ts holds the two to each other over random texts cut at random).
 */
import { isAscii } from 'node:buffer'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
/** What a batch's guessed end follows (`guessCut`): the last of its elements and the array's end, or
 * the comma before the next element. */
const CLOSE_AFTER_OBJECT = Buffer.from('}]')
const COMMA_BETWEEN_OBJECTS = Buffer.from('},{')

/** JSON's whitespace (RFC 8259 §2): space, tab, line feed, carriage return. */
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09

/** Spaces compared with a run of spaces at once, by the platform (`Buffer#compare`). */
const spaces = Buffer.alloc(4096, 0x20)

/**
 * Where the whitespace from `i` ends (or `to`). Past 64 bytes of it, spaces are skipped 4 KiB at a
 * time by the platform's comparison: a JSON body of 32 MiB of spaces, as a gzip bomb inflates to
 * (issue 40), took 28-45 ms of this thread scanned byte by byte, and 2-7 ms so.
 */
function spaceEnd(buf: Buffer, i: number, to: number): number {
  const from = i
  while (i < to && isSpace(buf[i]!)) {
    if (++i - from !== 64) continue
    while (
      to - i >= spaces.length &&
      buf.compare(spaces, 0, spaces.length, i, i + spaces.length) === 0
    )
      i += spaces.length
  }
  return i
}

/** A batch is parsed at the end of each chunk, or sooner once it holds this many bytes. */
const batchBytes = 64 * 1024

/** What the token reader expects next. */
const enum Want {
  Value,
  /** A key or `}`, just after `{`. */
  FirstKey,
  Key,
  Colon,
  /** `,` or `}`. */
  Next,
  Done,
}

/** An object being read token by token, and the key whose value comes next. */
interface ObjectFrame {
  object: Record<string, unknown>
  key: string
}

/** An array being read: its elements so far and the scanner's state past its current batch. */
interface ArrayState {
  array: unknown[]
  /** Brackets and braces open, the array's own included (1: between its elements). */
  depth: number
  inString: boolean
  escaped: boolean
  /** A batch was cut at a comma: every batch after it must hold an element. */
  cut: boolean
}

export class JsonReader {
  /** Unread bytes, from the start of the token or batch in progress, at `store[from, to)`. */
  private store: Buffer = Buffer.alloc(0)
  private from = 0
  private to = 0
  /** The store is the reader's own (it may append into its spare room), not a caller's chunk. */
  private owned = false
  /** Index in the store up to which the token or batch in progress was scanned. */
  private scanned = 0
  /** The last scan stopped just after a backslash inside a string. */
  private escaped = false
  private want = Want.Value
  private readonly objects: ObjectFrame[] = []
  private array: ArrayState | undefined
  private result: unknown
  private failed: SyntaxError | undefined
  /** How many bytes after the current batch's start the last guess of its end saw (`guessCut`);
   * 0: none yet. */
  private guessed = 0
  /** Long string values seen in array elements, each kept once (`shared`). */
  private readonly strings = new Map<string, string>()

  /** Reads one chunk; throws a `SyntaxError` as soon as the text cannot be JSON. */
  push(chunk: Uint8Array): void {
    if (this.failed) throw this.failed
    if (chunk.byteLength === 0) return
    this.append(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
    this.guarded(false)
  }

  /** The value, once every chunk is in. */
  end(): unknown {
    if (this.failed) throw this.failed
    this.guarded(true)
    if (this.want !== Want.Done)
      throw (this.failed = new SyntaxError('Unexpected end of JSON input'))
    return this.result
  }

  private guarded(last: boolean): void {
    try {
      this.read(last)
    } catch (err) {
      throw (this.failed = err instanceof SyntaxError ? err : new SyntaxError(String(err)))
    }
  }

  /** Adds a chunk after the unread bytes. A chunk read at once is not copied; otherwise the unread
   * bytes and the chunk share one store, reused from chunk to chunk and grown by doubling, so a long
   * element costs linear time. */
  private append(bytes: Buffer): void {
    const unread = this.to - this.from
    if (unread === 0) {
      this.scanned -= this.from
      this.store = bytes
      this.from = 0
      this.to = bytes.length
      this.owned = false
      return
    }
    if (this.owned && unread + bytes.length <= this.store.length) {
      // Room in the store: the unread bytes move to its front if the chunk does not fit after them.
      if (this.to + bytes.length > this.store.length) {
        this.store.copyWithin(0, this.from, this.to)
        this.scanned -= this.from
        this.from = 0
        this.to = unread
      }
      bytes.copy(this.store, this.to)
      this.to += bytes.length
      return
    }
    const store = Buffer.allocUnsafe(Math.max(2 * (unread + bytes.length), 16 * 1024))
    this.store.copy(store, 0, this.from, this.to)
    bytes.copy(store, unread)
    this.scanned -= this.from
    this.store = store
    this.from = 0
    this.to = unread + bytes.length
    this.owned = true
  }

  /** Consumes what the store holds; `last`: no more bytes will come. */
  private read(last: boolean): void {
    const buf = this.store
    const to = this.to
    let i = this.from
    for (;;) {
      if (this.array) {
        const next = this.readArray(buf, i, last)
        if (next < 0) return this.keep(i)
        i = next
        continue
      }
      i = spaceEnd(buf, i, to)
      if (i === to) return this.keep(i)
      const b = buf[i]!
      const want = this.want
      if (want === Want.Done)
        throw new SyntaxError('Unexpected non-whitespace character after JSON')
      if (want === Want.Colon) {
        if (b !== COLON) throw unexpected(b)
        this.want = Want.Value
        i++
      } else if (want === Want.Next || (want === Want.FirstKey && b === CLOSE_OBJECT)) {
        if (b === COMMA) this.want = Want.Key
        else if (b === CLOSE_OBJECT) this.settle(this.objects.pop()!.object)
        else throw unexpected(b)
        i++
      } else if (want !== Want.Value) {
        // A key.
        if (b !== QUOTE) throw unexpected(b)
        const end = this.stringEnd(buf, i)
        if (end < 0) return this.keep(i)
        this.objects[this.objects.length - 1]!.key = parse(buf, i, end) as string
        this.want = Want.Colon
        i = end
      } else if (b === OPEN_OBJECT) {
        this.objects.push({ object: {}, key: '' })
        this.want = Want.FirstKey
        i++
      } else if (b === OPEN_ARRAY) {
        this.array = { array: [], depth: 1, inString: false, escaped: false, cut: false }
        i++
        this.scanned = i
      } else {
        const end = b === QUOTE ? this.stringEnd(buf, i) : scalarEnd(buf, i, to, last)
        if (end < 0) return this.keep(i)
        this.settle(parse(buf, i, end))
        i = end
      }
    }
  }

  /**
   * Scans the current array from where the last scan stopped. Parses the batch that starts at
   * `start` up to its last comma at the end of the bytes, once it holds `batchBytes`, or at the
   * array's `]`. Answers where reading goes on, or -1 when the rest waits for more bytes.
   */
  private readArray(buf: Buffer, start: number, last: boolean): number {
    const state = this.array!
    const to = this.to
    // Guessed again only once the bytes after `start` have doubled, so a batch the guess misses
    // (an element longer than a chunk, bytes arriving a few at a time) costs at most twice its bytes.
    const end = Math.min(to, start + batchBytes)
    if (end - start >= 2 * this.guessed) {
      const next = this.guessCut(state, buf, start, end)
      if (next >= 0) return next
      this.guessed = end - start
    }
    let { depth, inString, escaped } = state
    let comma = -1
    let i = Math.max(this.scanned, start)
    for (; i < to; i++) {
      const b = buf[i]!
      if (inString) {
        if (escaped) escaped = false
        else if (b === BACKSLASH) escaped = true
        else if (b === QUOTE) inString = false
      } else if (b === QUOTE) inString = true
      else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++
      else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        if (--depth === 0) break
      } else if (b === COMMA && depth === 1) {
        comma = i
        if (i - start >= batchBytes) break
      }
    }
    if (depth === 0) {
      if (buf[i] !== CLOSE_ARRAY) throw unexpected(buf[i]!)
      this.batch(state, buf, start, i, true)
      this.array = undefined
      this.scanned = 0
      this.settle(state.array)
      return i + 1
    }
    if (comma >= 0) {
      // Cut at the comma: the scan state is the one between elements; what was scanned past it
      // (to the end of the bytes) is scanned again with the next batch, at most one element.
      this.batch(state, buf, start, comma, false)
      Object.assign(state, { depth: 1, inString: false, escaped: false })
      this.scanned = comma + 1
      return comma + 1
    }
    if (last) throw new SyntaxError('Unexpected end of JSON input')
    Object.assign(state, { depth, inString, escaped })
    this.scanned = to
    return -1
  }

  /**
   * The cut a byte scan would find, found by the platform's byte search instead (issue 39: scanning
   * every byte in JavaScript cost as much as parsing them): between elements that are objects, a
   * batch ends at the array's first `}]` or at its last `},{` in `buf[start, end)`. A guess is kept
   * only if `JSON.parse` reads the batch: the bytes before a `]` or `,` inside a string or deeper in
   * an element are never a list of whole JSON values, since a proper prefix of an object, an array
   * or a string is not JSON; and past the array's own `]` the batch would close it and go on. So a
   * kept guess is the scan's cut; any other is dropped, and the scan reads the batch, its errors
   * included. Answers where reading goes on, or -1 when nothing was kept.
   */
  private guessCut(state: ArrayState, buf: Buffer, start: number, end: number): number {
    const bytes = buf.subarray(start, end)
    const close = start + bytes.indexOf(CLOSE_AFTER_OBJECT)
    if (close >= start && this.tryBatch(state, buf, start, close + 1, true)) {
      this.array = undefined
      this.scanned = 0
      this.settle(state.array)
      return close + 2
    }
    const comma = start + bytes.lastIndexOf(COMMA_BETWEEN_OBJECTS)
    if (comma >= start && this.tryBatch(state, buf, start, comma + 1, false)) {
      Object.assign(state, { depth: 1, inString: false, escaped: false })
      this.scanned = comma + 2
      return comma + 2
    }
    return -1
  }

  /** `batch` if `buf[start, end)` holds whole elements; false, with nothing read, if not. */
  private tryBatch(state: ArrayState, buf: Buffer, start: number, end: number, closing: boolean) {
    let elements: unknown[]
    try {
      elements = JSON.parse(`[${decode(buf, start, end)}]`) as unknown[]
    } catch {
      return false
    }
    this.add(state, elements, closing)
    return true
  }

  /** Parses the elements in `buf[start, end)` into the array. */
  private batch(state: ArrayState, buf: Buffer, start: number, end: number, closing: boolean) {
    this.add(state, JSON.parse(`[${decode(buf, start, end)}]`) as unknown[], closing)
  }

  private add(state: ArrayState, elements: unknown[], closing: boolean) {
    this.guessed = 0
    // `[1,]`, `[,1]` and `[1,,2]`, cut at their commas, show as a batch without an element.
    if (elements.length === 0 && (state.cut || !closing))
      throw new SyntaxError('Unexpected token , in JSON')
    if (!closing) state.cut = true
    const array = state.array
    for (let k = 0; k < elements.length; k++) array.push(this.shared(elements[k]))
  }

  /**
   * An array's object element with its long string values shared with the elements before it:
   * `JSON.parse` gives every value a string of its own, and NRQL repeats each facet's name in every
   * time bucket's row (twice: `facet` and the attribute's own name), a third of the largest answer's
   * parsed size. Same values, same keys in the same order.
   */
  private shared(element: unknown): unknown {
    if (element === null || typeof element !== 'object' || Array.isArray(element)) return element
    const row = element as Record<string, unknown>
    for (const key in row) {
      const value = row[key]
      if (typeof value !== 'string' || value.length < 16) continue
      const seen = this.strings.get(value)
      if (seen !== undefined) row[key] = seen
      else if (this.strings.size < 100_000) this.strings.set(value, value)
    }
    return row
  }

  /** A value is complete: it is the current key's, or the document's. */
  private settle(value: unknown): void {
    const top = this.objects[this.objects.length - 1]
    if (top === undefined) {
      this.result = value
      this.want = Want.Done
      return
    }
    const { object, key } = top
    // `JSON.parse` makes `__proto__` an own property (CreateDataProperty), never the prototype.
    if (key === '__proto__')
      Object.defineProperty(object, key, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      })
    else object[key] = value
    this.want = Want.Next
  }

  /** The unread bytes start at `i`, the start of the token or batch in progress. */
  private keep(i: number): void {
    this.from = i
    if (i === this.to && !this.owned) {
      // Nothing unread: let go of the caller's chunk.
      this.store = Buffer.alloc(0)
      this.scanned = this.from = this.to = 0
    }
  }

  /** The index after the closing quote of the string opening at `open`; -1 if it goes on in the
   * next chunk (the scan then resumes where it stopped, not at the quote). */
  private stringEnd(buf: Buffer, open: number): number {
    let i = this.scanned > open ? this.scanned : open + 1
    let escaped = this.scanned > open && this.escaped
    for (; i < this.to; i++) {
      const b = buf[i]!
      if (escaped) escaped = false
      else if (b === BACKSLASH) escaped = true
      else if (b === QUOTE) {
        this.scanned = 0
        return i + 1
      }
    }
    this.scanned = i
    this.escaped = escaped
    return -1
  }
}

/** The end of a number or literal: the next delimiter; -1 if its bytes may go on in the next chunk. */
function scalarEnd(buf: Buffer, from: number, to: number, last: boolean): number {
  for (let i = from; i < to; i++) {
    const b = buf[i]!
    if (b === COMMA || b === CLOSE_OBJECT || b === CLOSE_ARRAY || isSpace(b)) return i
  }
  return last ? to : -1
}

function parse(buf: Buffer, start: number, end: number): unknown {
  return JSON.parse(decode(buf, start, end))
}

/** Bytes as UTF-8 text; ASCII, most of NerdGraph's JSON, as Latin-1, a third of the cost. Cuts fall
 * on ASCII punctuation, so no character is split. */
function decode(buf: Buffer, start: number, end: number): string {
  return buf.toString(isAscii(buf.subarray(start, end)) ? 'latin1' : 'utf8', start, end)
}

function unexpected(b: number): SyntaxError {
  return new SyntaxError(`Unexpected token ${String.fromCharCode(b)} in JSON`)
}

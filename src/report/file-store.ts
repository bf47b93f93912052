/**
 * @module report/file-store
 * The migration report in a file (Node, `REPORT_FILE`), so it survives restarts. The file holds
 * aggregates, never a log of calls: one JSON line per key, `{"k": fingerprint, "e": [entries]}`, the
 * last line of a key winning. Keys touched since the last write are appended at most once a
 * second; once the appended lines outgrow the last full write, the file is rewritten from memory
 * (to a temporary file, then renamed), a key at a time between turns of the event loop. So its size
 * stays within about twice the report's bounds (src/report/entries.ts), and a start reads at most
 * `maxFileBytes` of it, from its end. Lines of the earlier one-line-per-call form (`{"k", "c"}`) are
 * read as calls and compacted at the first write.
 */
import { closeSync, mkdirSync, openSync, readSync, fstatSync } from 'node:fs'
import { open, rename } from 'node:fs/promises'
import { dirname } from 'node:path'
import { bounds, entriesBytes, type CallEvent, type ReportEntry } from './entries'
import { MemoryStore, type ReportStore } from './store'

/** The most a start reads: the report's byte bound is counted in UTF-16 code units, its JSON is
 * about half that, and the file may hold up to twice its aggregates before it is rewritten. */
export const maxFileBytes = bounds.bytes + 4 * 2 ** 20

const writeEveryMs = 1000

/** The memory store with what writing and reading the file needs. */
class FileMemory extends MemoryStore {
  /** Every key's entries, least recently seen first. */
  *snapshot(): Iterable<[string, ReportEntry[]]> {
    for (const [keyHash, report] of this.byKey) yield [keyHash, [...report.entries.values()]]
  }

  /** A key's entries as held (not a copy). */
  peek(keyHash: string): Iterable<ReportEntry> | undefined {
    return this.byKey.get(keyHash)?.entries.values()
  }

  /** Puts back a key's entries as the file held them (bounded by `restore`). */
  put(keyHash: string, entries: Map<string, ReportEntry>, bytes: number): void {
    const report = this.touch(keyHash)
    this.total += bytes - report.bytes
    report.entries = entries
    report.bytes = bytes
    this.evict()
  }
}

interface Line {
  k: string
  e?: unknown
  c?: CallEvent
}

export function fileStore(path: string): ReportStore & { flushed(): Promise<void> } {
  const memory = new FileMemory()
  mkdirSync(dirname(path), { recursive: true })
  const legacy = load(path, memory)

  const touched = new Set<string>()
  let appended = 0
  let lastFull = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let writing: Promise<void> = Promise.resolve()
  let warned = false
  const warn = (err: unknown) => {
    if (warned) return
    warned = true
    console.error(`[v2bridge] REPORT_FILE ${path}: ${(err as Error).message}`)
  }

  const lineOf = (keyHash: string, entries: ReportEntry[]) =>
    `${JSON.stringify({ k: keyHash, e: entries } satisfies Line)}\n`

  async function appendTouched() {
    const keys = [...touched]
    touched.clear()
    const lines = keys.map((k) => lineOf(k, [...(memory.peek(k) ?? [])])).join('')
    const file = await open(path, 'a')
    try {
      await file.write(lines)
    } finally {
      await file.close()
    }
    appended += Buffer.byteLength(lines)
  }

  /** Rewrites the whole file from memory, yielding to the event loop between keys. */
  async function rewrite() {
    touched.clear()
    const temporary = `${path}.tmp`
    const file = await open(temporary, 'w')
    let bytes = 0
    try {
      let since = performance.now()
      for (const [keyHash, entries] of memory.snapshot()) {
        const line = lineOf(keyHash, entries)
        bytes += Buffer.byteLength(line)
        await file.write(line)
        if (performance.now() - since > 10) {
          await new Promise((done) => setImmediate(done))
          since = performance.now()
        }
      }
    } finally {
      await file.close()
    }
    await rename(temporary, path)
    lastFull = bytes
    appended = 0
  }

  const write = () => {
    timer = undefined
    const full = legacy.found || appended > Math.max(lastFull, 4 * 2 ** 20)
    legacy.found = false
    writing = writing.then(() => (full ? rewrite() : appendTouched())).catch(warn)
  }
  if (legacy.found) write()

  return {
    record(keyHash, call) {
      memory.record(keyHash, call)
      touched.add(keyHash)
      timer ??= setTimeout(write, writeEveryMs).unref()
    },
    read: (keyHash) => memory.read(keyHash),
    all: () => memory.all(),
    // Compare mode's aggregates stay in memory: a restart learns them again.
    compared: (keyHash, outcome) => memory.compared(keyHash, outcome),
    verification: (keyHash) => memory.verification(keyHash),
    flushed: async () => {
      if (timer) {
        clearTimeout(timer)
        write()
      }
      await writing
    },
  }
}

/** Reads the file's last `maxFileBytes` into `memory`, a chunk at a time (never one string of the
 * whole file); a torn or foreign line is skipped. */
function load(path: string, memory: FileMemory): { found: boolean } {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { found: false }
    throw err
  }
  const legacy = { found: false }
  try {
    const size = fstatSync(fd).size
    let position = Math.max(0, size - maxFileBytes)
    let rest = ''
    let skipFirst = position > 0 // the first line read is likely cut
    const chunk = Buffer.alloc(1024 * 1024)
    const decoder = new TextDecoder()
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, position)
      position += read
      const text = rest + decoder.decode(chunk.subarray(0, read), { stream: read > 0 })
      const lines = text.split('\n')
      rest = read > 0 ? lines.pop()! : ''
      for (const raw of lines) {
        if (skipFirst) {
          skipFirst = false
          continue
        }
        loadLine(raw, memory, legacy)
      }
      if (read === 0) break
    }
  } finally {
    closeSync(fd)
  }
  return legacy
}

function loadLine(raw: string, memory: FileMemory, legacy: { found: boolean }) {
  if (!raw.trim()) return
  let line: Line
  try {
    line = JSON.parse(raw) as Line
  } catch {
    return // a torn last line (crash mid-write)
  }
  if (typeof line?.k !== 'string' || line.k.length > 128) return
  if (Array.isArray(line.e)) restore(memory, line.k, line.e.filter(isEntry))
  else if (line.c && typeof line.c === 'object') {
    legacy.found = true
    memory.record(line.k, line.c)
  }
}

const isStringList = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string')

function isEntry(e: unknown): e is ReportEntry {
  if (e === null || typeof e !== 'object') return false
  const r = e as Record<string, unknown>
  return (
    typeof r['method'] === 'string' &&
    typeof r['path'] === 'string' &&
    typeof r['client'] === 'string' &&
    [r['count'], r['errors'], r['firstSeen'], r['lastSeen']].every(Number.isFinite) &&
    isStringList(r['parameters']) &&
    isStringList(r['metricNames']) &&
    isStringList(r['valueTypes']) &&
    Array.isArray(r['documents'])
  )
}

/** Puts back a key's entries as the file held them, cut to the bounds a recorded key has. */
function restore(memory: FileMemory, keyHash: string, entries: ReportEntry[]) {
  const kept = new Map<string, ReportEntry>()
  let bytes = 0
  for (const e of entries) {
    if (kept.size >= bounds.entriesPerKey) break
    const bounded = boundedEntry(e)
    const size = entriesBytes([bounded])
    if (bytes + size > bounds.bytesPerKey) break
    kept.set(`${e.method} ${e.path} ${e.client}`, bounded)
    bytes += size
  }
  memory.put(keyHash, kept, bytes)
}

/** An entry read back from a file, cut to the bounds a recorded one has. */
function boundedEntry(e: ReportEntry): ReportEntry {
  const names = (list: string[]) =>
    list.slice(0, bounds.namesPerEntry).map((n) => n.slice(0, bounds.nameLength))
  return {
    ...e,
    parameters: names(e.parameters),
    metricNames: names(e.metricNames),
    valueTypes: names(e.valueTypes),
  }
}

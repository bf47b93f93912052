/**
 * @module report/file-store
 * The migration report in a JSONL file (Node, `REPORT_FILE`): one line per call, replayed into the
 * memory store at start so the report survives restarts. Lines are appended in batches off the
 * request path; a failed write is reported once on stderr and the report carries on in memory.
 */
import { appendFile, mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { CallEvent } from './entries'
import { memoryStore, type ReportStore } from './store'

interface Line {
  k: string
  c: CallEvent
}

export function fileStore(path: string): ReportStore & { flushed(): Promise<void> } {
  const memory = memoryStore()
  mkdirSync(dirname(path), { recursive: true })
  let text = ''
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue
    try {
      const line = JSON.parse(raw) as Line
      memory.load(line.k, line.c)
    } catch {
      // A torn last line (crash mid-write) is skipped.
    }
  }

  let pending: string[] = []
  let writing: Promise<void> = Promise.resolve()
  let warned = false
  const flush = () => {
    const chunk = pending.join('')
    pending = []
    writing = writing.then(
      () =>
        new Promise<void>((done) =>
          appendFile(path, chunk, (err) => {
            if (err && !warned) {
              warned = true
              console.error(`[v2bridge] REPORT_FILE ${path}: ${err.message}`)
            }
            done()
          })
        )
    )
  }

  return {
    record(keyHash, call) {
      memory.record(keyHash, call)
      if (pending.length === 0) setImmediate(flush)
      pending.push(JSON.stringify({ k: keyHash, c: call } satisfies Line) + '\n')
    },
    read: (keyHash) => memory.read(keyHash),
    flushed: () => new Promise<void>((done) => setImmediate(() => writing.then(done))),
  }
}

import {
  appendFileSync,
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { clientFamily } from '../../mappings/client-families'
import {
  addCall,
  bounds,
  maskNrql,
  type CallEvent,
  type ReportEntry,
} from '../../src/report/entries'
import { fileStore, maxFileBytes } from '../../src/report/file-store'
import { memoryStore } from '../../src/report/store'

const call = (over: Partial<CallEvent> = {}): CallEvent => ({
  at: 1_700_000_000_000,
  method: 'GET',
  path: '/v2/applications',
  status: 200,
  parameters: ['filter[name]'],
  metricNames: [],
  valueTypes: [],
  client: 'curl',
  documents: [],
  ...over,
})

/** The entry one call makes. */
function entryOf(c: CallEvent): ReportEntry {
  const entries = new Map<string, ReportEntry>()
  addCall(entries, c)
  return [...entries.values()][0]!
}

const saved = { ...bounds }
afterEach(() => Object.assign(bounds, saved))

describe('report entries', () => {
  it('count calls per operation and client, with first and last seen and errors', () => {
    const entries = new Map<string, ReportEntry>()
    addCall(entries, call({ at: 5 }))
    addCall(entries, call({ at: 3, status: 404, parameters: ['page'] }))
    addCall(entries, call({ client: 'Go' }))
    expect([...entries.values()].map((e) => [e.client, e.count, e.errors])).toEqual([
      ['curl', 2, 1],
      ['Go', 1, 0],
    ])
    const curl = [...entries.values()][0]!
    expect([curl.firstSeen, curl.lastSeen, curl.parameters]).toEqual([
      3,
      5,
      ['filter[name]', 'page'],
    ])
  })

  it('stay within their bounds: entries per key, names per entry, keys in memory', async () => {
    Object.assign(bounds, { entriesPerKey: 2, namesPerEntry: 3, keys: 2 })
    const entries = new Map<string, ReportEntry>()
    for (const client of ['a', 'b', 'c']) addCall(entries, call({ client }))
    expect(entries.size).toBe(2)
    addCall(entries, call({ client: 'a', metricNames: ['m1', 'm2', 'm3', 'm4'] }))
    expect(entries.get('GET /v2/applications a')!.metricNames).toEqual(['m1', 'm2', 'm3'])

    const store = memoryStore()
    for (const key of ['k1', 'k2', 'k3']) store.record(key, call())
    expect(await store.read('k1')).toEqual([])
    expect(await store.read('k3')).toHaveLength(1)
  })

  it('mask every literal of an NRQL string', () => {
    expect(
      maskNrql(
        "SELECT count(x) FROM Metric WHERE appId = 123 AND name = 'it''s' SINCE 1700000000000"
      )
    ).toBe("SELECT count(x) FROM Metric WHERE appId = ? AND name = '?''?' SINCE ?")
  })
})

describe('the report file', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'v2bridge-report-'))

  it('keeps the report across restarts as one line per key, and skips a torn line', async () => {
    const path = join(dir(), 'sub', 'report.jsonl')
    const first = fileStore(path)
    first.record('k1', call({ at: 1 }))
    first.record('k1', call({ at: 2 }))
    first.record('k2', call({ path: '/v2/applications/{id}' }))
    await first.flushed()
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2)
    appendFileSync(path, '{"k":"k1","e":[{"method"')

    const second = fileStore(path)
    const k1 = await second.read('k1')
    expect(k1.map((e) => [e.path, e.count, e.firstSeen, e.lastSeen])).toEqual([
      ['/v2/applications', 2, 1, 2],
    ])
    expect((await second.read('k2')).map((e) => e.path)).toEqual(['/v2/applications/{id}'])
  })

  it('stays the size of its aggregates however many calls it records (issue 22, item 3)', async () => {
    const path = join(dir(), 'report.jsonl')
    const store = fileStore(path)
    for (let i = 0; i < 5_000; i++) store.record('k1', call({ at: i }))
    await store.flushed()
    for (let i = 0; i < 5_000; i++) store.record('k1', call({ at: i }))
    await store.flushed()
    const size = statSync(path).size
    expect(size).toBeLessThan(2_000)
    expect((await fileStore(path).read('k1'))[0]!.count).toBe(10_000)
  })

  it('compacts a file of the one-line-per-call form at start', async () => {
    const path = join(dir(), 'report.jsonl')
    const line = JSON.stringify({ k: 'k1', c: call() })
    writeFileSync(path, `${line}\n`.repeat(20_000))
    const started = performance.now()
    const store = fileStore(path)
    expect(performance.now() - started).toBeLessThan(5000) // a regression guard: one line at a time, not a timing target
    await store.flushed()
    expect((await store.read('k1'))[0]!.count).toBe(20_000)
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(1)
  })

  it('reads only the end of a file past its bound, so a start stays short', async () => {
    const path = join(dir(), 'report.jsonl')
    const names = Array.from({ length: 50 }, (_, i) => `Custom/metric/${i}`)
    const filler = `${JSON.stringify({ k: 'old', e: [entryOf(call({ metricNames: names }))] })}\n`
    const fd = openSync(path, 'w')
    // A key at the very start, past the bound from the end: never read.
    writeSync(fd, `${JSON.stringify({ k: 'head', e: [entryOf(call())] })}\n`)
    const block = filler.repeat(Math.ceil((4 * 2 ** 20) / filler.length))
    for (let written = 0; written < maxFileBytes + 8 * 2 ** 20; written += block.length)
      writeSync(fd, block)
    writeSync(fd, `${JSON.stringify({ k: 'k9', e: [{ ...entryOf(call()), count: 7 }] })}\n`)
    closeSync(fd)
    const store = fileStore(path)
    expect((await store.read('k9'))[0]!.count).toBe(7)
    expect(await store.read('head')).toEqual([])
  })
})

describe('report bounds in bytes', () => {
  it('caps one key in bytes and evicts the least recently seen key past the overall bound', async () => {
    Object.assign(bounds, { bytesPerKey: 4_000, bytes: 10_000 })
    const store = memoryStore()
    const names = Array.from({ length: 200 }, (_, i) => `Custom/metric/${i}`)
    store.record(
      'k1',
      call({ metricNames: names, path: '/v2/applications/{application_id}/metrics/data' })
    )
    const [entry] = await store.read('k1')
    expect(entry!.metricNames.length).toBeGreaterThan(10)
    expect(entry!.metricNames.length).toBeLessThan(200)
    expect(store.size().bytes).toBeLessThanOrEqual(4_000)
    for (const k of ['k2', 'k3', 'k4']) store.record(k, call({ metricNames: names }))
    expect(store.size().bytes).toBeLessThanOrEqual(10_000)
    expect(await store.read('k1')).toEqual([])
    expect(await store.read('k4')).toHaveLength(1)
  })
})

describe('client families', () => {
  it.each([
    ['newrelic/newrelic-client-go/2.0.0 (go1.21)', 'newrelic-client-go'],
    ['Terraform/1.6.0 (+https://www.terraform.io)', 'Terraform'],
    ['python-requests/2.31.0', 'Python'],
    ['curl/8.5.0', 'curl'],
    ['Go-http-client/1.1', 'Go'],
    ['Mozilla/5.0 (X11; Linux x86_64)', 'Browser'],
    ['MyTool/1.0', 'other'],
    [undefined, 'unknown'],
  ])('reads %s as %s', (ua, family) => {
    expect(clientFamily(ua)).toBe(family)
  })
})

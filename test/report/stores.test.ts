import { mkdtempSync, readFileSync, appendFileSync } from 'node:fs'
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
import { fileStore } from '../../src/report/file-store'
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

describe('the JSONL report file', () => {
  it('keeps the report across restarts and skips a torn line', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'v2bridge-report-')), 'sub', 'report.jsonl')
    const first = fileStore(path)
    first.record('k1', call({ at: 1 }))
    first.record('k1', call({ at: 2 }))
    first.record('k2', call({ path: '/v2/applications/{id}' }))
    await first.flushed()
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(3)
    appendFileSync(path, '{"k":"k1","c":{"at"')

    const second = fileStore(path)
    const k1 = await second.read('k1')
    expect(k1.map((e) => [e.path, e.count, e.firstSeen, e.lastSeen])).toEqual([
      ['/v2/applications', 2, 1, 2],
    ])
    expect((await second.read('k2')).map((e) => e.path)).toEqual(['/v2/applications/{id}'])
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

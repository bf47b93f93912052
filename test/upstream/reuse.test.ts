/** Which reads src/upstream/reuse.ts shares, and its bounds: pure, on a fixed clock. */
import { describe, expect, it } from 'vitest'
import { createSharedReads } from '../../src/upstream/reuse'
import { nrqlDocument } from '../../src/upstream/nrql-document'
import { metricDataDocument } from '../../src/resources/metrics/documents'
import { keyCheckDocument } from '../../src/upstream/key-check'

const t = Date.UTC(2026, 0, 1, 12, 0, 30)
const metric = (until: number, tail = '') =>
  `SELECT count(newrelic.timeslice.value) FROM Metric WHERE metricTimesliceName IN ('a') SINCE ${until - 60_000} UNTIL ${until}${tail}`

describe('createSharedReads', () => {
  const reuse = createSharedReads()
  it('shares NRQL-only documents of one account over Metric windows, nothing else', () => {
    expect(reuse.accountOf(nrqlDocument, { accountId: 7, nrql: metric(t) })).toBe(7)
    const data = metricDataDocument(1, 1)
    const vars = { accountId: 7, timeout: 30, q0: metric(t, ' LIMIT MAX'), k0: metric(t) }
    expect(reuse.accountOf(data, vars)).toBe(7)
    expect(reuse.accountOf(keyCheckDocument, { accountId: 7 })).toBeUndefined()
    const mixed = nrqlDocument.replace('actor {', 'actor { user { id } ')
    expect(reuse.accountOf(mixed, { accountId: 7, nrql: metric(t) })).toBeUndefined()
    for (const nrql of [
      metric(t).replace('FROM Metric', 'FROM Deployment'),
      'SELECT count(*) FROM Metric WHERE a = 1 SINCE 5 minutes ago',
      // a caller's text cannot pose as the window: it sits inside quotes, before the real one
      `SELECT count(*) FROM Metric WHERE n = ' SINCE 1 UNTIL 2' SINCE 5 minutes ago`,
    ])
      expect(reuse.accountOf(nrqlDocument, { accountId: 7, nrql })).toBeUndefined()
  })

  it('keeps a proof per key and account for proofMs, and answers within maxBytes', () => {
    const small = createSharedReads({ proofMs: 1000, maxBytes: 8000 })
    small.proved('k', 7, t)
    expect(small.mayRead('k', 7, t + 999)).toBe(true)
    expect(small.mayRead('k', 7, t + 1000)).toBe(false)
    expect(small.mayRead('k', 8, t)).toBe(false)
    expect(small.mayRead('j', 7, t)).toBe(false)
    const vars = { accountId: 7, nrql: metric(t - 30_000) } // closed: ended at the minute
    for (let i = 0; i < 100; i++) small.set(`id${i}`, { rows: [i] }, vars, t)
    expect(small.snapshot().bytes).toBeLessThanOrEqual(8000)
    expect(small.get('id99', t)).toEqual({ rows: [99] })
    expect(small.get('id0', t)).toBeUndefined()
  })

  it('keeps a settled window for closedMs, a just-closed one for recentMs, an open one for openMs', () => {
    const r = createSharedReads({
      closedMs: 3_600_000,
      settleMs: 180_000,
      recentMs: 60_000,
      openMs: 5_000,
    })
    const at = (until: number) => ({ accountId: 7, nrql: metric(until) })
    const minuteStart = t - 30_000 // t is 30 s into its minute
    r.set('settled', 1, at(minuteStart - 180_000), t)
    r.set('recent', 2, at(minuteStart), t)
    r.set('open', 3, at(minuteStart + 60_000), t)
    expect([r.get('settled', t), r.get('recent', t), r.get('open', t)]).toEqual([1, 2, 3])
    expect(r.get('open', t + 5_000)).toBeUndefined()
    expect(r.get('recent', t + 59_999)).toBe(2)
    expect(r.get('recent', t + 60_000)).toBeUndefined()
    expect(r.get('settled', t + 3_599_999)).toBe(1)
    expect(r.get('settled', t + 3_600_000)).toBeUndefined()
  })

  it('keeps no answer over a 32nd of maxBytes, and keeps a copy of what it keeps', () => {
    const r = createSharedReads({ maxBytes: 32 * 1000 })
    const vars = { accountId: 7, nrql: metric(t - 30_000) }
    r.set('big', { rows: Array.from({ length: 100 }, (_, i) => ({ n: i })) }, vars, t)
    expect(r.get('big', t)).toBeUndefined()
    const small = { rows: [1] }
    r.set('small', small, vars, t)
    small.rows.push(2) // the caller reshapes its answer: the kept one stays as NerdGraph sent it
    expect(r.get('small', t)).toEqual({ rows: [1] })
  })
})

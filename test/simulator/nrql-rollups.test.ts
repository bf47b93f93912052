import { describe, expect, it } from 'vitest'
import { createDataset } from '../../simulator/data/create-dataset'
import { runNrql } from '../../simulator/nrql'
import { rollupOf } from '../../simulator/nrql/window'
import { DEFAULT_RETENTION } from '../../simulator/types'
import { ArrayStore } from './fixtures/rows'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
/** Fixed clock: 2023-12-22T01:00:30Z. */
const NOW = Date.UTC(2023, 11, 22, 1, 0, 30)
const at = (iso: string) => Date.parse(iso)

function windowOf(nrql: string, now = NOW) {
  const store = new ArrayStore([])
  const result = runNrql(nrql, { accountId: 1, store, now })
  return { ...result.metadata.timeWindow, hint: store.hints[0]! }
}

describe('Metric window snapping (New Relic docs "Set a query\'s time range")', () => {
  it('snaps the docs example, 47 h 59 min, to 5-minute edges', () => {
    const w = windowOf(
      `SELECT count(*) FROM Metric SINCE ${at('2023-12-20T00:04Z')} UNTIL ${at('2023-12-22T00:03Z')}`
    )
    expect([w.begin, w.end]).toEqual([at('2023-12-20T00:00Z'), at('2023-12-22T00:00Z')])
    expect(w.hint).toMatchObject({ since: w.begin, until: w.end, rollupMs: 5 * MINUTE })
  })

  it('keeps one-minute edges up to 6 hours ([UNKNOWN] switch) and hourly ones past 8 days', () => {
    const short = windowOf(
      `SELECT count(*) FROM Metric SINCE ${at('2023-12-21T19:04Z')} UNTIL ${at('2023-12-22T01:03Z')}`
    )
    expect([short.begin, short.end]).toEqual([at('2023-12-21T19:04Z'), at('2023-12-22T01:03Z')])
    // 10 days ago: only hourly rollups are kept, so the window snaps to hours
    const old = windowOf(
      `SELECT count(*) FROM Metric SINCE ${NOW - 10 * DAY - 7 * MINUTE} UNTIL ${NOW - 10 * DAY + 2 * HOUR}`
    )
    expect([old.begin, old.end]).toEqual([
      at('2023-12-12T00:00Z'),
      at('2023-12-12T03:00Z'), // 00:53:30 → 00:00, 03:00:30 → 03:00
    ])
    expect(old.hint.rollupMs).toBe(HOUR)
    expect(
      rollupOf(NOW - 8 * DAY - HOUR, NOW, NOW, { ...DEFAULT_RETENTION, minuteMs: 9 * DAY })
    ).toBe(5 * MINUTE)
  })

  it('bases TIMESERIES buckets on the end of the window (docs example by 5 minutes)', () => {
    // the docs' 00:04:59 → 00:03:12 runs on an event type; on Metric the window snaps to the
    // 5-minute rollup first (00:00 → 00:00), then 288 whole buckets fill it
    const nrql = (since: string, until: string) =>
      `SELECT count(*) FROM Metric SINCE ${at(since)} UNTIL ${at(until)} TIMESERIES 5 minutes`
    const r = runNrql(nrql('2023-12-20T00:04:59Z', '2023-12-21T00:03:12Z'), {
      accountId: 1,
      store: new ArrayStore([]),
      now: NOW,
    })
    expect(r.metadata.timeWindow).toMatchObject({
      begin: at('2023-12-20T00:00Z'),
      end: at('2023-12-21T00:00Z'),
    })
    expect(r.results).toHaveLength(288)
  })
})

describe('Metric rollups read from the dataset', () => {
  const dataset = createDataset(7, () => NOW)
  const ctx = { accountId: 1000001, store: dataset.store, now: NOW }
  const where = "WHERE appId = 9045822 AND metricTimesliceName = 'HttpDispatcher' AND scope IS NULL"

  it('answers a window 10 days ago from hourly rollups, counts summed per hour', () => {
    const since = Date.UTC(2023, 11, 12, 0)
    const r = runNrql(
      `SELECT count(newrelic.timeslice.value) AS 'calls', max(newrelic.timeslice.value) AS 'max' FROM Metric ${where} SINCE ${since} UNTIL ${since + 3 * HOUR} TIMESERIES 1 hour`,
      ctx
    )
    const rows = dataset.timeslices({
      appId: 9045822,
      name: 'HttpDispatcher',
      rollupMs: HOUR,
      from: since,
      to: since + 3 * HOUR,
    })
    expect(r.results).toHaveLength(3)
    r.results.forEach((bucket, i) => {
      const hour = rows.filter((row) => row.timestamp === since + i * HOUR)
      expect(hour.length).toBeGreaterThan(0)
      expect(bucket['calls']).toBe(hour.reduce((n, row) => n + row.value.count, 0))
      expect(bucket['max']).toBe(Math.max(...hour.map((row) => row.value.max)))
    })
  })

  it('answers nothing for a window 91 days ago, and 60 days ago from hourly rollups', () => {
    const query = (daysAgo: number) =>
      runNrql(
        `SELECT count(newrelic.timeslice.value) AS 'calls' FROM Metric ${where} SINCE ${daysAgo} days ago UNTIL ${daysAgo - 1} days ago`,
        ctx
      ).results[0]!['calls']
    expect(query(91)).toBe(0)
    expect(query(60)).toBeGreaterThan(0)
  })
})

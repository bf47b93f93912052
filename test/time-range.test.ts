import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { V2Error } from '../src/core/errors'
import {
  formatTime,
  parseTime,
  resolveTimeRange,
  sliceLength,
  slicesOf,
  timeTitles,
} from '../src/core/time-range'

const at = (iso: string) => Date.parse(iso)
const minute = 60_000
const hour = 60 * minute
const day = 24 * hour

function rejects(fn: () => unknown, status: number, title: string) {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(V2Error)
    expect((err as V2Error).status).toBe(status)
    expect((err as V2Error).title).toBe(title)
    return
  }
  expect.fail('expected a V2Error')
}

describe('parseTime', () => {
  const midnight = Date.UTC(2014, 5, 9)
  const formats: [string, string, number][] = [
    ['ISO 8601 with +00:00 (docs, REL)', '2014-06-09T00:00:00+00:00', midnight],
    ['RFC 3339 with Z (GO, MRF)', '2014-06-09T00:00:00Z', midnight],
    ['a positive offset', '2014-06-09T02:00:00+02:00', midnight],
    ['a negative offset (D-time)', '2014-06-08T22:00:00-02:00', midnight],
    ['+0000 without a colon (HAR)', '2014-06-09T00:00:00+0000', midnight],
    ['an hour-only offset', '2014-06-09T03:00:00+03', midnight],
    ['no zone, read as UTC (OPS)', '2014-06-09T00:00:00', midnight],
    ['a space separator and no zone (AMB str(datetime))', '2014-06-09 00:00:00', midnight],
    ['an unencoded + arriving as a space (D-time)', '2014-06-09 00:00:00 00:00', midnight],
    ['an unencoded + before a non-zero offset', '2014-06-09T02:00:00 02:00', midnight],
    ['an unencoded + before HHMM', '2014-06-09T02:00:00 0200', midnight],
    ['milliseconds (toISOString: GRAF2, KEN)', '2014-06-09T00:00:00.250Z', midnight + 250],
    ['microseconds (Python isoformat)', '2014-06-09 00:00:00.123456+00:00', midnight + 123],
    ['a JSON-quoted string (GRAF1)', '"2014-06-09T00:00:00.000Z"', midnight],
    ['surrounding whitespace', ' 2014-06-09T00:00:00Z ', midnight],
    ['a UTC suffix (Ruby Time#to_s)', '2014-06-09 00:00:00 UTC', midnight],
    ['minutes without seconds', '2014-06-09T00:00Z', midnight],
    ['a date alone', '2014-06-09', midnight],
  ]
  for (const [label, text, ms] of formats) {
    it(`reads ${label}: ${text}`, () => expect(parseTime(text, 'from')).toBe(ms))
  }

  const invalid = [
    'yesterday',
    '1402272000',
    '2014-02-30T00:00:00Z',
    '2014-13-01T00:00:00Z',
    '2014-06-09T24:00:00Z',
    '2014-06-09T00:60:00Z',
    '2014-06-09T00:00:00+25:00',
    '2014-06-09T00:00:00 EST',
    '09/06/2014',
  ]
  for (const text of invalid) {
    it(`rejects ${JSON.stringify(text)} with 422`, () => {
      rejects(() => parseTime(text, 'to'), 422, timeTitles.to)
    })
  }
})

describe('formatTime', () => {
  it('writes UTC at whole seconds with +00:00', () => {
    expect(formatTime(Date.UTC(2016, 0, 28, 18, 6, 6, 999))).toBe('2016-01-28T18:06:06+00:00')
  })

  it('writes every time right also past the texts it remembers', () => {
    const start = Date.UTC(2026, 2, 10)
    for (let m = 0; m < 5_000; m++) formatTime(start + m * 60_000)
    expect(formatTime(start)).toBe('2026-03-10T00:00:00+00:00')
    expect(formatTime(start + 4_999 * 60_000)).toBe('2026-03-13T11:19:00+00:00')
    expect(formatTime(start + 4_999 * 60_000 + 1)).toBe('2026-03-13T11:19:00+00:00')
  })
})

describe('resolveTimeRange defaults and validation', () => {
  const now = at('2026-03-10T12:34:56.789Z')

  it('uses the last 30 minutes when both ends are omitted, at whole seconds', () => {
    const r = resolveTimeRange({ summarize: false }, now)
    expect(formatTime(r.from)).toBe('2026-03-10T12:04:56+00:00')
    expect(formatTime(r.to)).toBe('2026-03-10T12:34:56+00:00')
  })

  it('runs until now when only from is given', () => {
    const r = resolveTimeRange({ from: '2026-03-10T10:00:00Z', summarize: false }, now)
    expect(formatTime(r.to)).toBe('2026-03-10T12:34:56+00:00')
  })

  it('takes the 30 minutes before to when only to is given (UNCONFIRMED proposal)', () => {
    const r = resolveTimeRange({ to: '2026-03-10T10:00:00Z', summarize: false }, now)
    expect(formatTime(r.from)).toBe('2026-03-10T09:30:00+00:00')
  })

  it('treats blank values as omitted', () => {
    const r = resolveTimeRange({ from: ' ', to: '', summarize: false }, now)
    expect(r.to - r.from).toBe(30 * minute)
  })

  it('answers 422 for a range under 60 s, from after to, and unparsable times', () => {
    const t = (from: string, to: string) => () =>
      resolveTimeRange({ from, to, summarize: false }, now)
    rejects(t('2026-03-10T10:00:00Z', '2026-03-10T10:00:59Z'), 422, timeTitles.tooShort)
    rejects(t('2026-03-10T10:00:00Z', '2026-03-10T10:00:00Z'), 422, timeTitles.tooShort)
    rejects(t('2026-03-10T10:01:00Z', '2026-03-10T10:00:00Z'), 422, timeTitles.order)
    rejects(t('soon', '2026-03-10T10:00:00Z'), 422, timeTitles.from)
    expect(() =>
      resolveTimeRange(
        { from: '2026-03-10T10:00:00Z', to: '2026-03-10T10:01:00Z', summarize: false },
        now
      )
    ).not.toThrow()
  })
})

describe('default granularity (D-extract table)', () => {
  const to = at('2026-03-10T12:00:00Z')
  const cases: [number, number][] = [
    [60_000, minute],
    [3 * hour, minute],
    [3 * hour + 1000, 2 * minute],
    [6 * hour, 2 * minute],
    [6 * hour + 1000, 5 * minute],
    [14 * hour, 5 * minute],
    [14 * hour + 1000, 10 * minute],
    [24 * hour, 10 * minute],
    [24 * hour + 1000, 30 * minute],
    [4 * day, 30 * minute],
    [4 * day + 1000, hour],
    [7 * day, hour],
    [7 * day + 1000, 3 * hour],
    [21 * day, 3 * hour],
    [21 * day + 1000, 6 * hour],
    [42 * day, 6 * hour],
    [42 * day + 1000, 12 * hour],
    [63 * day, 12 * hour],
    [63 * day + 1000, 3 * day],
  ]
  for (const [range, slice] of cases) {
    it(`uses ${slice / minute} min slices for a range of ${range / 1000} s of recent data`, () => {
      // "now" is the end of the range, so data older than 8 days only starts beyond 8 days.
      const now = range > 8 * day ? to - range + 8 * day : to
      expect(sliceLength(to - range, to, now).sliceMs).toBe(slice)
    })
  }

  it('gives whole hours for a range under 4 days starting more than 8 days ago (hourly rollups only)', () => {
    // fixed clock 2026-03-20; the range is 10 days old. Main answered 10 slices of 12 minutes,
    // which NRDB's hourly rollups cannot fill (docs/differences.md)
    const now = at('2026-03-20T00:00:00Z')
    const r = resolveTimeRange(
      { from: '2026-03-10T10:00:00Z', to: '2026-03-10T12:00:00Z', summarize: false },
      now
    )
    expect(r.sliceMs).toBe(hour)
    expect(slicesOf(r).map((s) => formatTime(s.from))).toEqual([
      '2026-03-10T10:00:00+00:00',
      '2026-03-10T11:00:00+00:00',
    ])
    expect(formatTime(r.end)).toBe('2026-03-10T12:00:00+00:00')
  })

  it('puts old slices on hour edges also when from and to are not on an hour', () => {
    const now = at('2026-03-20T00:00:00Z')
    const r = resolveTimeRange(
      { from: '2026-03-10T10:00:15Z', to: '2026-03-10T12:20:15Z', summarize: false },
      now
    )
    expect(slicesOf(r)).toEqual([
      { from: at('2026-03-10T11:00:00Z'), to: at('2026-03-10T12:00:00Z') },
    ])
    const short = resolveTimeRange(
      { from: '2026-03-10T10:00:15Z', to: '2026-03-10T10:50:00Z', summarize: false },
      now
    )
    expect(slicesOf(short)).toEqual([
      { from: at('2026-03-10T10:00:00Z'), to: at('2026-03-10T11:00:00Z') },
    ])
    expect(formatTime(short.to)).toBe('2026-03-10T10:50:00+00:00') // the request, echoed
  })

  it('keeps 10 slices for old ranges of 10 hours or more (30 h, 60 days ago: 3 h each)', () => {
    const now = at('2026-05-10T00:00:00Z')
    const r = resolveTimeRange(
      { from: '2026-03-10T06:00:00Z', to: '2026-03-11T12:00:40Z', summarize: false },
      now
    )
    expect(r.sliceMs).toBe(3 * hour)
    expect(slicesOf(r)).toHaveLength(10)
    expect(formatTime(r.end)).toBe('2026-03-11T12:00:00+00:00')
  })

  it('keeps the table beyond 4 days for old data (1 h for 5 days)', () => {
    const now = at('2026-04-30T00:00:00Z')
    expect(sliceLength(at('2026-03-01T00:00:00Z'), at('2026-03-06T00:00:00Z'), now).sliceMs).toBe(
      hour
    )
  })

  it('stays within 366 NRQL buckets on very long ranges', () => {
    const r = resolveTimeRange(
      { from: '2020-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z', summarize: false },
      at('2026-01-01T00:00:00Z')
    )
    expect(slicesOf(r).length).toBeLessThanOrEqual(366)
    expect(r.sliceMs % minute).toBe(0)
  })
})

describe('period', () => {
  const now = at('2026-03-10T12:00:00Z')
  const base = { from: '2026-03-10T10:00:00Z', to: '2026-03-10T11:00:00Z', summarize: false }

  it('uses a period coarser than the default', () => {
    const r = resolveTimeRange({ ...base, period: '600' }, now)
    expect(r.sliceMs).toBe(10 * minute)
    expect(slicesOf(r).map((s) => formatTime(s.from))).toEqual(
      ['10:00', '10:10', '10:20', '10:30', '10:40', '10:50'].map((t) => `2026-03-10T${t}:00+00:00`)
    )
  })

  it('clamps a finer period up to the default granularity', () => {
    expect(resolveTimeRange({ ...base, period: '30' }, now).sliceMs).toBe(minute)
    const sixHours = { from: '2026-03-10T04:00:00Z', to: '2026-03-10T10:00:00Z', summarize: false }
    expect(resolveTimeRange({ ...sixHours, period: '60' }, now).sliceMs).toBe(2 * minute)
  })

  it('rounds a period up to whole minutes and ignores one that is not a number', () => {
    expect(resolveTimeRange({ ...base, period: '90' }, now).sliceMs).toBe(2 * minute)
    expect(resolveTimeRange({ ...base, period: 'abc' }, now).sliceMs).toBe(minute)
    expect(resolveTimeRange({ ...base, period: '-5' }, now).sliceMs).toBe(minute)
  })

  it('gives one slice when the period is longer than the range', () => {
    const r = resolveTimeRange(
      {
        from: '2026-03-10T10:00:30Z',
        to: '2026-03-10T10:45:10Z',
        summarize: false,
        period: '3600',
      },
      now
    )
    expect(slicesOf(r).map((s) => [formatTime(s.from), formatTime(s.to)])).toEqual([
      ['2026-03-10T10:00:00+00:00', '2026-03-10T10:45:00+00:00'],
    ])
  })
})

describe('slice alignment (D-extract, GO, MRF, TONS samples)', () => {
  const slices = (
    from: string,
    to: string,
    now: string,
    opts: { period?: string; summarize?: boolean } = {}
  ) =>
    slicesOf(
      resolveTimeRange(
        {
          from,
          to,
          summarize: opts.summarize ?? false,
          ...(opts.period ? { period: opts.period } : {}),
        },
        at(now)
      )
    ).map((s) => [formatTime(s.from), formatTime(s.to)])

  it('answers 30 one-minute slices for a 30-minute window, shifted 3 minutes back (D-extract: 18:06:06 → 18:03)', () => {
    const s = slices(
      '2016-01-28T18:06:06+00:00',
      '2016-01-28T18:36:06+00:00',
      '2016-01-28T18:36:06Z'
    )
    expect(s[0]).toEqual(['2016-01-28T18:03:00+00:00', '2016-01-28T18:04:00+00:00'])
    expect(s.at(-1)).toEqual(['2016-01-28T18:32:00+00:00', '2016-01-28T18:33:00+00:00'])
    expect(s).toHaveLength(30)
  })

  it('shifts both ends of an unaligned window (docs sample 23:41:15–00:11:15 → 30 slices)', () => {
    const s = slices('2014-06-24T23:41:15Z', '2014-06-25T00:11:15Z', '2014-06-25T00:12:00Z')
    expect(s).toHaveLength(30)
    expect(s[0]![0]).toBe('2014-06-24T23:38:00+00:00')
    expect(s.at(-1)![1]).toBe('2014-06-25T00:08:00+00:00')
  })

  it('answers as many slices as whole minutes in the window (30:59 → 30, 1:30 → 1)', () => {
    expect(
      slices('2020-03-01T10:00:30Z', '2020-03-01T10:31:29Z', '2020-03-01T11:00:00Z')
    ).toHaveLength(30)
    expect(slices('2020-03-01T10:00:30Z', '2020-03-01T10:02:00Z', '2020-03-01T11:00:00Z')).toEqual([
      ['2020-03-01T09:57:00+00:00', '2020-03-01T09:58:00+00:00'],
    ])
  })

  it('starts 3 minutes before an unaligned from (GO fixture: 23:25:45 → 23:22)', () => {
    const s = slices('2020-03-01T23:25:45Z', '2020-03-01T23:55:45Z', '2020-03-01T23:55:45Z')
    expect(s[0]![0]).toBe('2020-03-01T23:22:00+00:00')
  })

  it('does not shift a from on a minute boundary (MRF: 15:35:00–15:36:00 → one slice)', () => {
    expect(slices('2016-05-01T15:35:00Z', '2016-05-01T15:36:00Z', '2016-05-01T15:40:00Z')).toEqual([
      ['2016-05-01T15:35:00+00:00', '2016-05-01T15:36:00+00:00'],
    ])
  })

  it('anchors coarse slices on to and drops the partial leading one (TONS: 14:48:43 → 15:00)', () => {
    const s = slices(
      '2015-11-02T14:48:43+00:00',
      '2015-11-09T00:00:00+00:00',
      '2026-01-01T00:00:00Z',
      { summarize: true }
    )
    expect(s).toEqual([['2015-11-02T15:00:00+00:00', '2015-11-09T00:00:00+00:00']])
  })

  it('anchors coarse slices on to (D-errrate: 00:00 → 23:35 hourly gives 00:35–23:35)', () => {
    const s = slices('2014-06-01T00:00:00Z', '2014-06-01T23:35:00Z', '2014-06-02T00:00:00Z', {
      period: '3600',
    })
    expect(s[0]).toEqual(['2014-06-01T00:35:00+00:00', '2014-06-01T01:35:00+00:00'])
    expect(s.at(-1)![1]).toBe('2014-06-01T23:35:00+00:00')
    expect(s).toHaveLength(23)
  })

  it('summarizes into one slice over the aligned range', () => {
    expect(
      slices('2016-01-28T18:06:06Z', '2016-01-28T18:36:06Z', '2016-01-28T18:40:00Z', {
        summarize: true,
      })
    ).toEqual([['2016-01-28T18:03:00+00:00', '2016-01-28T18:33:00+00:00']])
  })
})

describe('ranges NRQL cannot express', () => {
  const now = at('2026-03-10T12:00:00Z')

  it('starts a range that reaches before 1970 at the epoch (NRQL takes SINCE ≥ 0)', () => {
    const r = resolveTimeRange(
      { from: '1969-12-31T23:00:00Z', to: '1970-01-01T01:00:00Z', summarize: false },
      now
    )
    expect([r.from, r.start]).toEqual([0, 0])
    const unaligned = resolveTimeRange(
      { from: '1970-01-01T00:00:30Z', to: '1970-01-01T00:10:00Z', summarize: false },
      now
    )
    expect(unaligned.start).toBe(0)
  })

  it('answers 422 for a range wholly before 1970', () => {
    rejects(
      () =>
        resolveTimeRange(
          { from: '1960-01-01T00:00:00Z', to: '1960-01-02T00:00:00Z', summarize: false },
          now
        ),
      422,
      timeTitles.tooShort
    )
  })

  it('keeps every accepted range on a whole grid of at most 366 slices from epoch 0 on', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }),
        fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }),
        fc.option(fc.integer({ min: -10, max: 10 ** 12 }).map(String), { nil: undefined }),
        fc.boolean(),
        (a, b, period, summarize) => {
          const iso = (d: Date) => d.toISOString()
          let r
          try {
            r = resolveTimeRange({ from: iso(a), to: iso(b), period, summarize }, now)
          } catch (err) {
            expect(err).toBeInstanceOf(V2Error)
            expect((err as V2Error).status).toBe(422)
            return
          }
          expect(r.start).toBeGreaterThanOrEqual(0)
          expect(r.end).toBeGreaterThan(r.start)
          expect(r.sliceMs % minute).toBe(0)
          expect((r.end - r.start) % r.sliceMs).toBe(0)
          expect((r.end - r.start) / r.sliceMs).toBeLessThanOrEqual(366)
          expect(Number.isSafeInteger(r.end)).toBe(true)
        }
      ),
      { numRuns: 2000 }
    )
  })
})

describe('windows against a fixed clock (issue 37 items 6 and 9)', () => {
  it('keeps a far-future to as sent and the grid of the requested window', () => {
    // 1 h ago → 2 days ahead: 49 h of 30-minute slices (main clamped to now: 60 × 1 min)
    const now = at('2026-03-10T12:34:56.789Z')
    const r = resolveTimeRange(
      { from: '2026-03-10T11:30:00Z', to: '2026-03-12T12:30:00Z', summarize: false },
      now
    )
    expect(formatTime(r.to)).toBe('2026-03-12T12:30:00+00:00')
    expect(r.sliceMs).toBe(30 * minute)
    expect(slicesOf(r)).toHaveLength(98)
    expect(formatTime(r.start)).toBe('2026-03-10T11:30:00+00:00')
    // a window wholly in the future is a window too (its slices answer 0)
    expect(() =>
      resolveTimeRange(
        { from: '2026-03-11T00:00:00Z', to: '2026-03-11T01:00:00Z', summarize: false },
        now
      )
    ).not.toThrow()
  })

  it('moves the default window back by the lag also in the first second of a minute', () => {
    const grid = (now: number) => {
      const r = resolveTimeRange({ summarize: false }, now)
      const slices = slicesOf(r)
      return [formatTime(slices[0]!.from), formatTime(slices.at(-1)!.to), slices.length]
    }
    // main: 11:30–12:00 at 12:00:00.400 (three minutes later, the last ones unfinished)
    expect(grid(at('2026-03-10T12:00:00.400Z'))).toEqual([
      '2026-03-10T11:27:00+00:00',
      '2026-03-10T11:57:00+00:00',
      30,
    ])
    expect(grid(at('2026-03-10T12:00:01.000Z'))).toEqual(grid(at('2026-03-10T12:00:00.400Z')))
    // an explicit window on whole minutes is not moved (prometheus exporter sample)
    const r = resolveTimeRange(
      { from: '2026-03-10T11:30:00Z', to: '2026-03-10T12:00:00Z', summarize: false },
      at('2026-03-10T12:00:00.400Z')
    )
    expect(formatTime(r.start)).toBe('2026-03-10T11:30:00+00:00')
  })

  it('ends a window over 6 hours on a 5-minute edge, as NRDB snaps it', () => {
    const now = at('2026-03-10T22:00:00Z')
    const r = resolveTimeRange(
      { from: '2026-03-10T10:07:00Z', to: '2026-03-10T20:07:00Z', summarize: false },
      now
    )
    expect(r.sliceMs).toBe(5 * minute)
    expect(formatTime(r.end)).toBe('2026-03-10T20:05:00+00:00')
    expect(slicesOf(r)).toHaveLength(119)
  })
})

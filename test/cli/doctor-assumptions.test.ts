import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { assumptionIds } from '../../src/cli/doctor-assumptions'
import { facetCapVerdict, uniquesCapVerdict } from '../../src/cli/doctor-assumption-caps'
import { concurrencyVerdict, costVerdict } from '../../src/cli/doctor-assumption-load'
import { keySearchVerdict } from '../../src/cli/doctor-assumption-keys'
import type { SimulatorOptions } from '../../simulator'
import { doctorOn } from './doctor-run'

const day = 86_400_000

// Every read-only probe confirmed; the write probe runs only with --write-probe.
const allConfirmed = {
  ...Object.fromEntries(assumptionIds.map((id) => [id, 'confirmed'])),
  'write-visibility': 'not probed',
}

describe('v2bridge doctor: the assumptions about NerdGraph', () => {
  it('confirms every assumption on the simulator, which follows the live service by default', async () => {
    const { code, verdicts, report, mutations } = await doctorOn()
    expect(verdicts).toEqual(allConfirmed)
    expect(code).toBe(0)
    expect(mutations).toEqual([])
    for (const a of report.assumptions) expect(a.seen.length).toBeGreaterThan(0)
    const seen = Object.fromEntries(report.assumptions.map((a) => [a.id, a.seen]))
    // The simulated account has more than 5,000 (application, name) pairs in a minute but only a
    // few hundred names, so LIMIT MAX shows the cap and uniques() cannot.
    expect(seen['truncation']).toMatch(
      /^LIMIT MAX stopped at 5000 facets, \d+ of \d+ timeslices in others; uniques\(\) answered (\d+) of \1 names, the cap of 10000 unreached$/
    )
    expect(seen['window-snapping']).toMatch(/:04Z to \S+:03Z answered as \S+:00Z to \S+:00Z$/)
  })

  // Each lenient switch turns back one behaviour the simulator had before it followed the live
  // service (simulator/README.md, "How it differs from the live NerdGraph"), or lifts a cap or a
  // rollup edge of the live service's.
  const lenient: [string, SimulatorOptions, RegExp][] = [
    ['facet-rows', { nrql: { everyFacetKey: true } }, /rows also carry the attributes' keys/],
    ['rollups', { retention: { minuteMs: 90 * day } }, /1-minute data 10 days ago/],
    ['no-access', { access: { forbiddenErrorClass: true } }, /errorClass FORBIDDEN/],
    [
      'rate-limit',
      { limits: { identicalPerUserPerMinute: Infinity } },
      /121 identical queries answered/,
    ],
    ['truncation', { nrql: { limitMax: 2_000_000 } }, /LIMIT MAX answered \d+ facets, past 5000/],
    [
      'window-snapping',
      { retention: { fiveMinuteAfterMs: Infinity } },
      /not snapped: \S+:04Z to \S+:03Z answered as/,
    ],
    [
      'concurrency',
      { limits: { concurrentPerUser: Infinity } },
      /^all 26 answered, every one sent before any answered, in each of 2 batches$/,
    ],
    [
      'nrql-cost',
      { limits: { cost: false } },
      /^the wide query took \d+ ms, the narrow \d+ ms \(best of 3 each\)$/,
    ],
  ]
  for (const [id, options, seen] of lenient) {
    it(`says ${id} is contradicted, with what it saw, on a simulator switched back to lenient`, async () => {
      const { code, verdicts, report } = await doctorOn(options)
      expect(verdicts).toEqual({ ...allConfirmed, [id]: 'contradicted' })
      const result = report.assumptions.find((a) => a.id === id)!
      expect(result.seen).toMatch(seen)
      expect(result.covers).toContain(`docs/assumptions.md#${id}`)
      expect(code).toBe(1)
    })
  }

  // An admin whose search lists only its own keys looks like a user who is not an admin: no read-only
  // query tells them apart (docs/assumptions.md, admin-key-search).
  it('says admin-key-search is unknown when the search lists only the own keys', async () => {
    const { code, verdicts, report } = await doctorOn({ access: { othersKeys: 0 } })
    expect(verdicts).toEqual({ ...allConfirmed, 'admin-key-search': 'unknown' })
    expect(report.assumptions.find((a) => a.id === 'admin-key-search')!.seen).toMatch(
      /^only the caller's own \d+ key\(s\): the user may not be an admin$/
    )
    expect(code).toBe(0)
  })

  it('has a section of docs/assumptions.md for every assumption it probes', () => {
    const page = readFileSync(new URL('../../docs/assumptions.md', import.meta.url), 'utf8')
    const headings = [...page.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim())
    expect(headings).toEqual(assumptionIds)
  })

  it('tells the caps from the counts a live account may answer, which the simulated one cannot', () => {
    expect(facetCapVerdict(5000, 900, 1000)).toEqual([
      'confirmed',
      'LIMIT MAX stopped at 5000 facets, 100 of 1000 timeslices in others',
    ])
    expect(facetCapVerdict(2000, 900, 1000)).toEqual([
      'contradicted',
      'LIMIT MAX stopped at 2000 facets, under 5000, 100 left out',
    ])
    expect(facetCapVerdict(4999, 1000, 1000)[0]).toBe('unknown')
    const names = (n: number) => Array.from({ length: n }, (_, i) => `Name/${i}`)
    expect(uniquesCapVerdict(names(10_000), 12_345)).toEqual([
      'confirmed',
      'uniques() stopped at 10000 of 12345 names',
    ])
    expect(uniquesCapVerdict(names(10_001), 12_345)[0]).toBe('contradicted')
    expect(uniquesCapVerdict(names(300), 300)[0]).toBe('unknown')
    expect(uniquesCapVerdict(null, 0)[0]).toBe('unknown')
  })

  it('tells a 429 amid requests in flight from requests that never overlapped', () => {
    const flight = (started: number, answered: number, throttled = false) => ({
      started,
      answered,
      throttled,
      ok: !throttled,
    })
    const ok = Array.from({ length: 25 }, () => flight(0, 300))
    // One of the same queries, alone, took 250 ms just before.
    expect(concurrencyVerdict([...ok, flight(1, 40, true)], 250)).toEqual([
      'confirmed',
      '1 of 26 answered 429 while others were in flight',
    ])
    expect(concurrencyVerdict([...ok, flight(1, 310, true)], 250)).toEqual([
      'unknown',
      '1 of 26 answered 429, after the rest',
    ])
    expect(concurrencyVerdict([...ok, flight(1, 300)], 250)).toEqual([
      'contradicted',
      'all 26 answered, every one sent before any answered',
    ])
    // Sent together, but answered one after another: NerdGraph may have queued them.
    const queued = Array.from({ length: 26 }, (_, i) => flight(0, 100 + 20 * i))
    expect(concurrencyVerdict(queued, 250)).toEqual([
      'unknown',
      'the 26 answers came over 500 ms, one alone took 250 ms: not all at once',
    ])
    // Six answered at 165 ms, twenty 75 ms later: longer apart than one request alone (61 ms) takes,
    // so the last may have reached NerdGraph after the first had left (a busy server thread, new
    // connections), as a loaded CI machine showed; within one alone's time, they were there at once.
    const staggered = Array.from({ length: 26 }, (_, i) => flight(0, i < 6 ? 165 : 240))
    expect(concurrencyVerdict(staggered, 61)).toEqual([
      'unknown',
      'the 26 answers came over 75 ms, one alone took 61 ms: not all at once',
    ])
    expect(concurrencyVerdict(staggered, 100)[0]).toBe('contradicted')
    expect(concurrencyVerdict([...ok, flight(400, 500)], 250)).toEqual([
      'unknown',
      'the 26 requests did not overlap',
    ])
  })

  it("says an admin's search is contradicted only by another user's key in full", () => {
    const own = { key: 'NRAK-OWN00000000000000000000000', userId: 1 }
    expect(
      keySearchVerdict(1, [own, { key: 'NRAK-ABCDEFGHIJKLMNOPQRSTUVWXYZ0', userId: 2 }])
    ).toEqual([
      'contradicted',
      "user 2's key listed in full; v2bridge keeps narrowing its search to the caller's user",
    ])
    expect(keySearchVerdict(1, [own, { key: 'NRAK-ABC...', userId: 2 }])).toEqual([
      'confirmed',
      "1 of 2 keys on the page are other users', obfuscated",
    ])
    expect(keySearchVerdict(1, [own])[0]).toBe('unknown')
  })

  it('calls a query slower only when it takes 3 times as long and 20 ms more', () => {
    expect(costVerdict([150, 160, 170], [900, 480, 700])).toEqual([
      'confirmed',
      'the wide query took 480 ms, the narrow 150 ms (best of 3 each)',
    ])
    expect(costVerdict([150], 'TIMEOUT')).toEqual([
      'confirmed',
      'the wide query answered TIMEOUT, the narrow 150 ms',
    ])
    expect(costVerdict([150], [200])[0]).toBe('contradicted')
    expect(costVerdict([2], [9])[0]).toBe('contradicted')
    expect(costVerdict([150], [300])[0]).toBe('unknown')
  })
})

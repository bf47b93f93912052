/**
 * The comparison engine's bounds and partitions (issue 40 items 3, 4, 7 and 10): repeated
 * identities are numbered in one pass and a comparison's work is bounded; an example is cut
 * without serialising the whole subtree and owns its bytes; noise and the first-comparisons
 * counter are per key; a v2 read that failed accounts for nothing; a key v2 refused (401) is not
 * an equal comparison; a comparison's v2 reads never take the key's NerdGraph slots.
 */
import { describe, expect, it, vi } from 'vitest'
import { compareTrees, perTurn, type Difference } from '../../src/compare/diff'
import { exampleOf } from '../../src/compare/aggregate'
import { Comparer } from '../../src/compare'
import { compareRules } from '../../src/compare/rules'
import { bytesResponse } from '../../src/http/respond'
import { compareHarness, DEMO_KEYS } from './setup'
import { turnsDuring } from '../helpers/loop-turns'

const op = { method: 'GET', path: '/v2/applications/{id}' }

/** `job` with comparisons given `slices` per turn of the loop and no time limit (`perTurn`), as a
 * clock that stands still gives them: what a turn holds then does not depend on the machine's speed. */
async function withSlicesPerTurn<T>(
  slices: number,
  job: () => { result: Promise<T>; count: () => number }
) {
  const saved = { ...perTurn }
  Object.assign(perTurn, { slices, ms: Infinity })
  try {
    const turns = job()
    await turns.result
    return turns
  } finally {
    Object.assign(perTurn, saved)
  }
}

const json = (body: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
  )

/** An answer as v2bridge's own and its forwarded ones are: its bytes readable without reading it. */
const bytes = (body: unknown) =>
  Promise.resolve(
    bytesResponse(new TextEncoder().encode(JSON.stringify(body)), {
      headers: { 'Content-Type': 'application/json' },
    })
  )

describe('work per comparison', () => {
  it('numbers 20,000 repeated identities in one pass', () => {
    const same = Array.from({ length: 20_000 }, () => ({ id: 1, name: 'x' }))
    const scalars = Array.from({ length: 20_000 }, () => 7)
    expect(compareTrees({ a: same }, { a: structuredClone(same) })).toEqual([])
    expect(compareTrees({ a: scalars }, { a: [...scalars, 7] })).toEqual([
      { path: 'a[]', at: 'a[=7~20001]', kind: 'extra', bridge: 7 },
    ])
  })

  it('gives the event loop its turn while it compares a list of 20,000 items', async () => {
    // What a hostile v2 answered in `npm run bench:hostile`: walked at once, it held every other
    // request of the process for about half a second.
    const same = { applications: Array.from({ length: 20_000 }, () => ({ id: 1, name: 'Same' })) }
    const mine = { applications: [{ id: 2, name: 'Mine' }] }
    const turns = await withSlicesPerTurn(1, () =>
      turnsDuring(() => new Comparer().compare(op, json(same), json(mine), () => json(same), 'k'))
    )
    expect((await turns.result).result).toBe('differing')
    // 20,001 identities, 19,999 missing items and the order check: about 60 slices of 1,024.
    expect(turns.count()).toBeGreaterThan(50)
  })

  it('runs one comparison slice per turn of the loop, however many compare at once', async () => {
    // Issue 40: each comparison took its own turn, so four at once held four slices of every turn.
    const list = (n: number) => ({ applications: Array.from({ length: n }, (_, i) => ({ id: i })) })
    const compareOnce = () =>
      new Comparer().compare(op, json(list(30_000)), json(list(1)), () => json(list(1)), 'k')
    const alone = await withSlicesPerTurn(1, () => turnsDuring(compareOnce))
    const together = await withSlicesPerTurn(1, () =>
      turnsDuring(() => Promise.all([compareOnce(), compareOnce(), compareOnce()]))
    )
    expect(alone.count()).toBeGreaterThan(30)
    expect(together.count()).toBeGreaterThanOrEqual(alone.count() * 2.7)
  })

  it('runs small comparisons several to a turn, within the turn’s budget', async () => {
    // One slice per turn left most comparisons of small answers waiting at a server's capacity
    // (`npm run bench:compare` compared 5% of its calls).
    const small = { application: { id: 1, name: 'a' } }
    const forty = () =>
      turnsDuring(() =>
        Promise.all(
          Array.from({ length: 40 }, () =>
            new Comparer().compare(op, json(small), json(small), () => json(small), 'k')
          )
        )
      )
    const one = await withSlicesPerTurn(1, forty)
    const sixteen = await withSlicesPerTurn(perTurn.slices, forty)
    expect((await sixteen.result).every((o) => o.result === 'equal')).toBe(true)
    // Four slices each (two answers parsed, two reads of v2), 160 in all.
    expect(one.count()).toBeGreaterThan(150)
    expect(sixteen.count()).toBeLessThan(one.count() / 2)
  })

  it('reads a v2 answer that came again to the byte without parsing it again', async () => {
    const same = { applications: Array.from({ length: 100 }, (_, i) => ({ id: i, name: 'a' })) }
    const mine = { applications: [{ id: 1, name: 'b' }] }
    const parse = vi.spyOn(JSON, 'parse')
    let reads = 0
    try {
      const o = await new Comparer().compare(op, json(same), json(mine), () => {
        reads += 1
        return json(same)
      })
      expect(o.result).toBe('differing')
      // v2's first read and v2bridge's answer; v2's later reads were its first, to the byte.
      expect(reads).toBe(compareRules.noise.reads - 1)
      expect(parse).toHaveBeenCalledTimes(2)
    } finally {
      parse.mockRestore()
    }
  })

  it('compares the bytes of a v2 answer read again before it decodes them', async () => {
    const same = { applications: Array.from({ length: 100 }, (_, i) => ({ id: i, name: 'a' })) }
    const decode = vi.spyOn(TextDecoder.prototype, 'decode')
    try {
      const o = await new Comparer().compare(op, bytes(same), bytes({ applications: [] }), () =>
        bytes(same)
      )
      expect(o.result).toBe('differing')
      expect(decode).toHaveBeenCalledTimes(2) // v2's first read and v2bridge's answer
    } finally {
      decode.mockRestore()
    }
  })

  it('remembers a comparison whose two answers come again to the byte, for its key only', async () => {
    const same = { applications: Array.from({ length: 100 }, (_, i) => ({ id: i, name: 'a' })) }
    const mine = { applications: [{ id: 1, name: 'b' }] }
    const comparer = new Comparer()
    const compare = (v2: unknown, key: string) =>
      comparer.compare(op, bytes(v2), bytes(mine), () => bytes(v2), key)
    const parse = vi.spyOn(JSON, 'parse')
    // Parses of the answers (not of whatever else this process parses meanwhile).
    const parsed = () => {
      const n = parse.mock.calls.filter(([text]) => text.startsWith('{"applications"')).length
      parse.mockClear()
      return n
    }
    try {
      const first = await compare(same, 'k1')
      expect(parsed()).toBe(2) // v2's answer and v2bridge's
      expect(await compare(same, 'k1')).toEqual(first)
      expect(parsed()).toBe(0)
      // Another key's comparison is its own.
      expect(await compare(same, 'k2')).toEqual(first)
      expect(parsed()).toBe(2)
      // v2 answered otherwise: compared again, and the difference it has now is found.
      const fewer = { applications: same.applications.slice(0, 50) }
      const changed = await compare(fewer, 'k1')
      expect(parsed()).toBe(2)
      expect(changed.differences).not.toEqual(first.differences)
      expect(await compare(fewer, 'k1')).toEqual(changed)
      expect(parsed()).toBe(0)
      // At most `memo.entries` remembered: the least recently used goes first.
      for (let i = 0; i < compareRules.memo.entries; i++) await compare(same, `other${i}`)
      parsed()
      await compare(fewer, 'k1')
      expect(parsed()).toBe(2)
      // An answer over `memo.bytes` is not remembered.
      const big = {
        applications: Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: 'x'.repeat(50) })),
      }
      expect(JSON.stringify(big).length).toBeGreaterThan(compareRules.memo.bytes)
      await compare(big, 'k3')
      parsed()
      await compare(big, 'k3')
      expect(parsed()).toBe(2)
    } finally {
      parse.mockRestore()
    }
  })

  it('skips an answer past its node bound instead of walking it', async () => {
    const big = { a: Array.from({ length: compareRules.limits.nodes + 1 }, (_, i) => i) }
    const o = await new Comparer().compare(op, json(big), json(big), () => json(big), 'k')
    expect(o.result).toBe('skipped')
  })
})

describe('examples', () => {
  it('are cut without serialising the whole subtree', () => {
    let serialised = 0
    const item = Object.defineProperty({}, 'x', { enumerable: true, get: () => ++serialised })
    const d = {
      path: 'a',
      at: 'a',
      kind: 'missing',
      v2: Array.from({ length: 100_000 }, () => item),
    } as unknown as Difference
    const example = exampleOf(d)
    expect(example.length).toBeLessThanOrEqual(compareRules.examples.length)
    expect(example.startsWith('[{"x":1},{"x":2}')).toBe(true)
    expect(serialised).toBeLessThan(100)
  })
})

describe('noise per key', () => {
  const body = (rt: number) => ({
    application: { id: 1, application_summary: { response_time: rt } },
  })

  it("one key's noise never hides another key's difference", async () => {
    const c = new Comparer()
    let r = 100
    // Key a: v2 moves ±1 between its reads, so 100 against 100.5 is noise for a.
    const a = await c.compare(
      op,
      json(body(100)),
      json(body(100.5)),
      () => json(body((r += 0.5))),
      'a'
    )
    expect(a.result).toBe('equal')
    // Key b: v2 does not move; the same difference is reported.
    const b = await c.compare(op, json(body(100)), json(body(100.5)), () => json(body(100)), 'b')
    expect(b.result).toBe('differing')
  })

  it('counts the first comparisons per key: a new key learns from its first call', async () => {
    const c = new Comparer()
    for (let i = 0; i < compareRules.noise.first + 1; i++)
      await c.compare(op, json(body(1)), json(body(1)), () => json(body(1)), 'a')
    let asked = 0
    await c.compare(op, json(body(1)), json(body(1)), () => (asked++, json(body(1))), 'b')
    expect(asked).toBe(compareRules.noise.reads - 1)
  })

  it('learns nothing from a v2 read that failed: a 429 or 503 accounts for no difference', async () => {
    const app = (health: string, rt: number) => ({
      application: { id: 1, health_status: health, application_summary: { response_time: rt } },
    })
    for (const status of [429, 503]) {
      const failed = { error: { title: 'Too many requests' } }
      const o = await new Comparer().compare(
        op,
        json(app('green', 100)),
        json(app('red', 100)),
        () => json(failed, status),
        `failed-${status}`
      )
      expect(o.result, String(status)).toBe('differing')
      expect(o.differences.map((d) => d.path)).toEqual(['application.health_status'])
      expect(o.noisy).toEqual([])
    }
  })

  it('does not count a key v2 refused (401) as an equal comparison', async () => {
    const refused = { error: { title: 'Invalid API key' } }
    const o = await new Comparer().compare(
      op,
      json(refused, 401),
      json(refused, 401),
      () => json(refused, 401),
      'made-up'
    )
    expect(o.result).toBe('skipped')
  })
})

describe("a comparison's v2 reads", () => {
  it("never take the key's NerdGraph slots: with v2 stalled, the key's next read answers", async () => {
    const stalled: (() => void)[] = []
    // v2 stalls until the check is done, then answers: a comparison that starts only after the
    // release (the last read's, once the 25 have given their slots back) must not wait forever.
    let open = false
    const h = compareHarness({ V2_COMPARE: 'bridge', V2_COMPARE_PER_KEY: '25' }, {}, (req, next) =>
      new URL(req.url).pathname.startsWith('/v2/') && !open
        ? new Promise<void>((r) => stalled.push(r)).then(() => next(req))
        : next(req)
    )
    const path = `/v2/applications/9045822/hosts.json`
    for (let i = 0; i < 25; i++) expect((await h.get(path)).status).toBe(200)
    while (stalled.length < 25) await new Promise((r) => setTimeout(r, 10))
    // 25 comparisons wait on v2; the same key's next read still gets NerdGraph at once.
    const next = await h.get(`/v2/applications/9045822.json`, {
      headers: { 'X-Api-Key': DEMO_KEYS.all },
    })
    expect(next.status).toBe(200)
    open = true
    for (const release of stalled.splice(0)) release()
    await h.settled(26)
  }, 60_000)
})

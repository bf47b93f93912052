/**
 * The followers of a coalesced read get a copy of the leader's answer at any depth (issue 40, item
 * 10: `structuredClone` threw past about 2,000 levels, so the leader answered 200 and its followers
 * 500).
 */
import { describe, expect, it } from 'vitest'
import { createSimulator, DEMO_KEYS } from '../../simulator'
import { createApp } from '../../src/app'
import { parseConfig } from '../../src/core/config'
import { copyJson } from '../../src/upstream/json-copy'

const nested = (depth: number, leaf: unknown = 1) => {
  let text = JSON.stringify(leaf)
  for (let i = 0; i < depth; i++) text = i % 2 ? `{"k":${text},"n":${i}}` : `[${text},${i}]`
  return text
}

describe('copyJson', () => {
  it('copies what JSON.parse gives: same values and key order, own __proto__, nothing shared', () => {
    const text = '{"b":1,"a":[{"x":null,"y":[true,"s",2.5]}],"__proto__":{"p":1},"2":"two"}'
    const value = JSON.parse(text) as Record<string, unknown>
    const copy = copyJson(value)
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value))
    expect(Object.keys(copy)).toEqual(['2', 'b', 'a', '__proto__'])
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(copy['a']).not.toBe(value['a'])
    ;(copy['a'] as unknown[]).push('more')
    expect(value['a']).toHaveLength(1)
    expect(copyJson('s')).toBe('s')
    expect(copyJson(null)).toBeNull()
  })

  it('copies a value nested 100,000 deep, where structuredClone throws', () => {
    const value = JSON.parse(nested(3000)) as unknown
    expect(() => structuredClone(value)).toThrow(RangeError)
    let deep: unknown = { a: 1 }
    for (let i = 0; i < 100_000; i++) deep = [deep]
    let copy = copyJson(deep)
    let depth = 0
    while (Array.isArray(copy)) {
      copy = copy[0] as unknown
      depth++
    }
    expect([depth, copy]).toEqual([100_000, { a: 1 }])
  })
})

describe('three identical reads of a NerdGraph answer nested 3,000 deep', () => {
  it('answers all three 200 with the same body', async () => {
    const sim = createSimulator()
    let upstream = 0
    // A NerdGraph that adds a deep field to its answer, and answers after a pause, so the three
    // reads coalesce on one request.
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      upstream++
      const answer = await sim.fetch(new Request(input, init))
      const text = await answer.text()
      await new Promise((r) => setTimeout(r, 200))
      return new Response(text.replace('"actor":{', `"actor":{"deep":${nested(3000)},`), {
        status: answer.status,
        headers: { 'Content-Type': 'application/json' },
      })
    }) as typeof globalThis.fetch
    const app = createApp({
      config: parseConfig({ NERDGRAPH_URL: 'http://simulator.test/graphql', ALLOW_HTTP: 'true' }),
      fetch,
      log: () => {},
    })
    const read = () =>
      app.request('/v2/applications.json?filter[name]=Checkout', {
        headers: { 'X-Api-Key': DEMO_KEYS.all, 'X-Account-Id': '1000001' },
      })
    const answers = await Promise.all([read(), read(), read()])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
    const [first, ...rest] = await Promise.all(answers.map((a) => a.text()))
    expect(rest).toEqual([first, first])
    expect(upstream).toBe(1)
  })
})

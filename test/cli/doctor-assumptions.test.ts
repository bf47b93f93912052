import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { main, type Io } from '../../src/cli/main'
import { assumptionIds, type AssumptionResult } from '../../src/cli/doctor-assumptions'
import { createSimulator, DEMO_KEYS, type SimulatorOptions } from '../../simulator'

const simUrl = 'http://127.0.0.1:9/graphql'
const day = 86_400_000

/** `v2bridge doctor --format json` against a simulator made with `options`. */
async function doctorOn(options: SimulatorOptions = {}, key: string = DEMO_KEYS.all) {
  const sim = createSimulator(options)
  const out: string[] = []
  const io: Io = {
    out: (l) => out.push(l),
    err: (l) => out.push(l),
    env: {},
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      sim.fetch(new Request(input, init))) as typeof fetch,
  }
  const code = await main(
    ['doctor', '--key', key, '--nerdgraph-url', simUrl, '--format', 'json'],
    io
  )
  const report = JSON.parse(out.join('\n')) as { assumptions: AssumptionResult[] }
  const verdicts = Object.fromEntries(report.assumptions.map((a) => [a.id, a.verdict]))
  return { code, verdicts, report }
}

const allConfirmed = Object.fromEntries(assumptionIds.map((id) => [id, 'confirmed']))

describe('v2bridge doctor: the assumptions about NerdGraph', () => {
  it('confirms every assumption on the simulator, which follows the live service by default', async () => {
    const { code, verdicts, report } = await doctorOn()
    expect(verdicts).toEqual(allConfirmed)
    expect(code).toBe(0)
    for (const a of report.assumptions) expect(a.seen.length).toBeGreaterThan(0)
  })

  // Each lenient switch turns back one behaviour the simulator had before it followed the live
  // service (simulator/README.md, "How it differs from the live NerdGraph").
  const lenient: [string, SimulatorOptions, RegExp][] = [
    ['facet-rows', { nrql: { everyFacetKey: true } }, /rows also carry the attributes' keys/],
    ['rollups', { retention: { minuteMs: 90 * day } }, /1-minute data 10 days ago/],
    ['no-access', { access: { forbiddenErrorClass: true } }, /errorClass FORBIDDEN/],
    [
      'rate-limit',
      { limits: { identicalPerUserPerMinute: Infinity } },
      /121 identical queries answered/,
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

  // The switches no read-only probe tells apart (docs/assumptions.md, key-search and nrql-timeout):
  // the probes still answer as on the live service, and claim nothing they did not see.
  const untold: [string, SimulatorOptions][] = [
    ['key-search', { access: { othersKeys: 0 } }],
    ['nrql-timeout', { limits: { cost: false } }],
  ]
  for (const [id, options] of untold) {
    it(`cannot tell ${JSON.stringify(options)} apart, and says ${id} is confirmed still`, async () => {
      const { code, verdicts } = await doctorOn(options)
      expect(verdicts).toEqual(allConfirmed)
      expect(code).toBe(0)
    })
  }

  it('has a section of docs/assumptions.md for every assumption it probes', () => {
    const page = readFileSync(new URL('../../docs/assumptions.md', import.meta.url), 'utf8')
    const headings = [...page.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim())
    expect(headings).toEqual(assumptionIds)
  })
})

import { describe, expect, it } from 'vitest'
import { doctor } from '../../src/cli/doctor'
import { main } from '../../src/cli/main'
import { tagKey } from '../../src/cli/doctor-write-probe'
import { createSimulator, DEMO_KEYS } from '../../simulator'
import { doctorOn, simUrl } from './doctor-run'

const checkout = 'Checkout Service (java)'

describe('v2bridge doctor --write-probe: when a write shows in reads', () => {
  it('sends no write without --write-probe, and says the assumption is not probed', async () => {
    const { code, verdicts, report, mutations } = await doctorOn({
      limits: { writeVisibilityMs: 0 },
    })
    expect(mutations).toEqual([])
    expect(verdicts['write-visibility']).toBe('not probed')
    expect(report.lines).toContain(
      '  not probed    write-visibility: a tag added to an entity shows in entity search only after a delay (writes; run with --write-probe)'
    )
    expect(code).toBe(0)
  })

  it('finds the tag hidden at the first read and shown after the delay, then deletes it', async () => {
    const sim = createSimulator({ limits: { writeVisibilityMs: 300 } })
    const app = sim.dataset.applications().find((a) => a.name === checkout)!
    const sent: string[] = []
    const report = await doctor({
      key: DEMO_KEYS.all,
      endpoint: simUrl,
      writeProbe: { entity: app.guid, pollMs: 50 },
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init)
        const { query } = (await request.clone().json()) as { query: string }
        if (query.trimStart().startsWith('mutation')) sent.push(query.trim().split(/[\s(]/)[1]!)
        return sim.fetch(request)
      }) as typeof fetch,
    })
    const result = report.assumptions!.find((a) => a.id === 'write-visibility')!
    expect(result.verdict).toBe('confirmed')
    expect(result.seen).toMatch(
      /^not visible at the first read; visible \d+\.\d s after the write$/
    )
    const delay = Number(/visible (\S+) s after/.exec(result.seen)![1])
    expect(delay).toBeGreaterThanOrEqual(0.3)
    expect(delay).toBeLessThan(30)
    // Each mutation once: the add, then the delete.
    expect(sent).toEqual(['AddLabel', 'DeleteLabel'])
    await new Promise((resolve) => setTimeout(resolve, 350))
    const tags = sim.dataset.entityByGuid(app.guid)!.tags()
    expect(tags.find((t) => t.key === tagKey)).toBeUndefined()
    expect(report.ok).toBe(true)
  })

  it('says write-visibility is contradicted when the tag shows at once (writeVisibilityMs: 0)', async () => {
    const { code, verdicts, report, mutations } = await doctorOn(
      { limits: { writeVisibilityMs: 0 } },
      { args: ['--write-probe'] }
    )
    expect(verdicts['write-visibility']).toBe('contradicted')
    const result = report.assumptions.find((a) => a.id === 'write-visibility')!
    expect(result.seen).toBe('visible at the first read after the write')
    expect(result.covers).toContain('docs/assumptions.md#write-visibility')
    expect(mutations).toEqual(['AddLabel', 'DeleteLabel'])
    expect(code).toBe(1)
  })

  it('names the tag and the entity, and exits 1, when the delete fails; it never retries', async () => {
    const { code, report, mutations } = await doctorOn(
      { limits: { writeVisibilityMs: 0 } },
      {
        args: ['--write-probe'],
        intercept: (query) =>
          query.includes('DeleteLabel')
            ? Response.json({ errors: [{ message: 'Internal Server Error' }] }, { status: 500 })
            : undefined,
      }
    )
    expect(mutations).toEqual(['AddLabel', 'DeleteLabel'])
    const left = report.lines.find((l) => l.includes("the write probe's tag is left"))
    expect(left).toMatch(
      /^fail {6}the write probe's tag is left: remove the tag "v2bridge-doctor: [0-9a-f-]{36}" from entity \S+ \(the delete failed: Internal Server Error\)$/
    )
    expect(code).toBe(1)
  })

  it('refuses --entity without --write-probe', async () => {
    const sim = createSimulator()
    const out: string[] = []
    const code = await main(
      ['doctor', '--key', DEMO_KEYS.all, '--nerdgraph-url', simUrl, '--entity', 'MXxBUE18'],
      {
        out: (l) => out.push(l),
        err: (l) => out.push(l),
        env: {},
        fetch: ((i: RequestInfo | URL, init?: RequestInit) =>
          sim.fetch(new Request(i, init))) as typeof fetch,
      }
    )
    expect(code).toBe(2)
    expect(out.join('\n')).toContain('--entity goes with --write-probe')
  })
})

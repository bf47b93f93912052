/** `v2bridge doctor` against an in-process simulator, for the doctor tests. */
import { main, type Io } from '../../src/cli/main'
import type { AssumptionResult } from '../../src/cli/doctor-assumptions'
import { createSimulator, DEMO_KEYS, type SimulatorOptions } from '../../simulator'

export const simUrl = 'http://127.0.0.1:9/graphql'

export interface DoctorRun {
  /** More arguments of `doctor` (`--write-probe`). */
  args?: string[]
  key?: string
  /** Answers a request instead of the simulator when it returns a response (a fault of one call). */
  intercept?: (query: string) => Response | undefined
}

/** `v2bridge doctor --format json` against a simulator made with `options`; `mutations` are the
 * GraphQL mutations doctor sent, in order. */
export async function doctorOn(options: SimulatorOptions = {}, run: DoctorRun = {}) {
  const sim = createSimulator(options)
  const out: string[] = []
  const mutations: string[] = []
  const io: Io = {
    out: (l) => out.push(l),
    err: (l) => out.push(l),
    env: {},
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      const { query } = (await request.clone().json()) as { query: string }
      const mutation = /^\s*mutation\s+(\w+)/.exec(query)
      if (mutation) mutations.push(mutation[1]!)
      return run.intercept?.(query) ?? sim.fetch(request)
    }) as typeof fetch,
  }
  const key = run.key ?? DEMO_KEYS.all
  const code = await main(
    ['doctor', '--key', key, '--nerdgraph-url', simUrl, '--format', 'json', ...(run.args ?? [])],
    io
  )
  const report = JSON.parse(out.join('\n')) as { lines: string[]; assumptions: AssumptionResult[] }
  const verdicts = Object.fromEntries(report.assumptions.map((a) => [a.id, a.verdict]))
  return { code, verdicts, report, mutations, sim }
}

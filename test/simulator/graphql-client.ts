/** Helpers for simulator tests: a fixed clock and a tiny GraphQL client over `Simulator.fetch`. */
import { createSimulator, DEMO_KEYS, type LiveLimits, type Simulator } from '../../simulator'

/** 2025-04-15T12:34:56.789Z: tests never depend on the wall clock. */
export const NOW = Date.UTC(2025, 3, 15, 12, 34, 56, 789)
export const MINUTE = 60_000

/** `limits`: a live limit a test shrinks or switches off, named there. */
export function fixedSimulator(seed?: number, limits?: Partial<LiveLimits>): Simulator {
  return createSimulator({
    now: () => NOW,
    ...(seed === undefined ? {} : { seed }),
    ...(limits ? { limits } : {}),
  })
}

/** The switch a test turns off to read its own write through NerdGraph at once (writes show after
 * a delay by default: simulator/data/visibility.ts, with its own test in test/simulator/live-limits.test.ts). */
export const writesShowAtOnce = { writeVisibilityMs: 0 } as const

export interface GraphResponse {
  status: number
  body: {
    data?: Record<string, unknown> | null
    errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[]
  }
}

export function post(
  sim: Simulator,
  query: string,
  variables: Record<string, unknown> = {},
  key: string | null = DEMO_KEYS.all
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (key !== null) headers['API-Key'] = key
  return sim.fetch(
    new Request('http://simulator.test/graphql', {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables }),
    })
  )
}

export async function gql(
  sim: Simulator,
  query: string,
  variables: Record<string, unknown> = {},
  key: string | null = DEMO_KEYS.all
): Promise<GraphResponse> {
  const response = await post(sim, query, variables, key)
  return { status: response.status, body: (await response.json()) as GraphResponse['body'] }
}

/** Reads a nested property path from GraphQL data. */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  let current = value
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string | number, unknown>)[key]
  }
  return current
}

export { DEMO_KEYS }

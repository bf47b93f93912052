import { describe, expect, it } from 'vitest'
import { at, DEMO_KEYS, fixedSimulator, gql, MINUTE, NOW } from './graphql-client'

const nrql = `query($a: Int!, $q: Nrql!) { actor { account(id: $a) {
  nrql(query: $q) { results metadata { facets eventTypes } otherResult } } } }`
type Row = Record<string, unknown>
const until = Math.floor(NOW / MINUTE) * MINUTE
const window = `SINCE ${until - 10 * MINUTE} UNTIL ${until}`

async function run(sim: ReturnType<typeof fixedSimulator>, q: string) {
  const { body } = await gql(sim, nrql, { a: 1000001, q })
  const field = at(body, 'data', 'actor', 'account', 'nrql') as {
    results: Row[]
    metadata: { facets: string[] | null; eventTypes: string[] }
    otherResult: Row | null
  } | null
  return { field, errors: (body as { errors?: { message: string; extensions: Row }[] }).errors }
}

/** Minutes (epoch ms) in which the application served web or other transactions. */
function minutesWithCalls(sim: ReturnType<typeof fixedSimulator>, appId: number): number[] {
  const from = until - 10 * MINUTE
  const rows = ['HttpDispatcher', 'OtherTransaction/all'].flatMap((name) =>
    sim.dataset.timeslices({ appId, name, from, to: until })
  )
  return [...new Set(rows.filter((r) => r.value.count > 0).map((r) => r.timestamp))].sort()
}

describe('simulator NRQL FROM Transaction', () => {
  it('answers the newest event of an application inside its last minute with calls, at a second not :00', async () => {
    const sim = fixedSimulator()
    const { field } = await run(
      sim,
      `SELECT max(timestamp) AS 'lastEvent' FROM Transaction WHERE appId IN ('9045822') FACET appId ${window} LIMIT MAX`
    )
    expect(field?.metadata).toEqual({ facets: ['appId'], eventTypes: ['Transaction'] })
    expect(field?.results).toHaveLength(1)
    const row = field!.results[0]!
    expect(row['facet']).toBe(9045822)
    const last = row['lastEvent'] as number
    const minute = Math.floor(last / MINUTE) * MINUTE
    expect(minute).toBe(minutesWithCalls(sim, 9045822).at(-1))
    expect(last % MINUTE).toBeGreaterThanOrEqual(1000)
  })

  it('is the time the v2 stand-in gives as last_reported_at, to the second', async () => {
    const sim = fixedSimulator()
    const { field } = await run(
      sim,
      `SELECT max(timestamp) FROM Transaction WHERE appId = 9045866 ${window}`
    )
    const last = field!.results[0]!['max.timestamp'] as number
    const v2 = await sim.fetch(
      new Request('http://sim/v2/applications/9045866.json', {
        headers: { 'X-Api-Key': DEMO_KEYS.all },
      })
    )
    const record = ((await v2.json()) as { application: Row }).application
    expect(record['last_reported_at']).toBe(
      new Date(Math.floor(last / 1000) * 1000).toISOString().replace('.000Z', '+00:00')
    )
  })

  it('ranks facets by the newest event, cuts at LIMIT into otherResult and takes orderings in WHERE', async () => {
    const sim = fixedSimulator()
    const all = await run(
      sim,
      `SELECT max(timestamp) FROM Transaction FACET appId ${window} LIMIT MAX`
    )
    const rows = all.field!.results
    expect(rows.length).toBeGreaterThan(400)
    const times = rows.map((r) => r['max.timestamp'] as number)
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(rows.map((r) => r['facet'])).not.toContain(9045874) // stopped two days ago
    const three = await run(
      sim,
      `SELECT max(timestamp) FROM Transaction FACET appId ${window} LIMIT 3`
    )
    expect(three.field!.results).toEqual(rows.slice(0, 3))
    expect(three.field!.otherResult).toEqual({ 'max.timestamp': times[3] })
    const ranged = await run(
      sim,
      `SELECT max(timestamp) FROM Transaction WHERE appId >= 9045822 AND appId < 9045851 FACET appId ${window} LIMIT MAX`
    )
    expect(ranged.field!.results.map((r) => r['facet']).sort()).toEqual([9045822, 9045837])
  })

  it('answers null when no event is in the window, and refuses what it does not hold', async () => {
    const sim = fixedSimulator()
    const none = await run(
      sim,
      `SELECT max(timestamp) FROM Transaction WHERE appId = 9045874 ${window}`
    )
    expect(none.field!.results).toEqual([{ 'max.timestamp': null }])
    for (const q of [
      'SELECT count(*) FROM Transaction',
      'SELECT max(duration) FROM Transaction',
      'SELECT max(timestamp) FROM Transaction FACET name',
    ]) {
      const { errors } = await run(sim, q)
      expect(errors?.[0]?.extensions['errorClass']).toBe('INVALID_INPUT')
    }
  })
})

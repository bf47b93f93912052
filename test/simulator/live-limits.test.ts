/**
 * The live limits the simulator enforces by default (README "How it differs from the live
 * NerdGraph"), each tested with its figure shrunk: the NRQL rate limits, concurrency per user, the
 * query timeout and the delay before a write shows in reads. The limits run on a wall clock the
 * tests drive (`wallClock`); the dataset's clock is fixed.
 */
import { describe, expect, it } from 'vitest'
import { apmGuid, createSimulator, DEMO_KEYS, LIVE_LIMITS, type LiveLimits } from '../../simulator'
import { userLane } from '../../simulator/server/limits'
import { at, gql, NOW, post } from './graphql-client'

const NRQL =
  'query($a: Int!, $q: Nrql!, $t: Seconds) { actor { account(id: $a) { nrql(query: $q, timeout: $t) { results } } } }'
const small =
  "SELECT count(newrelic.timeslice.value) FROM Metric WHERE appId = 9045822 AND metricTimesliceName = 'HttpDispatcher' SINCE 30 minutes ago" // 210 rows
const large =
  'SELECT count(newrelic.timeslice.value) FROM Metric WHERE appId = 9045822 SINCE 30 minutes ago' // 4,740 rows

function simulator(limits: Partial<LiveLimits>) {
  const clock = { now: 1_000_000 }
  const sim = createSimulator({ now: () => NOW, limits, wallClock: () => clock.now })
  return { sim, clock }
}

const nrql = (
  sim: ReturnType<typeof createSimulator>,
  q: string,
  {
    key = DEMO_KEYS.all,
    account = 1000002,
    timeout,
  }: { key?: string; account?: number; timeout?: number } = {}
) => post(sim, NRQL, { a: account, q, ...(timeout === undefined ? {} : { t: timeout }) }, key)

const statuses = async (responses: Promise<Response>[]) =>
  Promise.all(responses.map(async (r) => (await r).status))

describe('the live limits by default', () => {
  it('are the documented figures, shown by GET /_sim/limits', async () => {
    const res = await createSimulator().fetch(new Request('http://sim.test/_sim/limits'))
    expect(await res.json()).toEqual({
      perAccountPerMinute: 3000,
      identicalPerUserPerMinute: 120,
      cost: { baseMs: 1, msPerThousandRows: 0.1, clockScale: 1 },
      concurrentPerUser: 25,
      writeVisibilityMs: 60_000,
    })
    expect(LIVE_LIMITS.writeVisibilityMs).toBe(60_000)
  })

  it('change through POST /_sim/limits (null switches one off) and come back on reset', async () => {
    const sim = createSimulator()
    const set = (body: unknown) =>
      sim.fetch(
        new Request('http://sim.test/_sim/limits', { method: 'POST', body: JSON.stringify(body) })
      )
    const changed = await set({ identicalPerUserPerMinute: null, writeVisibilityMs: 200 })
    expect(await changed.json()).toMatchObject({
      identicalPerUserPerMinute: null,
      writeVisibilityMs: 200,
    })
    expect((await set({ concurrentPerUser: 0 })).status).toBe(400)
    expect((await set({ nope: 1 })).status).toBe(400)
    sim.reset()
    const back = await sim.fetch(new Request('http://sim.test/_sim/limits'))
    expect(await back.json()).toMatchObject({
      identicalPerUserPerMinute: 120,
      writeVisibilityMs: 60_000,
    })
  })
})

describe('NRQL rate limits (docs "Rate limits with NRQL")', () => {
  it('answers HTTP 429 past N runs of one identical query per user a minute, until the minute has passed', async () => {
    const { sim, clock } = simulator({ identicalPerUserPerMinute: 5 })
    expect(await statuses(Array.from({ length: 5 }, () => nrql(sim, small)))).toEqual(
      Array(5).fill(200)
    )
    const sixth = await nrql(sim, small)
    expect(sixth.status).toBe(429)
    expect(sixth.headers.get('retry-after')).toBeNull() // none on record: the simulator sends none
    expect(await sixth.json()).toEqual({
      errors: [{ message: 'Too many requests', extensions: { errorClass: 'TOO_MANY_REQUESTS' } }],
    })
    // another query, and the same query of another user, still run
    expect((await nrql(sim, `${small} LIMIT 5`)).status).toBe(200)
    expect((await nrql(sim, small, { key: DEMO_KEYS.one })).status).toBe(200)
    // refused runs count too: still refused 59 s after the first five
    clock.now += 59_000
    expect((await nrql(sim, small)).status).toBe(429)
    clock.now += 60_001
    expect((await nrql(sim, small)).status).toBe(200)
  })

  it('answers HTTP 429 past N queries of one account a minute, whoever asks; other accounts run', async () => {
    const { sim, clock } = simulator({ perAccountPerMinute: 5 })
    const distinct = Array.from({ length: 5 }, (_, i) => nrql(sim, `${small} LIMIT ${i + 1}`))
    expect(await statuses(distinct)).toEqual(Array(5).fill(200))
    expect((await nrql(sim, `${small} LIMIT 6`, { key: DEMO_KEYS.one })).status).toBe(429)
    expect((await nrql(sim, small, { account: 1000001 })).status).toBe(200)
    clock.now += 60_001
    expect((await nrql(sim, small)).status).toBe(200)
  })

  it('refuses the whole request when one of its queries is past a limit', async () => {
    const { sim } = simulator({ identicalPerUserPerMinute: 1 })
    expect((await nrql(sim, small)).status).toBe(200)
    const two = `query($q: Nrql!, $r: Nrql!) { actor { account(id: 1000002) {
      a: nrql(query: $q) { results } b: nrql(query: $r) { results } } } }`
    expect((await post(sim, two, { q: large, r: small })).status).toBe(429)
  })

  it('is off with the lenient switch Infinity', async () => {
    const { sim } = simulator({ identicalPerUserPerMinute: Infinity })
    const seen = new Set<number>()
    for (let i = 0; i < 130; i++) seen.add((await nrql(sim, small)).status)
    expect(seen).toEqual(new Set([200]))
  })
})

describe('concurrency (docs "NerdGraph usage limits")', () => {
  it('counts requests in flight per user, every key of the user together', () => {
    const principal = (label: string, id: number) => ({
      label,
      user: { id, email: '', name: '' },
      accountIds: new Set<number>(),
      homeAccountId: 1,
      admin: false,
    })
    expect(userLane(principal('NRAK-A…1', 4100001))).toBe(userLane(principal('NRAK-B…2', 4100001)))
    expect(userLane(principal('NRAK-A…1', 4100001))).not.toBe(
      userLane(principal('NRAK-A…1', 4100002))
    )
  })

  it('answers HTTP 429 to the user past N requests in flight while another user runs', async () => {
    const { sim } = simulator({ concurrentPerUser: 2 })
    await sim.fetch(
      new Request('http://sim.test/_sim/faults', { method: 'POST', body: '{"latencyMs":100}' })
    )
    const held = [nrql(sim, small), nrql(sim, small)]
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect((await nrql(sim, `${small} LIMIT 1`)).status).toBe(429)
    expect((await nrql(sim, small, { key: DEMO_KEYS.one })).status).toBe(200)
    expect(await statuses(held)).toEqual([200, 200])
  })
})

/** Holds this thread for `ms`, as a long collection or a busy machine holds the simulator's. */
function busy(ms: number) {
  const end = performance.now() + ms
  while (performance.now() < end);
}

describe('requests side by side on one thread (docs "NerdGraph usage limits")', () => {
  // Every query models 400 ms: 0 ms a row plus 400 ms each.
  const slow = { baseMs: 400, msPerThousandRows: 0, clockScale: 1 }
  const query = (i: number) => `${small} LIMIT ${i + 1}`

  it("counts a query's modeled time from its request's admission, not from its turn on the thread", async () => {
    const { sim } = simulator({ cost: slow })
    // Admitted together, then the thread is held 600 ms before any query runs: NerdGraph would have
    // run the five side by side and answered each 400 ms after it came, so all are due at once.
    const held = Array.from({ length: 5 }, (_, i) => nrql(sim, query(i)))
    busy(600)
    const freed = performance.now()
    expect(await statuses(held)).toEqual([200, 200, 200, 200, 200])
    // Counted from each query's own turn, they would still wait their 400 ms.
    expect(performance.now() - freed).toBeLessThan(250)
  })
})

describe('query cost and timeout (schema `Account.nrql`; docs "Rate limits with NRQL")', () => {
  // 10 ms a row, waited 10,000 times faster: the small query models 2.1 s, the large one 47 s.
  const cost = { baseMs: 0, msPerThousandRows: 10_000, clockScale: 0.0001 }

  it('answers the live TIMEOUT error past 5 s by default: HTTP 200, nrql null, errorClass TIMEOUT', async () => {
    const { sim } = simulator({ cost })
    const { status, body } = await gql(sim, NRQL, { a: 1000001, q: large })
    expect(status).toBe(200)
    expect(body.data).toEqual({ actor: { account: { nrql: null } } })
    expect(body.errors).toHaveLength(1)
    expect(body.errors![0]).toMatchObject({
      message: 'NRDB query duration exceeded the set timeout',
      path: ['actor', 'account', 'nrql'],
      extensions: { errorClass: 'TIMEOUT' },
    })
    expect((await gql(sim, NRQL, { a: 1000001, q: small })).body.errors).toBeUndefined()
  })

  it('takes `timeout:` clamped to 5–120 s', async () => {
    const { sim } = simulator({ cost })
    const run = async (t: number) =>
      at((await gql(sim, NRQL, { a: 1000001, q: large, t })).body, 'errors', 0, 'extensions')
    expect(await run(60)).toBeUndefined()
    expect(await run(600)).toBeUndefined() // 120 s: still over 47 s
    expect(await run(1)).toEqual({ errorClass: 'TIMEOUT' }) // 5 s
  })

  it('waits longer for more rows', async () => {
    const { sim } = simulator({ cost: { baseMs: 0, msPerThousandRows: 10, clockScale: 1 } })
    const timed = async (q: string) => {
      const started = performance.now()
      await gql(sim, NRQL, { a: 1000001, q })
      return performance.now() - started
    }
    await timed(small) // compiled once
    expect(await timed(large)).toBeGreaterThanOrEqual(45) // 4,740 rows × 10 µs
  })
})

describe('write visibility (terraform-provider-newrelic #791, #1556)', () => {
  const guid = apmGuid(1000001, 9045837)
  const read = `query($g: EntityGuid!) { actor { entity(guid: $g) { name tags { key values } ...on ApmApplicationEntity {
    deploymentSearch(filter: { timeWindow: { startTime: ${NOW - 3_600_000}, endTime: ${NOW} } }) { results { version } } } } } }`
  const tag = `mutation($g: EntityGuid!) { taggingAddTagsToEntity(guid: $g, tags: [{ key: "Tier", values: ["Gold"] }]) { errors { type } } }`
  const rename = `mutation($g: EntityGuid!) { agentApplicationSettingsUpdate(guid: $g, settings: { alias: "Storefront 2" }) { name } }`
  const deploy = `mutation($g: EntityGuid!) { changeTrackingCreateDeployment(deployment: { entityGuid: $g, version: "9.9.9", timestamp: ${NOW - 60_000} }) { version } }`
  const seen = async (sim: ReturnType<typeof createSimulator>) => {
    const entity = at((await gql(sim, read, { g: guid })).body, 'data', 'actor', 'entity') as {
      name: string
      tags: { key: string }[]
      deploymentSearch: { results: { version: string }[] }
    }
    return {
      name: entity.name,
      tier: entity.tags.some((t) => t.key === 'Tier'),
      deployed: entity.deploymentSearch.results.some((d) => d.version === '9.9.9'),
    }
  }

  it('shows a tag, a rename and a deployment in reads only after the delay; the mutations answer them at once', async () => {
    const { sim, clock } = simulator({ writeVisibilityMs: 200 })
    const before = await seen(sim)
    expect(before).toEqual({ name: 'Storefront (ruby)', tier: false, deployed: false })
    expect((await gql(sim, tag, { g: guid })).body.data).toEqual({
      taggingAddTagsToEntity: { errors: [] },
    })
    expect(at((await gql(sim, rename, { g: guid })).body, 'data')).toEqual({
      agentApplicationSettingsUpdate: { name: 'Storefront 2' },
    })
    expect(at((await gql(sim, deploy, { g: guid })).body, 'data')).toEqual({
      changeTrackingCreateDeployment: { version: '9.9.9' },
    })
    clock.now += 199
    expect(await seen(sim)).toEqual(before)
    // the v2 stand-in, as v2 did, shows the rename at once
    const v2 = await sim.fetch(
      new Request('http://sim.test/v2/applications/9045837.json', {
        headers: { 'X-Api-Key': DEMO_KEYS.all },
      })
    )
    expect(at(await v2.json(), 'application', 'name')).toBe('Storefront 2')
    clock.now += 1
    expect(await seen(sim)).toEqual({ name: 'Storefront 2', tier: true, deployed: true })
  })

  it('builds a second tag write on the first even before it shows', async () => {
    const { sim, clock } = simulator({ writeVisibilityMs: 200 })
    await gql(sim, tag, { g: guid })
    const second = tag.replace('"Tier", values: ["Gold"]', '"Zone", values: ["A"]')
    await gql(sim, second, { g: guid })
    clock.now += 200
    const tags = at(
      (await gql(sim, read, { g: guid })).body,
      'data',
      'actor',
      'entity',
      'tags'
    ) as {
      key: string
    }[]
    expect(tags.map((t) => t.key)).toEqual(expect.arrayContaining(['Tier', 'Zone']))
  })
})

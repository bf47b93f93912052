import { describe, expect, it } from 'vitest'
import { apmGuid } from '../../simulator'
import { at, DEMO_KEYS, fixedSimulator, writesShowAtOnce, gql, NOW } from './graphql-client'

const guid = apmGuid(1000001, 9045822)
const nrql = `query($a: Int!, $q: Nrql!) { actor { account(id: $a) { nrql(query: $q) { results metadata { eventTypes } } } } }`
const search = `query($g: EntityGuid!, $f: ChangeTrackingSearchFilter) { actor { entity(guid: $g) {
  ... on ApmApplicationEntity { deploymentSearch(filter: $f) { results { deploymentId version timestamp } } } } } }`
const create = `mutation($d: ChangeTrackingDeploymentInput!) {
  changeTrackingCreateDeployment(deployment: $d) { deploymentId timestamp } }`
// New Relic docs "Query your change tracking data": deployments of both kinds of change event
const docsQuery = (g: string) =>
  `FROM ChangeTrackingEvent, Deployment SELECT eventType(), deploymentId OR changeTrackingId AS 'id', * ` +
  `WHERE (eventType() = 'Deployment' OR (eventType() = 'ChangeTrackingEvent' AND category = 'Deployment')) ` +
  `AND entity.guid = '${g}' SINCE 1 WEEK AGO LIMIT 100`
type Row = Record<string, unknown>

async function run(
  sim: ReturnType<typeof fixedSimulator>,
  q: string,
  account = 1000001,
  key?: string
) {
  const { body } = await gql(sim, nrql, { a: account, q }, key)
  return {
    rows: (at(body, 'data', 'actor', 'account', 'nrql', 'results') ?? []) as Row[],
    errors: (body as { errors?: { message: string }[] }).errors,
  }
}

describe('simulator NRQL FROM Deployment', () => {
  it('answers the seeded history the deployment search shows, newest first, with its attributes', async () => {
    const sim = fixedSimulator()
    const week = { startTime: NOW - 7 * 86_400_000, endTime: NOW }
    const searched = at(
      (await gql(sim, search, { g: guid, f: { timeWindow: week } })).body,
      'data',
      'actor',
      'entity',
      'deploymentSearch',
      'results'
    ) as { deploymentId: string; version: string; timestamp: number }[]
    expect(searched.length).toBeGreaterThan(0)
    const { rows } = await run(
      sim,
      `SELECT * FROM Deployment WHERE entity.guid = '${guid}' SINCE 1 week ago`
    )
    expect(rows.map((r) => [r['deploymentId'], r['version'], r['timestamp']])).toEqual(
      searched.map((d) => [d.deploymentId, d.version, d.timestamp])
    )
    expect(rows[0]).toMatchObject({
      'entity.guid': guid,
      'entity.name': 'Checkout Service (java)',
      deploymentType: 'BASIC',
    })
    const counted = await run(
      sim,
      `SELECT count(*) FROM Deployment WHERE entity.name LIKE 'Checkout%' SINCE 1 week ago`
    )
    expect(counted.rows).toEqual([{ count: searched.length }])
  })

  it('shows a deployment the mutation just recorded in the next query, and forgets it on reset', async () => {
    const sim = fixedSimulator(undefined, writesShowAtOnce)
    const d = {
      entityGuid: guid,
      version: 'v9.9.9',
      user: 'ci',
      description: 'nrql',
      timestamp: NOW - 1000,
    }
    const made = at(
      (await gql(sim, create, { d })).body,
      'data',
      'changeTrackingCreateDeployment'
    ) as {
      deploymentId: string
    }
    const { rows } = await run(sim, docsQuery(guid))
    expect(rows[0]).toMatchObject({
      eventType: 'Deployment',
      id: made.deploymentId,
      deploymentId: made.deploymentId,
      version: 'v9.9.9',
      user: 'ci',
      description: 'nrql',
      timestamp: NOW - 1000,
    })
    expect(rows[0]).not.toHaveProperty('changelog') // absent attributes stay out of SELECT *
    const named = await run(
      sim,
      `SELECT version, changelog FROM Deployment WHERE version = 'v9.9.9'`
    )
    expect(named.rows).toEqual([{ version: 'v9.9.9', changelog: null }])
    // another account's NRQL does not see it; nor does ChangeTrackingEvent alone
    expect(
      (await run(sim, `SELECT count(*) FROM Deployment SINCE 1 week ago`, 1000002)).rows
    ).toEqual([{ count: 0 }])
    expect(
      (await run(sim, `SELECT count(*) FROM ChangeTrackingEvent SINCE 1 week ago`)).rows
    ).toEqual([{ count: 0 }])
    await sim.fetch(new Request('http://sim/_sim/reset', { method: 'POST' }))
    expect((await run(sim, `SELECT * FROM Deployment WHERE version = 'v9.9.9'`)).rows).toEqual([])
  })

  it('answers LIMIT, NOT, IN and IS NULL, and refuses event types it does not hold', async () => {
    const sim = fixedSimulator()
    const base = `FROM Deployment SINCE 2 weeks ago`
    const all = (await run(sim, `SELECT deploymentId ${base} LIMIT MAX`)).rows
    expect(all.length).toBeGreaterThan(6)
    expect((await run(sim, `SELECT deploymentId ${base} LIMIT 3`)).rows).toEqual(all.slice(0, 3))
    const noDescription = (
      await run(sim, `SELECT count(*) ${base.replace('SINCE', 'WHERE description IS NULL SINCE')}`)
    ).rows
    const withDescription = (
      await run(
        sim,
        `SELECT count(*) FROM Deployment WHERE NOT description IS NULL SINCE 2 weeks ago`
      )
    ).rows
    expect((noDescription[0]!['count'] as number) + (withDescription[0]!['count'] as number)).toBe(
      all.length
    )
    const inList = await run(
      sim,
      `SELECT count(*) FROM Deployment WHERE entity.guid IN ('${guid}', 'x') SINCE 2 weeks ago`
    )
    const eq = await run(
      sim,
      `SELECT count(*) FROM Deployment WHERE entity.guid = '${guid}' SINCE 2 weeks ago`
    )
    expect(inList.rows).toEqual(eq.rows)
    const refused = await run(sim, `SELECT * FROM Deployment, Transaction`)
    expect(refused.errors?.[0]?.message).toContain("not 'Transaction'")
    expect(
      (await run(sim, `SELECT * FROM Deployment`, 1000001, DEMO_KEYS.all)).errors
    ).toBeUndefined()
  })
})

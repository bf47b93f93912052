import { describe, expect, it } from 'vitest'
import { apmGuid } from '../../simulator'
import { at, DEMO_KEYS, fixedSimulator, writesShowAtOnce, gql, NOW } from './graphql-client'

const guid = apmGuid(1000001, 9045822)
const DAY = 86_400_000
const search = `query($g: EntityGuid!, $f: ChangeTrackingSearchFilter) { actor { entity(guid: $g) {
  ... on ApmApplicationEntity { deploymentSearch(filter: $f) { results { deploymentId version timestamp user } } } } } }`
const create = `mutation($d: ChangeTrackingDeploymentInput!, $r: ChangeTrackingDataHandlingRules) {
  changeTrackingCreateDeployment(deployment: $d, dataHandlingRules: $r) { deploymentId entityGuid version changelog timestamp deploymentType } }`
const results = (body: unknown) =>
  at(body, 'data', 'actor', 'entity', 'deploymentSearch', 'results') as {
    deploymentId: string
    version: string
    timestamp: number
  }[]
const wide = { startTime: NOW - 30 * DAY, endTime: NOW }

describe('simulator change tracking', () => {
  it('seeds a deployment history for the showcase apps, newest first, within the past hour by default', async () => {
    const sim = fixedSimulator()
    const all = results((await gql(sim, search, { g: guid, f: { timeWindow: wide } })).body)
    expect(all.length).toBeGreaterThanOrEqual(4)
    expect(all.map((d) => d.timestamp)).toEqual(
      [...all.map((d) => d.timestamp)].sort((a, b) => b - a)
    )
    for (const d of all)
      expect(d.deploymentId).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
      )
    expect(results((await gql(sim, search, { g: guid })).body)).toEqual(
      all.filter((d) => d.timestamp >= NOW - 3_600_000)
    )
    expect(
      results((await gql(sim, search, { g: guid, f: { timeWindow: wide, limit: 2 } })).body)
    ).toEqual(all.slice(0, 2))
    // the same history for the same seed
    expect(
      results((await gql(fixedSimulator(), search, { g: guid, f: { timeWindow: wide } })).body)
    ).toEqual(all)
  })

  it('records a deployment the next search and the legacy deployments field show', async () => {
    const sim = fixedSimulator(undefined, writesShowAtOnce)
    const made = await gql(sim, create, {
      d: { entityGuid: guid, version: '1.2.3', changelog: 'c' },
    })
    const created = at(made.body, 'data', 'changeTrackingCreateDeployment') as Record<
      string,
      unknown
    >
    expect(created).toMatchObject({
      entityGuid: guid,
      version: '1.2.3',
      changelog: 'c',
      timestamp: NOW,
      deploymentType: 'BASIC',
    })
    const first = results((await gql(sim, search, { g: guid })).body)[0]
    expect(first?.deploymentId).toBe(created['deploymentId'])
    const legacy = await gql(
      sim,
      `query($g: EntityGuid!) { actor { entity(guid: $g) { ... on ApmApplicationEntity { deployments { revision timestamp } } } } }`,
      { g: guid }
    )
    expect(at(legacy.body, 'data', 'actor', 'entity', 'deployments', 0)).toEqual({
      revision: '1.2.3',
      timestamp: NOW,
    })
  })

  it('validates as NerdGraph does, with errors beside a null field', async () => {
    const sim = fixedSimulator()
    const cases: [Record<string, unknown>, string, string][] = [
      [{ entityGuid: guid, version: ' ' }, 'INVALID_INPUT', 'version must not be blank'],
      [
        { entityGuid: guid, version: 'v', timestamp: NOW - DAY - 1 },
        'INVALID_INPUT',
        'timestamp can not be more than 24 hours in the past or future. Make sure to use epoch milliseconds for timestamp.',
      ],
      [
        { entityGuid: guid, version: 'v', timestamp: NOW + DAY + 1 },
        'INVALID_INPUT',
        'timestamp can not be more than 24 hours in the past or future. Make sure to use epoch milliseconds for timestamp.',
      ],
      [
        { entityGuid: apmGuid(1000001, 1), version: 'v' },
        'NOT_FOUND',
        `Entity not found: ${apmGuid(1000001, 1)}`,
      ],
    ]
    for (const [d, errorClass, message] of cases) {
      const { status, body } = await gql(sim, create, { d })
      expect(status).toBe(200)
      expect(body.data).toEqual({ changeTrackingCreateDeployment: null })
      expect(body.errors?.[0]).toMatchObject({
        message,
        path: ['changeTrackingCreateDeployment'],
        extensions: { errorClass },
      })
    }
    // an app of an account the key cannot see
    const hidden = await gql(sim, create, { d: { entityGuid: guid, version: 'v' } }, DEMO_KEYS.one)
    expect(hidden.body.errors?.[0]?.extensions).toEqual({ errorClass: 'NOT_FOUND' })
    // a missing version is a GraphQL validation error
    const missing = await gql(sim, create, { d: { entityGuid: guid } })
    expect(missing.body.errors?.[0]?.message).toMatch(/version/)
  })

  it('trims text over 4,095 characters with an ellipsis unless FAIL_ON_FIELD_LENGTH', async () => {
    const sim = fixedSimulator()
    const long = 'x'.repeat(5000)
    const trimmed = await gql(sim, create, {
      d: { entityGuid: guid, version: 'v', changelog: long },
    })
    const changelog = at(
      trimmed.body,
      'data',
      'changeTrackingCreateDeployment',
      'changelog'
    ) as string
    expect(changelog).toHaveLength(4095)
    expect(changelog.endsWith('x…')).toBe(true)
    const refused = await gql(sim, create, {
      d: { entityGuid: guid, version: 'v', changelog: long },
      r: { validationFlags: ['FAIL_ON_FIELD_LENGTH'] },
    })
    expect(refused.body.errors?.[0]).toMatchObject({
      message: 'changelog must be less than 4,096 characters',
      extensions: { errorClass: 'INVALID_INPUT' },
    })
  })

  it('forgets created deployments on POST /_sim/reset', async () => {
    const sim = fixedSimulator()
    const before = results((await gql(sim, search, { g: guid, f: { timeWindow: wide } })).body)
    await gql(sim, create, { d: { entityGuid: guid, version: 'gone' } })
    await sim.fetch(new Request('http://simulator.test/_sim/reset', { method: 'POST' }))
    expect(results((await gql(sim, search, { g: guid, f: { timeWindow: wide } })).body)).toEqual(
      before
    )
  })
})

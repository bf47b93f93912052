/**
 * A NerdGraph answer without the fields its document asked for is v2's 502, never a 200 empty list
 * (issue 40, item 10): a hostile NerdGraph answers as the simulator does, less one field.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../../simulator'
import {
  lackingField,
  lackingTitle,
  requestedFields,
  withRequestedFields,
} from '../../src/upstream/answer-shape'
import { bridgeBefore, closeHostile, type Call, type Hostility } from '../helpers/hostile-upstream'

afterEach(closeHostile)

describe('the fields a document requests', () => {
  const document = `
    # a comment { with braces }
    query ListApplications($query: String!, $cursor: String, $opts: In = { a: "}" }) {
      actor {
        entitySearch(query: $query, sortByWithDirection: [{ attribute: NAME, direction: ASC }]) {
          count
          results(cursor: $cursor) { nextCursor entities { guid name ... on ApmApplicationEntityOutline { applicationId } } }
        }
        m0: account(id: 1) { members: nrql(query: "SELECT 1 \\" }") { results } }
        maybe: user @include(if: $x) { id }
        ... { requestContext { userId } }
      }
    }`

  it('names every response key (aliases first) below the operation, leaving out conditional ones', () => {
    const keys = (fields: ReturnType<typeof requestedFields>): unknown =>
      fields.map((f) => (f.below ? { [f.key]: keys(f.below) } : f.key))
    expect(keys(requestedFields(document))).toEqual([
      {
        actor: [
          { entitySearch: ['count', { results: ['nextCursor', { entities: ['guid', 'name'] }] }] },
          { m0: [{ members: ['results'] }] },
          { requestContext: ['userId'] },
        ],
      },
    ])
  })

  const fields = requestedFields(document)
  const whole = {
    actor: {
      entitySearch: { count: 0, results: { nextCursor: null, entities: [] } },
      m0: { members: { results: [] } },
      requestContext: { userId: 1 },
    },
  }

  it('takes an answer with every key, empty lists and nulls included', () => {
    expect(lackingField(fields, whole)).toBeUndefined()
    expect(lackingField(fields, { actor: { ...whole.actor, entitySearch: null } })).toBeUndefined()
    expect(lackingField(fields, { actor: null })).toBeUndefined()
  })

  it('names the first requested key an answer lacks, in objects of lists too', () => {
    expect(lackingField(fields, { actor: {} })).toBe('actor.entitySearch')
    expect(lackingField(fields, {})).toBe('actor')
    const entities = [{ guid: 'a', name: 'A' }, { guid: 'b' }]
    const search = { count: 2, results: { nextCursor: null, entities } }
    expect(lackingField(fields, { actor: { ...whole.actor, entitySearch: search } })).toBe(
      'actor.entitySearch.results.entities.name'
    )
    expect(lackingField(fields, { actor: { ...whole.actor, m0: 'x' } })).toBe('actor.m0')
  })

  it('throws v2’s 502 for an answer that lacks a field, and hands back a whole one or one with field errors', () => {
    const result = { data: whole, errors: [] }
    expect(withRequestedFields(document, result)).toBe(result)
    const fieldError = { data: { actor: {} }, errors: [{ message: 'x', path: ['actor', 'user'] }] }
    expect(withRequestedFields(document, fieldError)).toBe(fieldError)
    expect(() => withRequestedFields(document, { data: { actor: {} }, errors: [] })).toThrow(
      expect.objectContaining({ error: expect.objectContaining({ status: 502 }) })
    )
  })
})

describe('a NerdGraph answer that lacks requested fields', () => {
  const sim = createSimulator()
  /** The simulator's answer to the call, with `drop` applied to its `data`. */
  const lacking =
    (drop: (data: Record<string, any>) => void): Hostility =>
    (res, call) => {
      const req = new Request('http://simulator.test/graphql', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'API-Key': call.key },
        body: call.body,
      })
      void sim
        .fetch(req)
        .then((answer) => answer.json() as Promise<{ data: Record<string, any> }>)
        .then((answer) => {
          drop(answer.data)
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer))
        })
    }
  const operation = (name: string, hostility: Hostility) => (c: Call) =>
    c.path === '/graphql' && c.body.includes(`query ${name}`) ? hostility : undefined
  const lackingAnswer = { error: { title: lackingTitle } }

  type Data = Record<string, any>
  it.each([
    [
      'a list',
      'a 200 empty list',
      'ListApplications',
      '/v2/applications.json',
      (d: Data) => delete d['actor'].entitySearch,
    ],
    [
      'a show',
      'an application without hosts',
      'ShowApplication',
      '/v2/applications/9045822.json',
      (d: Data) => delete d['actor'].account.members,
    ],
    [
      'metric data',
      'metrics_not_found',
      'MetricData',
      '/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher&values[]=call_count',
      (d: Data) => delete d['actor'].account.q0,
    ],
  ])('answers %s 502, not %s', async (_, _not, name, path, drop) => {
    const { call } = await bridgeBefore(operation(name, lacking(drop)))
    const res = await call(path)
    expect(res.status).toBe(502)
    expect(await res.json()).toEqual(lackingAnswer)
  })

  it('still answers an empty list NerdGraph did send as an empty list', async () => {
    const { call } = await bridgeBefore(
      operation(
        'ListApplications',
        lacking((data) => {
          data['actor'].entitySearch.count = 0
          data['actor'].entitySearch.results.entities = []
        })
      )
    )
    const res = await call('/v2/applications.json')
    expect(res.status).toBe(200)
    expect(((await res.json()) as { applications: unknown[] }).applications).toEqual([])
  })
})

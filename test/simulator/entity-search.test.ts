import { describe, expect, it } from 'vitest'
import { DEMO_KEYS } from '../../simulator'
import {
  compileSearch,
  normalizeLike,
  SearchSyntaxError,
} from '../../simulator/graphql/entity-search'
import { at, fixedSimulator, gql } from './graphql-client'

const sim = fixedSimulator()
const apps = sim.dataset.entities().filter((e) => e.domain === 'APM')
const names = (query: string) => apps.filter(compileSearch(query)).map((a) => a.name)

describe('entity search query language', () => {
  it('filters with = and IN, keywords in any case', () => {
    expect(names("domain = 'APM' and type = 'APPLICATION' AND accountId = 1000002")).toHaveLength(5)
    expect(names("domainId IN ('9045822', 9045851)")).toEqual([
      'Checkout Service (java)',
      'Recommendations API (python)',
    ])
    expect(names("domainId in ('9045822') AND reporting = 'true'")).toEqual([
      'Checkout Service (java)',
    ])
    expect(
      names("accountId = '1000001' AND reporting = false AND name = 'Inventory Worker (go)'")
    ).toEqual(['Inventory Worker (go)'])
    expect(names("language = 'JAVA' AND accountId = 1000002")).toEqual([
      'Checkout Service (staging)',
    ])
    expect(names("alertSeverity = 'CRITICAL' AND name LIKE 'checkout'")).toEqual([
      'Checkout Service (java)',
    ])
  })

  it('treats LIKE as a case-insensitive contains and .,;:*-_ as whitespace', () => {
    expect(normalizeLike('Fleet_Service-001.x')).toBe('fleet service 001 x')
    expect(names("name LIKE '%fleet-service_001%'")).toEqual(['Fleet Service 001'])
    expect(names("name LIKE 'CART gateway'")).toEqual([
      'Cart Gateway (nodejs)',
      'Cart Gateway (staging)',
    ])
  })

  it('matches everything for an empty query', () => {
    expect(names('')).toHaveLength(apps.length)
  })

  it.each([
    "name = 'x' OR name = 'y'",
    "name != 'x'",
    "color = 'red'",
    "accountId LIKE '1'",
    "name = 'unterminated",
    "domainId IN ('1', '2'",
    "name = 'x' AND",
    'name',
  ])('rejects %s instead of guessing', (query) => {
    expect(() => compileSearch(query)).toThrow(SearchSyntaxError)
  })
})

const SEARCH = `query($q: String!, $c: String) { actor { entitySearch(query: $q, sortByWithDirection: [{attribute: NAME, direction: ASC}]) {
  count query results(cursor: $c) { nextCursor entities { guid name accountId ... on ApmApplicationEntityOutline { applicationId } } } } } }`

async function walk(query: string, key: string = DEMO_KEYS.all) {
  const pages: { guid: string; name: string; accountId: number }[][] = []
  let cursor: string | null = null
  let count = -1
  do {
    const { body } = await gql(sim, SEARCH, { q: query, c: cursor }, key)
    expect(body.errors).toBeUndefined()
    const search = at(body.data, 'actor', 'entitySearch') as {
      count: number
      results: {
        nextCursor: string | null
        entities: { guid: string; name: string; accountId: number }[]
      }
    }
    count = search.count
    pages.push(search.results.entities)
    cursor = search.results.nextCursor
  } while (cursor)
  return { count, pages }
}

describe('actor.entitySearch', () => {
  it('pages account 1000001 in 200s: count matches, no duplicates, sorted by name', async () => {
    const { count, pages } = await walk(
      "domain = 'APM' AND type = 'APPLICATION' AND accountId = 1000001"
    )
    const entities = pages.flat()
    expect(pages.length).toBe(3)
    expect(pages.slice(0, -1).every((p) => p.length === 200)).toBe(true)
    expect(entities).toHaveLength(count)
    expect(count).toBe(sim.dataset.applications(1000001).length)
    expect(new Set(entities.map((e) => e.guid)).size).toBe(count)
    const sorted = [...entities].sort((a, b) =>
      a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1
    )
    expect(entities.map((e) => e.name)).toEqual(sorted.map((e) => e.name))
  })

  it('only returns entities of accounts the key can see', async () => {
    const { count, pages } = await walk("domain = 'APM'", DEMO_KEYS.one)
    expect(count).toBe(5)
    expect(pages.flat().every((e) => e.accountId === 1000002)).toBe(true)
    const hidden = await walk("domainId = '9045822'", DEMO_KEYS.one)
    expect(hidden.count).toBe(0)
  })

  it('answers unsupported syntax with errorClass INVALID_INPUT', async () => {
    const { status, body } = await gql(sim, SEARCH, { q: "name = 'a' OR name = 'b'" })
    expect(status).toBe(200)
    expect(at(body.data, 'actor', 'entitySearch')).toBeNull()
    expect(body.errors?.[0]).toMatchObject({
      path: ['actor', 'entitySearch'],
      extensions: { errorClass: 'INVALID_INPUT' },
    })
  })

  it('rejects a cursor that belongs to another search', async () => {
    const first = await walk("domain = 'APM' AND accountId = 1000001")
    expect(first.pages.length).toBe(3)
    const { body: page } = await gql(sim, SEARCH, { q: "domain = 'APM' AND accountId = 1000001" })
    const cursor = at(page.data, 'actor', 'entitySearch', 'results', 'nextCursor')
    const { body } = await gql(sim, SEARCH, { q: "language = 'java'", c: cursor })
    expect(body.errors?.[0]?.extensions).toEqual({ errorClass: 'INVALID_INPUT' })
  })

  it('sorts descending when asked', async () => {
    const query = `{ actor { entitySearch(query: "accountId = 1000002", sortByWithDirection: [{attribute: NAME, direction: DESC}]) {
      results { entities { name } } } } }`
    const { body } = await gql(sim, query)
    const list = (
      at(body.data, 'actor', 'entitySearch', 'results', 'entities') as { name: string }[]
    ).map((e) => e.name)
    expect(list).toEqual([...list].sort().reverse())
  })
})

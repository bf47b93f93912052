/**
 * `actor.apiAccess.keySearch`: the caller's own user keys, each with the account it was created in,
 * paged; run with the document v2bridge sends to learn a user key's account.
 */
import { parse, validate } from 'graphql'
import { describe, expect, it } from 'vitest'
import { DEMO_KEY_ACCOUNTS, DEMO_KEYS, KEY_SEARCH_PAGE } from '../../simulator'
import { realSchema } from '../helpers/real-schema'
import { at, fixedSimulator, gql, post } from './graphql-client'

/** Exactly what v2bridge sends (no variables; `$cursor` absent or null on the first page). */
const KEY_ACCOUNT = `query KeyAccount($cursor: String) {
  actor {
    apiAccess {
      keySearch(query: { types: [USER] }, cursor: $cursor) {
        keys {
          key
          ... on ApiAccessUserKey {
            accountId
          }
        }
        nextCursor
      }
    }
  }
}`

/** Every field of a user key, with the search narrowed by `$query`. */
const FULL = `query Keys($query: ApiAccessKeySearchQuery!, $cursor: String) {
  actor {
    apiAccess {
      keySearch(query: $query, cursor: $cursor) {
        count
        keys {
          __typename createdAt id key name notes obfuscatedKey type
          ... on ApiAccessUserKey { accountId userId account { id name } user { id email name gravatar } }
        }
        nextCursor
      }
    }
  }
}`

interface KeyRow {
  key: string
  accountId: number
  [field: string]: unknown
}
interface Page {
  count?: number
  keys: KeyRow[]
  nextCursor: string | null
}

const sim = fixedSimulator()

async function page(
  query: string,
  variables: Record<string, unknown>,
  key: string = DEMO_KEYS.all
): Promise<Page> {
  const { status, body } = await gql(sim, query, variables, key)
  expect(status).toBe(200)
  expect(body.errors).toBeUndefined()
  return at(body.data, 'actor', 'apiAccess', 'keySearch') as Page
}

/** Follows nextCursor to the end; returns the pages. */
async function allPages(
  query: string,
  variables: Record<string, unknown>,
  key: string = DEMO_KEYS.all
): Promise<Page[]> {
  const pages: Page[] = []
  let cursor: string | null = null
  do {
    const next: Page = await page(query, { ...variables, cursor }, key)
    pages.push(next)
    cursor = next.nextCursor
  } while (cursor !== null && pages.length < 20)
  return pages
}

describe('actor.apiAccess.keySearch', () => {
  it('is a valid document in the real NerdGraph schema', () => {
    expect(validate(realSchema(), parse(KEY_ACCOUNT))).toEqual([])
    expect(validate(realSchema(), parse(FULL))).toEqual([])
  })

  it('answers each demo key, in full, with the account it was created in', async () => {
    expect(DEMO_KEY_ACCOUNTS).toEqual({ [DEMO_KEYS.all]: 1000001, [DEMO_KEYS.one]: 1000002 })
    for (const demoKey of [DEMO_KEYS.all, DEMO_KEYS.one]) {
      const keys = (await allPages(KEY_ACCOUNT, {}, demoKey)).flatMap((p) => p.keys)
      const own = keys.filter((k) => k.key === demoKey)
      expect(own).toEqual([{ key: demoKey, accountId: DEMO_KEY_ACCOUNTS[demoKey] }])
    }
  })

  it('takes the document with no variables at all, and with a null cursor', async () => {
    const response = await sim.fetch(
      new Request('http://simulator.test/graphql', {
        method: 'POST',
        headers: { 'API-Key': DEMO_KEYS.one, 'content-type': 'application/json' },
        body: JSON.stringify({ query: KEY_ACCOUNT }),
      })
    )
    expect(response.status).toBe(200)
    const withoutVariables = await response.json()
    expect(withoutVariables).toEqual({
      data: {
        actor: {
          apiAccess: {
            keySearch: {
              keys: [
                { key: 'NRAK-NB5E2R8T1Y4U7I0O3P6A9S2D5F', accountId: 1000002 },
                { key: DEMO_KEYS.one, accountId: 1000002 },
              ],
              nextCursor: null,
            },
          },
        },
      },
    })
    const { body } = await gql(sim, KEY_ACCOUNT, { cursor: null }, DEMO_KEYS.one)
    expect(body).toEqual(withoutVariables)
  })

  it('pages through every key of the caller exactly once', async () => {
    const pages = await allPages(KEY_ACCOUNT, {})
    expect(pages.length).toBe(2) // 3 keys, KEY_SEARCH_PAGE a page
    expect(pages.every((p) => p.keys.length <= KEY_SEARCH_PAGE)).toBe(true)
    const keys = pages.flatMap((p) => p.keys.map((k) => k.key))
    expect(new Set(keys).size).toBe(keys.length)
    expect(keys).toEqual([
      'NRAK-CI7Q2M9C4V1B8N6Z3L5K0J2H4G',
      'NRAK-STG3X8P1R6T4W9Y2A5D7F0H3K6',
      DEMO_KEYS.all, // the newest, on the second page
    ])
    const full = await allPages(FULL, { query: { types: ['USER'] } })
    expect(full.map((p) => p.count)).toEqual([3, 3])
    expect(full.flatMap((p) => p.keys.map((k) => k.key))).toEqual(keys)
  })

  it('answers every field of ApiAccessUserKey within the real schema', async () => {
    const { keys } = await page(FULL, { query: { types: ['USER'] } }, DEMO_KEYS.one)
    expect(keys[1]).toEqual({
      __typename: 'ApiAccessUserKey',
      createdAt: 1731672000,
      id: 'E91B6D2F8A4C0E3B7D5F1A9C6E2B4D07',
      key: DEMO_KEYS.one,
      name: 'Staging Viewer: v2bridge demo',
      notes: null,
      obfuscatedKey: 'NRAK-DEM***********************',
      type: 'USER',
      accountId: 1000002,
      userId: 4100002,
      account: { id: 1000002, name: 'Demo Staging' },
      user: {
        id: 4100002,
        email: 'staging.viewer@example.com',
        name: 'Staging Viewer',
        gravatar: null,
      },
    })
    for (const k of keys) {
      expect(String(k['obfuscatedKey'])).toHaveLength(k.key.length)
      expect(String(k['obfuscatedKey'])).toMatch(/^NRAK-.{3}\*+$/)
    }
  })

  it('restricts to scope.accountIds, and only to accounts the key sees', async () => {
    const search = (accountIds: number[], key: string = DEMO_KEYS.all) =>
      allPages(FULL, { query: { types: ['USER'], scope: { accountIds } } }, key)
    const staging = (await search([1000002])).flatMap((p) => p.keys)
    expect(staging.map((k) => [k.key, k.accountId])).toEqual([
      ['NRAK-STG3X8P1R6T4W9Y2A5D7F0H3K6', 1000002],
    ])
    const production = await search([1000001])
    expect(production[0]!.count).toBe(2)
    expect(production.flatMap((p) => p.keys).map((k) => k.key)).toEqual([
      'NRAK-CI7Q2M9C4V1B8N6Z3L5K0J2H4G',
      DEMO_KEYS.all,
    ])
    expect((await search([1000001], DEMO_KEYS.one))[0]).toMatchObject({ count: 0, keys: [] })
    expect((await search([999]))[0]).toMatchObject({ count: 0, keys: [], nextCursor: null })
    expect((await search([]))[0]!.count).toBe(3) // an empty list does not restrict
  })

  it("never answers another user's keys, nor keys of other types", async () => {
    const keysOf = async (key: string) =>
      (await allPages(KEY_ACCOUNT, {}, key)).flatMap((p) => p.keys.map((k) => k.key))
    const all = await keysOf(DEMO_KEYS.all)
    const one = await keysOf(DEMO_KEYS.one)
    expect(all).not.toContain(DEMO_KEYS.one)
    expect(one).not.toContain(DEMO_KEYS.all)
    expect(all.filter((k) => one.includes(k))).toEqual([])
    const other = { query: { types: ['USER'], scope: { userIds: [4100002] } } }
    expect(await page(FULL, other)).toMatchObject({ count: 0, keys: [] })
    const ingest = { query: { types: ['INGEST'], scope: { ingestTypes: ['LICENSE'] } } }
    expect(await page(FULL, ingest)).toEqual({ count: 0, keys: [], nextCursor: null })
  })

  it('refuses a cursor it did not make for the same search with INVALID_INPUT', async () => {
    const first = await page(KEY_ACCOUNT, {})
    const cursor = first.nextCursor!
    for (const [variables, key] of [
      [{ cursor: 'not-a-cursor' }, DEMO_KEYS.all],
      [{ cursor }, DEMO_KEYS.one], // another user's cursor
    ] as const) {
      const { body } = await gql(sim, KEY_ACCOUNT, variables, key)
      expect(body.data).toEqual({ actor: { apiAccess: { keySearch: null } } })
      expect(body.errors?.[0]).toMatchObject({
        path: ['actor', 'apiAccess', 'keySearch'],
        extensions: { errorClass: 'INVALID_INPUT' },
      })
    }
  })

  it("gives a bad key NerdGraph's HTTP 401 BAD_API_KEY, listed keys included", async () => {
    for (const key of [null, 'NRAK-NOTAKEY', 'NRAK-CI7Q2M9C4V1B8N6Z3L5K0J2H4G']) {
      const response = await post(sim, KEY_ACCOUNT, {}, key)
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({
        errors: [
          {
            extensions: { error_code: 'BAD_API_KEY' },
            message: 'Bad API Key or no API Key provided',
          },
        ],
      })
    }
  })
})

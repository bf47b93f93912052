/**
 * `actor.apiAccess.keySearch`: the caller's own user keys, each with the account it was created in,
 * and for an admin thousands of other users' keys, obfuscated (New Relic docs "NerdGraph tutorial:
 * Manage API keys", "Query keys"), paged; run with the document v2bridge sends to learn a user
 * key's account, which narrows the search to the caller's user.
 */
import { parse, validate } from 'graphql'
import { describe, expect, it } from 'vitest'
import {
  createSimulator,
  DEMO_KEY_ACCOUNTS,
  DEMO_KEYS,
  KEY_SEARCH_PAGE,
  OTHERS_KEYS,
} from '../../simulator'
import { realSchema } from '../helpers/real-schema'
import { at, fixedSimulator, gql, NOW, post } from './graphql-client'

/** The users of the demo keys (`actor.user.id`). */
const USER = { [DEMO_KEYS.all]: 4100001, [DEMO_KEYS.one]: 4100002 } as const

type DEMO = (typeof DEMO_KEYS)[keyof typeof DEMO_KEYS]

/** Exactly what v2bridge sends (`$cursor` absent or null on the first page). */
const KEY_ACCOUNT = `query KeyAccount($userId: Int!, $cursor: String) {
  actor {
    apiAccess {
      keySearch(query: { types: [USER], scope: { userIds: [$userId] } }, cursor: $cursor) {
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
      const pages = await allPages(KEY_ACCOUNT, { userId: USER[demoKey] }, demoKey)
      const own = pages.flatMap((p) => p.keys).filter((k) => k.key === demoKey)
      expect(own).toEqual([{ key: demoKey, accountId: DEMO_KEY_ACCOUNTS[demoKey] }])
    }
  })

  it('takes the document with a null cursor as with none', async () => {
    const response = await sim.fetch(
      new Request('http://simulator.test/graphql', {
        method: 'POST',
        headers: { 'API-Key': DEMO_KEYS.one, 'content-type': 'application/json' },
        body: JSON.stringify({ query: KEY_ACCOUNT, variables: { userId: USER[DEMO_KEYS.one] } }),
      })
    )
    expect(response.status).toBe(200)
    const withoutCursor = await response.json()
    expect(withoutCursor).toEqual({
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
    const { body } = await gql(
      sim,
      KEY_ACCOUNT,
      { userId: USER[DEMO_KEYS.one], cursor: null },
      DEMO_KEYS.one
    )
    expect(body).toEqual(withoutCursor)
  })

  it('pages through every key of the caller’s user exactly once', async () => {
    const pages = await allPages(KEY_ACCOUNT, { userId: USER[DEMO_KEYS.all] })
    expect(pages.length).toBe(2) // 3 keys, KEY_SEARCH_PAGE a page
    expect(pages.every((p) => p.keys.length <= KEY_SEARCH_PAGE)).toBe(true)
    const keys = pages.flatMap((p) => p.keys.map((k) => k.key))
    expect(keys).toEqual([
      'NRAK-CI7Q2M9C4V1B8N6Z3L5K0J2H4G',
      'NRAK-STG3X8P1R6T4W9Y2A5D7F0H3K6',
      DEMO_KEYS.all, // the newest, on the second page
    ])
    const full = await allPages(FULL, {
      query: { types: ['USER'], scope: { userIds: [USER[DEMO_KEYS.all]] } },
    })
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
      allPages(
        FULL,
        { query: { types: ['USER'], scope: { accountIds, userIds: [USER[key as DEMO]] } } },
        key
      )
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
    const admin = await page(FULL, { query: { types: ['USER'], scope: { accountIds: [1000002] } } })
    expect(admin.count).toBeGreaterThan(OTHERS_KEYS / 4) // other users' keys in staging too
  })

  it('gives an admin every other user’s keys, obfuscated, thousands of them, paged', async () => {
    const first = await page(FULL, { query: { types: ['USER'] } })
    expect(first.count).toBe(OTHERS_KEYS + 3)
    expect(OTHERS_KEYS).toBeGreaterThanOrEqual(1000)
    expect(first.keys).toHaveLength(KEY_SEARCH_PAGE)
    expect(first.nextCursor).not.toBeNull()
    for (const k of first.keys) {
      expect(k['userId']).not.toBe(USER[DEMO_KEYS.all])
      expect(k.key).toMatch(/^NRAK-.{3}\.\.\.$/) // truncated, never the whole key
      expect(String(k['obfuscatedKey'])).toMatch(/^NRAK-.{3}\*{24}$/)
      expect((k['user'] as { id: number }).id).toBe(k['userId'])
    }
    // The admin's own keys sit among them, oldest first: the demo key far past the first pages.
    const second = await page(FULL, { query: { types: ['USER'] }, cursor: first.nextCursor })
    expect(second.keys.map((k) => k.key)).not.toContain(DEMO_KEYS.all)
    const viewer = await page(FULL, { query: { types: ['USER'] } }, DEMO_KEYS.one)
    expect(viewer.count).toBe(2) // not an admin: its own keys only
  })

  it('finds as many other users’ keys as the othersKeys setting says', async () => {
    const few = createSimulator({ now: () => NOW, access: { othersKeys: 5 } })
    const { body } = await gql(few, FULL, { query: { types: ['USER'] } }, DEMO_KEYS.all)
    expect(at(body.data, 'actor', 'apiAccess', 'keySearch', 'count')).toBe(8)
    const none = createSimulator({ now: () => NOW, access: { othersKeys: 0 } })
    const plain = await gql(none, KEY_ACCOUNT, { userId: USER[DEMO_KEYS.all] }, DEMO_KEYS.all)
    const unscoped = await gql(none, FULL, { query: { types: ['USER'] } }, DEMO_KEYS.all)
    expect(at(unscoped.body.data, 'actor', 'apiAccess', 'keySearch', 'count')).toBe(3)
    expect(plain.body.errors).toBeUndefined()
  })

  it("never answers another user's keys to a user who is not an admin, nor keys of other types", async () => {
    const keysOf = async (key: DEMO) =>
      (await allPages(KEY_ACCOUNT, { userId: USER[key] }, key)).flatMap((p) =>
        p.keys.map((k) => k.key)
      )
    const all = await keysOf(DEMO_KEYS.all)
    const one = await keysOf(DEMO_KEYS.one)
    expect(all).not.toContain(DEMO_KEYS.one)
    expect(one).not.toContain(DEMO_KEYS.all)
    expect(all.filter((k) => one.includes(k))).toEqual([])
    const other = { query: { types: ['USER'], scope: { userIds: [4100001] } } }
    expect(await page(FULL, other, DEMO_KEYS.one)).toMatchObject({ count: 0, keys: [] })
    const ingest = { query: { types: ['INGEST'], scope: { ingestTypes: ['LICENSE'] } } }
    expect(await page(FULL, ingest)).toEqual({ count: 0, keys: [], nextCursor: null })
  })

  it('refuses a cursor it did not make for the same search with INVALID_INPUT', async () => {
    const userId = USER[DEMO_KEYS.all]
    const first = await page(KEY_ACCOUNT, { userId })
    const cursor = first.nextCursor!
    for (const [variables, key] of [
      [{ userId, cursor: 'not-a-cursor' }, DEMO_KEYS.all],
      [{ userId, cursor }, DEMO_KEYS.one], // another user's cursor
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
      const response = await post(sim, KEY_ACCOUNT, { userId: 4100001 }, key)
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

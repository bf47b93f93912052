/**
 * @module resources/users/users
 * `GET /v2/users` and `/v2/users/{id}` (New Relic docs, rest-api-v2
 * `account-examples-v2/listing-users-your-account`) from NerdGraph user management: every
 * authentication domain's users, filtered upstream by `email: {contains}` and `id: {in}`. Tools probe
 * `users.json` to validate a key, so a key that NerdGraph accepts gets 200 even when it may not read
 * users (an empty list, as v2 gave accounts on the newer user model); a key it rejects gets 401.
 * v2 lists users by ID, which needs every user: a list walks every domain's pages once (one request
 * per NerdGraph page) and keeps the sorted result a minute per key and filter, so the next v2 pages
 * by `Link` cost nothing.
 */
import { gql } from 'graphql-request'
import type { Context } from 'hono'
import { defaultRole, roleByGroup } from '../../../mappings/user-roles'
import type { Env } from '../../http/env'
import { V2Error } from '../../core/errors'
import { linkHeader } from '../../http/link-header'
import { idList, pageParam } from '../../http/params'
import { lastPage, searchPageSize } from '../../entities/search-pages'
import { defineCache } from '../../core/cache'

const minute = 60 * 1000

/** per filter: the key's users by ID; users change rarely, a minute. */
export const usersCache = defineCache<unknown>('users', { freshMs: minute, maxBytes: 8 * 2 ** 20 })

export const usersDocument = gql`
  query Users($domains: [ID!], $filter: UserManagementUserFilterInput, $cursor: String) {
    actor {
      organization {
        userManagement {
          authenticationDomains(id: $domains) {
            authenticationDomains {
              id
              users(filter: $filter, cursor: $cursor) {
                nextCursor
                users {
                  id
                  name
                  email
                  groups {
                    groups {
                      displayName
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`

interface User {
  id: string
  name: string | null
  email: string | null
  groups: { groups: { displayName: string }[] } | null
}

interface Domain {
  id: string
  users: { nextCursor: string | null; users: User[] } | null
}

interface UsersData {
  actor: {
    organization: {
      userManagement: {
        authenticationDomains: { authenticationDomains: Domain[] } | null
      } | null
    } | null
  }
}

/** Pages of one domain followed past the first are bounded: 50 × NerdGraph's page. */
const maxPagesPerDomain = 50

type Filter = { email?: { contains: string }; id?: { in: string[] } }

async function fetchUsers(c: Context<Env>, filter: Filter): Promise<User[]> {
  const query = (variables: Record<string, unknown>) =>
    c
      .get('nerdgraph')
      .query<UsersData>(usersDocument, { filter, ...variables }, { partial: 'tolerate' })
  const { data } = await query({ domains: null, cursor: null })
  const domains =
    data.actor.organization?.userManagement?.authenticationDomains?.authenticationDomains ?? []
  const users = domains.flatMap((d) => d.users?.users ?? [])
  for (const domain of domains) {
    let cursor = domain.users?.nextCursor ?? null
    for (let n = 1; cursor && n < maxPagesPerDomain; n++) {
      const next = await query({ domains: [domain.id], cursor })
      const page =
        next.data.actor.organization?.userManagement?.authenticationDomains?.authenticationDomains.find(
          (d) => d.id === domain.id
        )?.users
      users.push(...(page?.users ?? []))
      cursor = page?.nextCursor ?? null
    }
  }
  return users
}

/** Pure: NerdGraph user → v2 user. `name` splits at its first space into first and last name. */
export function toV2User(u: User): Record<string, unknown> {
  const name = (u.name ?? '').trim()
  const space = name.indexOf(' ')
  const groups = u.groups?.groups.map((g) => g.displayName) ?? []
  const roles = groups.flatMap((g) =>
    Object.hasOwn(roleByGroup, g) ? [roleByGroup[g as keyof typeof roleByGroup]] : []
  )
  return {
    id: Number(u.id),
    first_name: space < 0 ? name : name.slice(0, space),
    last_name: space < 0 ? '' : name.slice(space + 1),
    email: u.email ?? '',
    role: roles[0] ?? defaultRole,
  }
}

function byId(users: User[]): User[] {
  const seen = new Map(users.filter((u) => /^\d{1,15}$/.test(u.id)).map((u) => [u.id, u]))
  return [...seen.values()].sort((a, b) => Number(a.id) - Number(b.id))
}

/** Every user matching `filter`, by ID: walked once, then from the cache for a minute. */
async function usersById(c: Context<Env>, filter: Filter): Promise<User[]> {
  const cache = c.get('caches').of(usersCache)
  const key = JSON.stringify(filter)
  const hit = cache.get(c.get('keyHash'), key) as User[] | undefined
  if (hit) return hit
  const users = byId(await fetchUsers(c, filter))
  cache.set(c.get('keyHash'), key, users)
  return users
}

export async function listUsers(c: Context<Env>) {
  const p = c.get('params')
  const page = pageParam(p)
  const email = p.get('filter[email]')?.trim()
  const ids = idList(p, 'filter[ids]')
  const filter: Filter = {}
  if (email) filter.email = { contains: email }
  if (ids) filter.id = { in: ids.map(String) }
  // "a simple string match" (docs): re-checked here whatever `contains` does upstream.
  const users = (await usersById(c, filter)).filter(
    (u) => !email || (u.email ?? '').toLowerCase().includes(email.toLowerCase())
  )
  const slice = users.slice((page - 1) * searchPageSize, page * searchPageSize)
  const link = linkHeader(new URL(c.req.url), c.get('origin'), p.entries(), {
    page,
    lastPage: lastPage(users.length),
  })
  return { body: { users: slice.map(toV2User) }, link }
}

/** v2 explorer users.json, `GET /v2/users/{id}` error reasons. */
export const noUser = 'No user found with the given ID'

export async function showUser(c: Context<Env>) {
  const raw = c.req.param('id') ?? ''
  if (!/^\d{1,15}$/.test(raw)) throw new V2Error(404, noUser)
  const user = byId(await fetchUsers(c, { id: { in: [String(Number(raw))] } }))[0]
  if (!user) throw new V2Error(404, noUser)
  return { user: toV2User(user) }
}

/**
 * @module simulator/graphql/resources
 * `actor.organization.userManagement` and the create and tagging mutations. Errors come as
 * NerdGraph gives them: GraphQL errors with `extensions.errorClass` for a bad call, and
 * `errors[{type, message}]` inside a tagging result for a tag it refuses.
 */
import { GraphQLError } from 'graphql'
import type { EntityTag } from '../data/entity'
import type { SimUser } from '../data/resources/catalog'
import { loaderScript } from '../data/resources/entities'
import { MAX_TAG_VALUES } from '../data/resources/state'
import { checkAccount } from './access'
import type { GraphContext } from './context'

/** Users per `users()` page (a simulator choice; NerdGraph's own size is undocumented). */
export const USERS_PAGE = 100

/** Tags the platform sets itself; tagging mutations may not change them. */
const SYSTEM_TAG_KEYS = new Set(['account', 'accountId', 'guid', 'language', 'trustedAccountId'])

function fail(message: string, errorClass: string): never {
  throw new GraphQLError(message, { extensions: { errorClass } })
}

function checkName(name: string) {
  if (name.trim() === '' || name.length > 255) fail('Invalid application name', 'INVALID_INPUT')
}

interface UserFilter {
  email?: { contains?: string | null; eq?: string | null } | null
  id?: { eq?: string | null; in?: string[] | null } | null
}

function matchesUser(u: SimUser, f: UserFilter | null | undefined): boolean {
  const email = u.email.toLowerCase()
  if (f?.email?.eq != null && email !== f.email.eq.toLowerCase()) return false
  if (f?.email?.contains != null && !email.includes(f.email.contains.toLowerCase())) return false
  if (f?.id?.eq != null && u.id !== f.id.eq) return false
  if (f?.id?.in != null && !f.id.in.includes(u.id)) return false
  return true
}

function userValue(u: SimUser) {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    type: { id: '1', displayName: 'Full platform' },
    groups: () => ({
      groups: u.groups.map((g, i) => ({ id: `${u.domain}:${i}`, displayName: g })),
      nextCursor: null,
      totalCount: u.groups.length,
    }),
  }
}

function domainValue(ctx: GraphContext, name: string, index: number) {
  return {
    id: `auth-domain-${index + 1}`,
    name,
    provisioningType: 'manual',
    users: (args: { cursor?: string | null; filter?: UserFilter | null }) => {
      const all = ctx.dataset.resources.users.filter(
        (u) => u.domain === name && matchesUser(u, args.filter)
      )
      const offset = args.cursor ? Number(/^users:(\d+)$/.exec(atob(args.cursor))?.[1] ?? NaN) : 0
      if (!Number.isInteger(offset)) fail('Invalid cursor', 'INVALID_INPUT')
      const next = offset + USERS_PAGE
      return {
        users: all.slice(offset, next).map(userValue),
        nextCursor: next < all.length ? btoa(`users:${next}`) : null,
        totalCount: all.length,
      }
    },
  }
}

export const resourceActorFields = {
  organization: (_: unknown, ctx: GraphContext) => ({
    id: 'org-demo',
    name: 'Demo Organization',
    userManagement: {
      authenticationDomains: (args: { id?: string[] | null }) => {
        const names = [...new Set(ctx.dataset.resources.users.map((u) => u.domain))]
        const domains = names
          .map((n, i) => domainValue(ctx, n, i))
          .filter((d) => !args.id || args.id.includes(d.id))
        return { authenticationDomains: domains, nextCursor: null, totalCount: domains.length }
      },
    },
  }),
}

type TagResult = { errors: { type: string; message: string }[] }

function editTags(
  ctx: GraphContext,
  guid: string,
  edit: (tags: Map<string, string[]>) => TagResult['errors']
): TagResult {
  const entity = ctx.dataset.entityByGuid(guid)
  if (!entity || !ctx.principal.accountIds.has(entity.accountId)) {
    return { errors: [{ type: 'NOT_FOUND', message: `Entity ${guid} not found` }] }
  }
  // From the newest write, not from what reads show yet (data/visibility.ts).
  const current = ctx.dataset.resources.state.tags(guid) ?? entity.tags()
  const tags = new Map(current.map((t) => [t.key, [...t.values]]))
  const errors = edit(tags)
  if (errors.length) return { errors }
  if ([...tags.values()].reduce((n, v) => n + v.length, 0) > MAX_TAG_VALUES) {
    return { errors: [{ type: 'TOO_MANY_TAG_VALUES', message: 'Too many tag values' }] }
  }
  const next: EntityTag[] = [...tags]
    .filter(([, v]) => v.length > 0)
    .map(([key, values]) => ({ key, values }))
  ctx.dataset.resources.state.setTags(guid, next)
  return { errors: [] }
}

function refusedKey(key: string): TagResult['errors'] {
  if (key.trim() === '' || key.includes(':') || key.length > 128)
    return [{ type: 'INVALID_KEY', message: `Invalid tag key '${key}'` }]
  if (SYSTEM_TAG_KEYS.has(key))
    return [{ type: 'NOT_PERMITTED', message: `Tag key '${key}' is reserved` }]
  return []
}

export const resourceMutations = {
  agentApplicationCreateBrowser(
    args: { accountId: number; name: string; settings?: { loaderType?: string | null } | null },
    ctx: GraphContext
  ) {
    checkAccount(ctx, args.accountId)
    checkName(args.name)
    const requested = args.settings?.loaderType ?? 'SPA'
    const loaderType = requested === 'LITE' || requested === 'PRO' ? requested : 'SPA'
    const app = ctx.dataset.resources.state.createBrowser(
      args.accountId,
      args.name.trim(),
      loaderType
    )
    return {
      guid: app.guid,
      name: app.name,
      settings: {
        cookiesEnabled: true,
        distributedTracingEnabled: loaderType !== 'LITE',
        loaderType,
        loaderScript: loaderScript(app),
      },
    }
  },
  agentApplicationCreateMobile(args: { accountId: number; name: string }, ctx: GraphContext) {
    checkAccount(ctx, args.accountId)
    checkName(args.name)
    const app = ctx.dataset.resources.state.createMobile(args.accountId, args.name.trim())
    const entity = ctx.dataset.entityByGuid(app.guid)
    return {
      accountId: app.accountId,
      applicationToken: app.applicationToken,
      guid: app.guid,
      name: app.name,
      entityOutline: entity?.value('outline') ?? null,
    }
  },
  taggingAddTagsToEntity(
    args: { guid: string; tags: { key: string; values?: (string | null)[] | null }[] },
    ctx: GraphContext
  ) {
    return editTags(ctx, args.guid, (tags) => {
      for (const { key, values } of args.tags) {
        const refused = refusedKey(key)
        if (refused.length) return refused
        const list = (values ?? []).filter((v): v is string => v !== null)
        if (list.some((v) => v.trim() === '' || v.length > 256))
          return [{ type: 'INVALID_VALUE', message: 'Invalid tag value' }]
        const current = tags.get(key) ?? []
        tags.set(key, [...current, ...list.filter((v) => !current.includes(v))])
      }
      return []
    })
  },
  taggingDeleteTagFromEntity(args: { guid: string; tagKeys: string[] }, ctx: GraphContext) {
    return editTags(ctx, args.guid, (tags) => {
      for (const key of args.tagKeys) {
        const refused = refusedKey(key)
        if (refused.length) return refused
        tags.delete(key)
      }
      return []
    })
  },
  taggingDeleteTagValuesFromEntity(
    args: { guid: string; tagValues: { key: string; value: string }[] },
    ctx: GraphContext
  ) {
    return editTags(ctx, args.guid, (tags) => {
      for (const { key, value } of args.tagValues) {
        const refused = refusedKey(key)
        if (refused.length) return refused
        tags.set(
          key,
          (tags.get(key) ?? []).filter((v) => v !== value)
        )
      }
      return []
    })
  },
}

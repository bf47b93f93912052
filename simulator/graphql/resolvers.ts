/** @module simulator/graphql/resolvers — the root value graphql-js executes SCHEMA_SDL against. */
import { GraphQLError } from 'graphql'
import { runNrql } from '../nrql'
import { NrqlError } from '../types'
import { accountAlerts } from './alerts-queries'
import { alertsMutations } from './alerts-mutations'
import { apiAccessActorFields } from './api-access'
import { appWriteMutations } from './app-writes'
import type { GraphContext } from './context'
import { deploymentMutations } from './deployments'
import { deploymentEvents } from './deployment-events'
import { resourceActorFields, resourceMutations } from './resources'
import { entitySearch, type SearchArgs } from './search'

/** `actor.entities` takes at most 25 GUIDs [schema]. */
export const MAX_ENTITY_GUIDS = 25

function graphError(message: string, errorClass: string): GraphQLError {
  return new GraphQLError(message, { extensions: { errorClass } })
}

function runNrqlField(accountId: number, query: string, ctx: GraphContext) {
  ctx.stats.nrql(ctx.principal.label, query)
  try {
    const { store } = ctx.dataset
    const events = (types: readonly string[]) => deploymentEvents(ctx.dataset, types)
    const result = runNrql(query, {
      accountId,
      store,
      events,
      now: ctx.dataset.now(),
      retention: ctx.dataset.retention,
    })
    return { ...result, nrql: query }
  } catch (err) {
    if (err instanceof NrqlError) throw graphError(err.message, err.errorClass)
    const detail = err instanceof Error ? err.message : String(err)
    throw new GraphQLError('Internal Server Error', {
      extensions: { errorClass: 'INTERNAL_SERVER_ERROR', detail },
    })
  }
}

function visibleEntity(ctx: GraphContext, guid: string) {
  const entity = ctx.dataset.entityByGuid(guid)
  return entity && ctx.principal.accountIds.has(entity.accountId) ? entity : null
}

const actor = {
  user: (_: unknown, ctx: GraphContext) => ctx.principal.user,
  accounts: (_: unknown, ctx: GraphContext) =>
    ctx.dataset.accounts.filter((a) => ctx.principal.accountIds.has(a.id)),
  account({ id }: { id: number }, ctx: GraphContext) {
    const account = ctx.dataset.accounts.find((a) => a.id === id)
    if (!account || !ctx.principal.accountIds.has(id)) {
      throw graphError(`Not authorized to access account ${id}`, 'FORBIDDEN')
    }
    return {
      id: account.id,
      name: account.name,
      nrql: ({ query }: { query: string }, c: GraphContext) => runNrqlField(account.id, query, c),
      ...accountAlerts(account.id),
    }
  },
  entity({ guid }: { guid: string }, ctx: GraphContext) {
    return visibleEntity(ctx, guid)?.value('entity') ?? null
  },
  entities({ guids }: { guids: (string | null)[] }, ctx: GraphContext) {
    if (guids.length > MAX_ENTITY_GUIDS) {
      throw graphError(`Too many guids, max ${MAX_ENTITY_GUIDS}`, 'INVALID_INPUT')
    }
    const unique = [...new Set(guids.filter((g): g is string => typeof g === 'string'))]
    return unique.flatMap((guid) => {
      const entity = visibleEntity(ctx, guid)
      return entity ? [entity.value('entity')] : []
    })
  },
  entitySearch: (args: SearchArgs, ctx: GraphContext) =>
    entitySearch(ctx.dataset, ctx.principal.accountIds, args),
  ...resourceActorFields,
  ...apiAccessActorFields,
}

/** Root value: graphql-js calls function-valued fields with (args, context, info). */
export const rootValue = {
  ...deploymentMutations,
  ...appWriteMutations,
  ...resourceMutations,
  actor: () => actor,
  ...alertsMutations,
  requestContext: (_: unknown, ctx: GraphContext) => ({
    userId: String(ctx.principal.user.id),
    apiKey: ctx.principal.label,
  }),
}

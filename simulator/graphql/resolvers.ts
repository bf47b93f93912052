/** @module simulator/graphql/resolvers — the root value graphql-js executes SCHEMA_SDL against. */
import { GraphQLError } from 'graphql'
import { runNrql } from '../nrql'
import { NrqlError, type MetricRow, type MetricStore, type ScanHint } from '../types'
import { checkAccount } from './access'
import { accountAlerts } from './alerts-queries'
import { alertsMutations } from './alerts-mutations'
import { apiAccessActorFields } from './api-access'
import { appWriteMutations } from './app-writes'
import type { GraphContext } from './context'
import { deploymentMutations } from './deployments'
import { deploymentEvents } from './deployment-events'
import { transactionSources } from '../data/apm/harvest'
import { resourceActorFields, resourceMutations } from './resources'
import { nrqlLimitsOf } from './nrql-caps'
import { nrqlTimeoutMs, pace, TIMEOUT_MESSAGE } from './nrql-limits'
import { entitySearch, type SearchArgs } from './search'

/** `actor.entities` takes at most 25 GUIDs [schema]. */
export const MAX_ENTITY_GUIDS = 25

function graphError(message: string, errorClass: string): GraphQLError {
  return new GraphQLError(message, { extensions: { errorClass } })
}

/** The store, counting the rows a query reads (the cost model's input). A `seriesOnce` scan yields
 * one row a series, a shortcut of the simulator's; NRDB reads the whole window to answer `uniques()`
 * (New Relic docs "Rate limits with NRQL": cost grows with the data scanned), so such a row counts
 * as every row of its series in the window, one a rollup. */
function counting(store: MetricStore) {
  const counter = { rows: 0 }
  const scan = function* (hint: ScanHint): Generator<MetricRow> {
    const perRow = hint.seriesOnce
      ? Math.max(1, Math.ceil((hint.until - hint.since) / (hint.rollupMs ?? 60_000)))
      : 1
    for (const row of store.scan(hint)) {
      counter.rows += perRow
      yield row
    }
  }
  return { store: { scan }, counter }
}

interface NrqlArgs {
  query: string
  timeout?: number | null
}

/** One NRQL query: the live limits first (a refusal makes the request HTTP 429), then the query,
 * answered after its modeled duration or as the live TIMEOUT error (graphql/nrql-limits.ts). */
async function runNrqlField(accountId: number, { query, timeout }: NrqlArgs, ctx: GraphContext) {
  ctx.stats.nrql(ctx.principal.label, query)
  const refused = ctx.nrqlLimits.admit(accountId, ctx.principal.user.id, query)
  if (refused) {
    ctx.refused = refused
    throw graphError('Too many requests', 'TOO_MANY_REQUESTS')
  }
  // NerdGraph runs a user's requests side by side, 25 of them guaranteed (New Relic docs "NerdGraph
  // usage limits"); the simulator evaluates NRQL on one thread, so a query first lets the requests
  // that have arrived be admitted (server/app.ts), as they would be beside it, and its modeled
  // duration counts from its request's admission, not from its turn on the thread.
  await new Promise((resolve) => (globalThis.setImmediate ?? setTimeout)(resolve))
  const { store, counter } = counting(ctx.dataset.store)
  let result
  try {
    const { dataset } = ctx
    const events = (types: readonly string[]) => deploymentEvents(dataset, types)
    const transactions = (id: number) =>
      transactionSources(dataset.applications(id), dataset.window())
    result = runNrql(query, {
      accountId,
      store,
      events,
      transactions,
      now: ctx.dataset.now(),
      retention: ctx.dataset.retention,
      limits: nrqlLimitsOf(ctx.dataset),
    })
  } catch (err) {
    if (err instanceof NrqlError) throw graphError(err.message, err.errorClass)
    const detail = err instanceof Error ? err.message : String(err)
    throw new GraphQLError('Internal Server Error', {
      extensions: { errorClass: 'INTERNAL_SERVER_ERROR', detail },
    })
  }
  const { cost } = ctx.nrqlLimits.settings
  const elapsed = performance.now() - ctx.admittedAt
  if (!(await pace(cost, counter.rows, elapsed, nrqlTimeoutMs(timeout)))) {
    throw graphError(TIMEOUT_MESSAGE, 'TIMEOUT')
  }
  return { ...result, nrql: query }
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
    checkAccount(ctx, id)
    const account = ctx.dataset.accounts.find((a) => a.id === id)!
    return {
      id: account.id,
      name: account.name,
      nrql: (args: NrqlArgs, c: GraphContext) => runNrqlField(account.id, args, c),
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

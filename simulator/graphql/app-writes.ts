/**
 * @module simulator/graphql/app-writes — `agentApplicationSettingsUpdate` and `agentApplicationDelete` with
 * NerdGraph's behaviour (schema descriptions): settings errors come in the payload's `errors` with
 * nothing applied; unspecified settings keep their values; `name` is deprecated for `alias`, which
 * becomes the entity's name; deleting an application that is still reporting is refused. The browser
 * loader NONE turns browser monitoring off (no browser apdex T, no EndUser data); any other loader
 * turns it on with the browser apdex T given, else the one it had, else 7 s. The loader read back
 * is SPA whenever browser monitoring is on [simulator choice: the seed keeps no loader per app].
 * A browser apdex T alone changes the T, never the loader ("unspecified settings keep their
 * values"): with monitoring off it is kept for the day a loader turns it on (`pendingBrowserT`).
 */
import { GraphQLError } from 'graphql'
import type { Application } from '../data/model'
import type { GraphContext } from './context'

interface SettingsArgs {
  guid: string
  settings: {
    alias?: string | null
    name?: string | null
    apmConfig?: { apdexTarget?: number | null; useServerSideConfig?: boolean | null } | null
    browserConfig?: { apdexTarget?: number | null } | null
    browserMonitoring?: { loader?: string | null } | null
  }
}

type SettingsError = { description: string; errorClass: string; field: string }

/** Browser apdex T set while browser monitoring is off, per application record: the dataset keeps
 * a browser T only while monitoring is on (data/model.ts). A reset makes new records, so it drops
 * these too. */
const pendingBrowserT = new WeakMap<Application, number>()

function visible(ctx: GraphContext, guid: string): Application | undefined {
  const app = ctx.dataset.applicationByGuid(guid)
  return app && ctx.principal.accountIds.has(app.accountId) ? app : undefined
}

/** Apdex T in seconds: positive, as the APM settings page accepts it [simulator choice: the real bounds
 * are undocumented]. */
const apdexOk = (t: number | null | undefined) => t == null || (Number.isFinite(t) && t > 0)

function settingsResult(app: Application, errors: SettingsError[]) {
  return {
    guid: app.guid,
    name: app.name,
    alias: app.name,
    apmSettings: {
      alias: app.name,
      originalName: app.name,
      apmConfig: { apdexTarget: app.apdexT, useServerSideConfig: app.language === 'java' },
    },
    browserSettings: {
      browserConfig: { apdexTarget: app.browserApdexT ?? pendingBrowserT.get(app) ?? null },
      browserMonitoring: { loader: app.browserApdexT === null ? 'NONE' : 'SPA' },
    },
    errors,
  }
}

export const appWriteMutations = {
  agentApplicationSettingsUpdate({ guid, settings }: SettingsArgs, ctx: GraphContext) {
    const app = visible(ctx, guid)
    if (!app) {
      const description = 'No application with this GUID'
      return { guid, errors: [{ description, errorClass: 'NOT_FOUND', field: 'guid' }] }
    }
    const errors: SettingsError[] = []
    const alias = settings.alias ?? settings.name
    if (alias != null && alias.trim() === '') {
      errors.push({ description: 'must not be blank', errorClass: 'INVALID_INPUT', field: 'alias' })
    }
    for (const [field, value] of [
      ['apmConfig.apdexTarget', settings.apmConfig?.apdexTarget],
      ['browserConfig.apdexTarget', settings.browserConfig?.apdexTarget],
    ] as const) {
      if (!apdexOk(value)) {
        errors.push({ description: 'must be greater than 0', errorClass: 'INVALID_INPUT', field })
      }
    }
    if (errors.length) return settingsResult(app, errors)
    const loader = settings.browserMonitoring?.loader
    const sentT = settings.browserConfig?.apdexTarget
    const keptT = sentT ?? app.browserApdexT ?? pendingBrowserT.get(app)
    // Monitoring after the update: the loader sent, else as it was.
    const on = loader != null ? loader !== 'NONE' : app.browserApdexT !== null
    const browserT = on ? (keptT ?? 7) : null
    ctx.dataset.updateApplication(app.id, {
      ...(browserT !== app.browserApdexT
        ? { browserApdexT: browserT, browserApdexTSince: ctx.dataset.now() }
        : {}),
      ...(alias != null ? { name: alias.trim() } : {}),
      ...(settings.apmConfig?.apdexTarget != null
        ? { apdexT: settings.apmConfig.apdexTarget }
        : {}),
    })
    const updated = ctx.dataset.application(app.id)!
    if (!on && keptT != null) pendingBrowserT.set(updated, keptT)
    return settingsResult(updated, [])
  },

  agentApplicationDelete({ guid }: { guid: string }, ctx: GraphContext) {
    const app = visible(ctx, guid)
    if (!app) {
      throw new GraphQLError('No application with this GUID', {
        extensions: { errorClass: 'NOT_FOUND' },
      })
    }
    if (app.reporting) {
      throw new GraphQLError("Deleting isn't allowed while the application is reporting data", {
        extensions: { errorClass: 'INVALID_INPUT' },
      })
    }
    ctx.dataset.deleteApplication(app.id)
    return { success: true }
  },
}

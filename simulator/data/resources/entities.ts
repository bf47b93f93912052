/**
 * @module simulator/data/resources/entities
 * Key transactions (`KeyTransactionEntity`, domain EXT), browser and mobile applications as
 * SimEntity values, with the outline and entity fields of the real schema.
 */
import type { Account } from '../model'
import type { EntityTag, SimEntity } from '../entity'
import { MINUTE } from '../apm/timeslices'
import type { BrowserApp, KeyTransaction, MobileApp } from './catalog'
import { mobileMinute } from './rows'

interface Base {
  guid: string
  accountId: number
  name: string
  reporting: boolean
  alertSeverity: SimEntity['alertSeverity']
}

function common(
  e: Base,
  accounts: readonly Account[],
  domain: string,
  type: string,
  entityType: string,
  tags: readonly EntityTag[]
) {
  const account = accounts.find((a) => a.id === e.accountId)
  return {
    guid: e.guid,
    name: e.name,
    accountId: e.accountId,
    account: account ? { id: account.id, name: account.name } : null,
    domain,
    type,
    entityType,
    reporting: e.reporting,
    alertSeverity: e.alertSeverity,
    permalink: `https://one.newrelic.com/redirect/entity/${e.guid}`,
    tags,
  }
}

function defaultTags(accounts: readonly Account[], accountId: number): EntityTag[] {
  const account = accounts.find((a) => a.id === accountId)
  return [
    { key: 'account', values: [account?.name ?? ''] },
    { key: 'accountId', values: [String(accountId)] },
  ]
}

export interface EntityContext {
  accounts: readonly Account[]
  tags(guid: string): readonly EntityTag[] | undefined
  now(): number
}

function simEntity(
  e: Base & { id: number },
  ctx: EntityContext,
  domain: string,
  type: string,
  typenames: { outline: string; entity: string; entityType: string },
  fields: (kind: 'outline' | 'entity') => Record<string, unknown>
): SimEntity {
  const tags = () => ctx.tags(e.guid) ?? defaultTags(ctx.accounts, e.accountId)
  return {
    guid: e.guid,
    accountId: e.accountId,
    domain,
    type,
    domainId: String(e.id),
    name: e.name,
    reporting: e.reporting,
    alertSeverity: e.alertSeverity,
    language: null,
    tags,
    value: (kind) => ({
      __typename: typenames[kind],
      ...common(e, ctx.accounts, domain, type, typenames.entityType, tags()),
      ...fields(kind),
    }),
  }
}

export function keyTransactionEntity(kt: KeyTransaction, ctx: EntityContext): SimEntity {
  const e = { ...kt, reporting: kt.app.reporting }
  const names = {
    outline: 'KeyTransactionEntityOutline',
    entity: 'KeyTransactionEntity',
    entityType: 'KEY_TRANSACTION_ENTITY',
  }
  return simEntity(e, ctx, 'EXT', 'KEY_TRANSACTION', names, (kind) =>
    kind === 'outline'
      ? {}
      : {
          apdexTarget: kt.apdexTarget,
          browserApdexTarget: kt.browserApdexTarget,
          metricName: kt.metricName,
          application: {
            guid: kt.app.guid,
            entity: {
              __typename: 'ApmApplicationEntityOutline',
              guid: kt.app.guid,
              name: kt.app.name,
              accountId: kt.app.accountId,
              applicationId: kt.app.id,
            },
          },
        }
  )
}

/** The copy/paste snippet of a browser app (Lite loader, agent code elided). */
export function loaderScript(b: BrowserApp): string {
  const config = `accountID:"${b.accountId}",trustKey:"${b.accountId}",agentID:"${b.id}",licenseKey:"${b.licenseKey}",applicationID:"${b.id}"`
  return (
    `<script type="text/javascript">\n;window.NREUM||(NREUM={});NREUM.loader_config={${config}};` +
    `NREUM.info={beacon:"bam.nr-data.net",errorBeacon:"bam.nr-data.net",licenseKey:"${b.licenseKey}",applicationID:"${b.id}",sa:1};\n` +
    `/* ${b.loaderType} loader */</script>\n`
  )
}

export function browserEntity(b: BrowserApp, ctx: EntityContext): SimEntity {
  const names = {
    outline: 'BrowserApplicationEntityOutline',
    entity: 'BrowserApplicationEntity',
    entityType: 'BROWSER_APPLICATION_ENTITY',
  }
  return simEntity(b, ctx, 'BROWSER', 'APPLICATION', names, (kind) => ({
    applicationId: b.id,
    servingApmApplicationId: b.servingApmApplicationId,
    agentInstallType: b.loaderType === 'SPA' ? 'PRO_SPA' : b.loaderType,
    settings: { apdexTarget: b.apdexTarget },
    ...(kind === 'entity'
      ? {
          browserProperties: {
            jsConfig: {
              accountID: String(b.accountId),
              trustKey: String(b.accountId),
              agentID: String(b.id),
              licenseKey: b.licenseKey,
              applicationID: String(b.id),
            },
            jsLoaderScript: loaderScript(b),
          },
        }
      : {}),
  }))
}

/** `mobileSummary` over the last 30 complete minutes; null when the app does not report. */
export function mobileSummary(app: MobileApp, now: number) {
  if (!app.reporting) return null
  const end = Math.floor(now / MINUTE) * MINUTE
  let sessions = 0
  let crashes = 0
  let requests = 0
  let requestTime = 0
  for (let t = end - 30 * MINUTE; t < end; t += MINUTE) {
    const minute = mobileMinute(app, t / MINUTE)
    sessions += minute.get('Session/Start')?.count ?? 0
    crashes += minute.get('Mobile/Crash/All')?.count ?? 0
    requests += minute.get('External/all')?.count ?? 0
    requestTime += minute.get('External/all')?.total ?? 0
  }
  const h = (app.id % 1000) / 1000
  return {
    appLaunchCount: sessions,
    crashCount: crashes,
    crashRate: sessions > 0 ? (crashes / sessions) * 100 : 0,
    httpErrorRate: 0.5 + 2 * h,
    httpRequestCount: requests,
    httpRequestRate: requests / 30,
    httpResponseTimeAverage: requests > 0 ? requestTime / requests : 0,
    mobileSessionCount: sessions,
    networkFailureRate: 0.05 + 0.2 * h,
    usersAffectedCount: Math.round(crashes * 0.8),
  }
}

export function mobileEntity(app: MobileApp, ctx: EntityContext): SimEntity {
  const names = {
    outline: 'MobileApplicationEntityOutline',
    entity: 'MobileApplicationEntity',
    entityType: 'MOBILE_APPLICATION_ENTITY',
  }
  return simEntity(app, ctx, 'MOBILE', 'APPLICATION', names, () => ({
    applicationId: app.id,
    mobileSummary: () => mobileSummary(app, ctx.now()),
  }))
}

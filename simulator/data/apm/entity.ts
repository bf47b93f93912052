/**
 * @module simulator/data/apm/entity — APM applications as SimEntity values: ApmApplicationEntity and
 * ApmApplicationEntityOutline as graphql-js resolves them.
 */
import type { Dataset } from '../dataset'
import { decodeOffset, encodeOffset } from '../cursor'
import type { EntityTag, SimEntity } from '../entity'
import type { Application, Instance } from '../model'
import { deploymentFields } from './deployments'
import { relatedEntities } from './related'
import { apmSummary, browserSummary } from './summary'

/** Page size of `applicationInstancesV2` (a simulator choice; NerdGraph's own size is undocumented). */
export const INSTANCES_PAGE = 10

export type EntityTypename = 'ApmApplicationEntity' | 'ApmApplicationEntityOutline'

/** `AgentEnvironmentApplicationInstance` [schema]. */
function instanceValue(app: Application, inst: Instance) {
  return {
    details: {
      id: inst.id,
      host: inst.host,
      hostDisplayName: inst.hostDisplayName,
      instanceName: inst.instanceName,
      language: app.language,
      name: app.name,
    },
  }
}

interface InstancesArgs {
  startTime?: number | null
  endTime?: number | null
  host?: string | null
}

/** Instances whose reporting overlaps [startTime, endTime); without a window, every known instance. */
function instancesIn(app: Application, args: InstancesArgs) {
  const start = args.startTime ?? -Infinity
  const end = args.endTime ?? Infinity
  return app.instances
    .filter((inst) => args.host == null || inst.host === args.host)
    .filter((inst) => (inst.activeFrom ?? -Infinity) < end && (app.stoppedAt ?? Infinity) > start)
    .map((inst) => instanceValue(app, inst))
}

/** The entity as graphql-js resolves it: plain fields, functions for computed or argument fields. */
export function entityValue(dataset: Dataset, app: Application, typename: EntityTypename) {
  const account = dataset.accounts.find((a) => a.id === app.accountId)
  return {
    __typename: typename,
    guid: app.guid,
    name: app.name,
    accountId: app.accountId,
    account: account ? { id: account.id, name: account.name } : null,
    domain: 'APM',
    type: 'APPLICATION',
    entityType: 'APM_APPLICATION_ENTITY',
    reporting: app.reporting,
    alertSeverity: app.alertSeverity,
    permalink: `https://one.newrelic.com/redirect/entity/${app.guid}`,
    lastReportingChangeAt: app.lastReportingChangeAt,
    tags: app.tags,
    applicationId: app.id,
    language: app.language,
    apmSummary: () => apmSummary(dataset, app),
    apmBrowserSummary: () => browserSummary(dataset, app),
    settings: { apdexTarget: app.apdexT, serverSideConfig: app.language === 'java' },
    apmSettings: {
      alias: null,
      originalName: app.name,
      apmConfig: { apdexTarget: app.apdexT, useServerSideConfig: app.language === 'java' },
    },
    ...deploymentFields(dataset, app),
    relatedEntities: (args: Parameters<typeof relatedEntities>[2]) =>
      relatedEntities(dataset, app, args),
    runningAgentVersions: { minVersion: app.agentVersions.min, maxVersion: app.agentVersions.max },
    applicationInstances: (args: InstancesArgs) => instancesIn(app, args),
    applicationInstancesV2: ({ cursor }: { cursor?: string | null }) => {
      const prefix = `instances:${app.id}`
      const offset = cursor ? decodeOffset(prefix, cursor) : 0
      const all = instancesIn(app, {})
      const next = offset + INSTANCES_PAGE
      return {
        applicationInstances: all.slice(offset, next),
        nextCursor: next < all.length ? encodeOffset(prefix, next) : null,
      }
    },
  }
}

/** An APM application as a SimEntity; `tags` come from the tag state when it has changed them. */
export function apmEntity(
  dataset: Dataset,
  app: Application,
  tags: () => readonly EntityTag[]
): SimEntity {
  return {
    guid: app.guid,
    accountId: app.accountId,
    domain: 'APM',
    type: 'APPLICATION',
    domainId: String(app.id),
    name: app.name,
    reporting: app.reporting,
    alertSeverity: app.alertSeverity,
    language: app.language,
    tags,
    value: (kind) => ({
      ...entityValue(
        dataset,
        app,
        kind === 'outline' ? 'ApmApplicationEntityOutline' : 'ApmApplicationEntity'
      ),
      tags: tags(),
    }),
  }
}

/**
 * @module simulator/sim-entity
 * Any entity the simulator can search and show: APM applications (entities.ts) and the resources
 * of resources/ (key transactions, browser and mobile applications). Search and `actor.entity`
 * read only this interface.
 */
import type { Dataset } from './dataset'
import { entityValue } from './entities'
import type { AlertSeverity, Application } from './model'

export interface EntityTag {
  readonly key: string
  readonly values: readonly string[]
}

export interface SimEntity {
  readonly guid: string
  readonly accountId: number
  readonly domain: string
  readonly type: string
  readonly domainId: string
  readonly name: string
  readonly reporting: boolean
  readonly alertSeverity: AlertSeverity
  readonly language: string | null
  /** Current tags (tagging mutations change them). */
  tags(): readonly EntityTag[]
  /** The graphql-js value of the search outline or of `actor.entity`, `__typename` included. */
  value(kind: 'outline' | 'entity'): Record<string, unknown>
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

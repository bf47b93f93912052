/**
 * @module simulator/data/entity
 * Any entity the simulator can search and show: APM applications (apm/entity.ts) and the resources
 * of resources/ (key transactions, browser and mobile applications). Search and `actor.entity`
 * read only this interface.
 */
import type { AlertSeverity } from './model'

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

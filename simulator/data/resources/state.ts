/**
 * @module simulator/data/resources/state
 * What mutations change: browser and mobile applications created through `agentApplicationCreate*`
 * and tags changed through the tagging mutations. `reset()` (POST /_sim/reset) restores the seed's
 * state.
 */
import type { EntityTag } from '../entity'
import { entityGuid, licenseKeyFor, type BrowserApp, type MobileApp } from './catalog'

/** NerdGraph caps an entity at 100 tag values (taggingReplaceTagsOnEntity docs in the schema). */
export const MAX_TAG_VALUES = 100

export interface ResourceState {
  readonly createdBrowser: BrowserApp[]
  readonly createdMobile: MobileApp[]
  /** The entity's tags when a mutation changed them, else undefined. */
  tags(guid: string): readonly EntityTag[] | undefined
  setTags(guid: string, tags: readonly EntityTag[]): void
  createBrowser(accountId: number, name: string, loaderType: BrowserApp['loaderType']): BrowserApp
  createMobile(accountId: number, name: string): MobileApp
  reset(): void
}

export function createResourceState(
  seed: number,
  /** Tags the dataset starts with where they differ from an entity's own (labels of the demo). */
  initialTags: ReadonlyMap<string, readonly EntityTag[]> = new Map()
): ResourceState {
  const tagOverrides = new Map<string, readonly EntityTag[]>()
  const createdBrowser: BrowserApp[] = []
  const createdMobile: MobileApp[] = []
  return {
    createdBrowser,
    createdMobile,
    tags: (guid) => tagOverrides.get(guid) ?? initialTags.get(guid),
    setTags: (guid, tags) => void tagOverrides.set(guid, tags),
    createBrowser(accountId, name, loaderType) {
      const id = 204270001 + createdBrowser.length * 17
      const app: BrowserApp = {
        id,
        accountId,
        guid: entityGuid(accountId, 'BROWSER', 'APPLICATION', id),
        name,
        servingApmApplicationId: null,
        loaderType,
        licenseKey: licenseKeyFor(seed, accountId),
        reporting: false,
        alertSeverity: 'NOT_CONFIGURED',
        apdexTarget: 7,
      }
      createdBrowser.push(app)
      return app
    },
    createMobile(accountId, name) {
      const id = 601490001 + createdMobile.length * 17
      const app: MobileApp = {
        id,
        accountId,
        guid: entityGuid(accountId, 'MOBILE', 'APPLICATION', id),
        name,
        reporting: false,
        alertSeverity: 'NOT_CONFIGURED',
        sessionsPerMinute: 0,
        crashPct: 0,
        applicationToken: `AA${licenseKeyFor(seed, id)}${licenseKeyFor(seed, id + 1)}-NRMA`,
      }
      createdMobile.push(app)
      return app
    },
    reset() {
      tagOverrides.clear()
      createdBrowser.length = 0
      createdMobile.length = 0
    },
  }
}

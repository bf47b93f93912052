/**
 * @module simulator/data/resources/state
 * What mutations change: browser and mobile applications created through `agentApplicationCreate*`
 * and tags changed through the tagging mutations. `reset()` (POST /_sim/reset) restores the seed's
 * state.
 */
import type { EntityTag } from '../entity'
import { createVisibility, createWriteHistory, type Visibility } from '../visibility'
import { entityGuid, licenseKeyFor, type BrowserApp, type MobileApp } from './catalog'

/** NerdGraph caps an entity at 100 tag values (taggingReplaceTagsOnEntity docs in the schema). */
export const MAX_TAG_VALUES = 100

export interface ResourceState {
  readonly createdBrowser: BrowserApp[]
  readonly createdMobile: MobileApp[]
  /** The entity's tags when a mutation changed them, else undefined: the newest write (mutations
   * and the v2 stand-in read these). */
  tags(guid: string): readonly EntityTag[] | undefined
  /** The tags NerdGraph's reads show: the newest write made at least the visibility delay ago
   * (data/visibility.ts). */
  shownTags(guid: string): readonly EntityTag[] | undefined
  setTags(guid: string, tags: readonly EntityTag[]): void
  createBrowser(accountId: number, name: string, loaderType: BrowserApp['loaderType']): BrowserApp
  createMobile(accountId: number, name: string): MobileApp
  reset(): void
}

export function createResourceState(
  seed: number,
  /** Tags the dataset starts with where they differ from an entity's own (labels of the demo). */
  initialTags: ReadonlyMap<string, readonly EntityTag[]> = new Map(),
  visibility: Visibility = createVisibility(0)
): ResourceState {
  const tagWrites = createWriteHistory<readonly EntityTag[]>(visibility)
  const createdBrowser: BrowserApp[] = []
  const createdMobile: MobileApp[] = []
  return {
    createdBrowser,
    createdMobile,
    tags: (guid) => tagWrites.latest(guid) ?? initialTags.get(guid),
    shownTags: (guid) => (tagWrites.shown(guid) ?? { value: initialTags.get(guid) }).value,
    setTags: (guid, tags) => tagWrites.write(guid, tags),
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
      tagWrites.clear()
      createdBrowser.length = 0
      createdMobile.length = 0
    },
  }
}

/**
 * @module resources/labels/reshape
 * Tagged applications → v2 labels (New Relic docs "Create labels for apps (API v2)",
 * newrelic-client-go labels_test.go for the full shape), pure.
 */
import { labelHealthBucket, notReportingBucket, systemTagKeys } from '../../../mappings/labels'
import type { TaggedEntity } from './documents'

const system: ReadonlySet<string> = new Set(systemTagKeys)

export interface Label {
  category: string
  name: string
  apps: TaggedEntity[]
}

/** Every `key:value` tag of the entities, as labels sorted by key (`Category:Name`). */
export function labelsOf(entities: readonly TaggedEntity[]): Label[] {
  const byKey = new Map<string, Label>()
  for (const e of entities) {
    for (const tag of e.tags ?? []) {
      if (system.has(tag.key)) continue
      for (const value of tag.values) {
        const key = `${tag.key}:${value}`
        const label = byKey.get(key) ?? { category: tag.key, name: value, apps: [] }
        label.apps.push(e)
        byKey.set(key, label)
      }
    }
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, l]) => l)
}

const emptyHealth = () => ({
  green: [] as number[],
  orange: [] as number[],
  red: [] as number[],
  gray: [] as number[],
})

export function toV2Label(label: Label): Record<string, unknown> {
  const ids = label.apps
    .flatMap((a) => (typeof a.applicationId === 'number' ? [a.applicationId] : []))
    .sort((a, b) => a - b)
  const health = emptyHealth()
  for (const app of label.apps) {
    if (typeof app.applicationId !== 'number') continue
    const bucket =
      app.reporting === true
        ? (labelHealthBucket[app.alertSeverity as keyof typeof labelHealthBucket] ??
          notReportingBucket)
        : notReportingBucket
    health[bucket].push(app.applicationId)
  }
  for (const list of Object.values(health)) list.sort((a, b) => a - b)
  return {
    key: `${label.category}:${label.name}`,
    category: label.category,
    name: label.name,
    application_health_status: health,
    server_health_status: emptyHealth(), // the Servers product is retired
    // NerdGraph does not say who set a tag: every labelled application is listed under `apm`.
    origins: { apm: ids, synthetics: [], agents: [] },
    links: { applications: ids, servers: [] },
  }
}

export function isSystemKey(key: string): boolean {
  return system.has(key)
}

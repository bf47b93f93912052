/**
 * @module simulator/data/apm/deployment-store — change-tracking deployments: a seeded history for the showcase
 * apps plus whatever `changeTrackingCreateDeployment` recorded since start-up or the last reset.
 */
import type { Application } from '../model'
import { combine, createRandom, hashString } from '../prng'
import { createVisibility, shownBefore, type Visibility } from '../visibility'

/** `ChangeTrackingDeployment` [schema]. */
export interface SimDeployment {
  deploymentId: string
  entityGuid: string
  version: string
  changelog: string | null
  commit: string | null
  description: string | null
  user: string | null
  timestamp: number
  deploymentType: string | null
  groupId: string | null
  deepLink: string | null
}

export interface DeploymentStore {
  /** Every deployment of an entity, newest first (deploymentSearch orders by timestamp DESC). */
  of(entityGuid: string): SimDeployment[]
  /** Every deployment of every entity. */
  all(): SimDeployment[]
  /** What NerdGraph's reads show: the seeded history and deployments recorded at least the
   * visibility delay ago (data/visibility.ts). */
  shown(deployments: SimDeployment[]): SimDeployment[]
  add(deployment: SimDeployment): void
  /** Removes one deployment (the v2 stand-in's DELETE); false when there is none with that id. */
  remove(deploymentId: string): boolean
  /** Back to the seeded history. */
  reset(): void
}

const HOUR = 3_600_000

const USERS = ['ci-bot', 'jenkins', 'alice@example.com', 'bob@example.com', 'github-actions']
const CHANGES = [
  'Bump dependencies',
  'Fix checkout timeout',
  'Add cache warm-up',
  'Roll back feature flag',
  'Tune connection pool',
]

/** A v4-shaped UUID from a hash, so seeded ids are the same on every run with the same seed. */
export function seededUuid(h: number): string {
  const hex = [1, 2, 3, 4].map((k) => combine(h, k).toString(16).padStart(8, '0')).join('')
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** 4–7 deployments per showcase app over the 9 days before start-up, one with no description. */
function history(app: Application, seed: number, anchor: number): SimDeployment[] {
  const random = createRandom(hashString(`deployments|${app.id}`, seed))
  const count = random.int(4, 7)
  let at = anchor - Math.floor(random.between(2, 20)) * HOUR
  const out: SimDeployment[] = []
  for (let n = 0; n < count; n++) {
    const version = `v${app.agentVersions.max.split('.')[0]}.${40 - n}.${random.int(0, 9)}`
    out.push({
      deploymentId: seededUuid(hashString(`${app.id}|${n}`, seed)),
      entityGuid: app.guid,
      version,
      changelog: n % 3 === 2 ? null : random.pick(CHANGES),
      commit: null,
      description: n === 1 ? null : `Deploy ${version} of ${app.name}`,
      user: random.pick(USERS),
      timestamp: at,
      deploymentType: 'BASIC',
      groupId: null,
      deepLink: null,
    })
    at -= Math.floor(random.between(6, 40)) * HOUR + random.int(0, 59) * 60_000
  }
  return out
}

export function createDeploymentStore(
  showcase: readonly Application[],
  seed: number,
  anchor: number,
  visibility: Visibility = createVisibility(0)
): DeploymentStore {
  let byGuid = new Map<string, SimDeployment[]>()
  /** When each deployment recorded since the last reset was recorded (wall clock). */
  const recordedAt = new Map<string, number>()
  const seedAll = () => {
    byGuid = new Map(showcase.map((app) => [app.guid, history(app, seed, anchor)]))
    recordedAt.clear()
  }
  seedAll()
  return {
    of: (guid) => byGuid.get(guid) ?? [],
    all: () => [...byGuid.values()].flat(),
    shown(deployments) {
      if (recordedAt.size === 0) return deployments
      const cutoff = shownBefore(visibility)
      return deployments.filter((d) => (recordedAt.get(d.deploymentId) ?? -Infinity) <= cutoff)
    },
    add(d) {
      recordedAt.set(d.deploymentId, visibility.clock())
      const list = byGuid.get(d.entityGuid) ?? []
      const at = list.findIndex((x) => x.timestamp <= d.timestamp) // newest first, new before equal
      list.splice(at < 0 ? list.length : at, 0, d)
      byGuid.set(d.entityGuid, list)
    },
    remove(deploymentId) {
      for (const [guid, list] of byGuid) {
        const kept = list.filter((d) => d.deploymentId !== deploymentId)
        if (kept.length === list.length) continue
        byGuid.set(guid, kept)
        return true
      }
      return false
    },
    reset: seedAll,
  }
}

/**
 * @module resources/deployments/reshape
 * NerdGraph change-tracking deployments → v2 deployment records (D-deploy), pure.
 * v2 IDs are integers; NerdGraph's `deploymentId` is a UUID: IDs are minted from it (src/core/ids.ts).
 */
import { mintInOrder } from '../../core/ids'
import { formatTime } from '../../core/time-range'
import { deploymentLinkTemplates } from '../../../mappings/link-templates'
import type { NgDeployment } from './documents'

/** The key a deployment is minted from: its UUID, else (never seen) its time and version. */
const keyOf = (d: NgDeployment) => d.deploymentId ?? `${d.timestamp}\u0000${d.version}`

/** v2 IDs of an application's deployments, minted oldest first (src/core/ids.ts `mintInOrder`). */
export function deploymentIds(appId: number, deployments: readonly NgDeployment[]) {
  const oldestFirst = [...deployments].sort(
    (a, b) => a.timestamp - b.timestamp || keyOf(a).localeCompare(keyOf(b))
  )
  const ids = mintInOrder('deployment', appId, oldestFirst.map(keyOf))
  return (d: NgDeployment) =>
    ids.get(keyOf(d)) ?? mintInOrder('deployment', appId, [keyOf(d)]).get(keyOf(d))!
}

/** One v2 record; absent text fields are `null`, never missing (D-deploy example, PGN fixture). */
export function toV2Deployment(d: NgDeployment, id: number, appId: number) {
  return {
    id,
    revision: d.version,
    changelog: d.changelog ?? null,
    description: d.description ?? null,
    user: d.user ?? null,
    timestamp: formatTime(d.timestamp),
    links: { application: appId },
  }
}

export function deploymentsBody(records: Record<string, unknown>[]) {
  return { deployments: records, links: deploymentLinkTemplates }
}

export function deploymentBody(record: Record<string, unknown>) {
  return { deployment: record, links: deploymentLinkTemplates }
}

/**
 * @module simulator/v2/ids — v2 IDs the dataset does not hold: hosts, instances and deployments. v2's own
 * IDs cannot be known offline, so the stand-in follows the identity convention v2bridge documents
 * (docs: "a stable positive integer derived from (application ID, host name)"): 31-bit FNV-1a of
 * `kind, appId, member, salt` joined by NUL; hosts and instances minted over the sorted set,
 * deployments oldest first; a collision re-hashes the later member with the next salt. This is the
 * only thing the stand-in shares with v2bridge, so that lists can be matched by `id`.
 */

function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0
  return h
}

/** `incident`: an AI issue's UUID; `event`: `<source id>/<event type>` (alerts.ts). */
export type IdKind = 'host' | 'instance' | 'deployment' | 'incident' | 'event'

/** Member → ID, members taken in the given order. */
export function idsInOrder(kind: IdKind, appId: number, members: readonly string[]) {
  const out = new Map<string, number>()
  const used = new Set<number>()
  for (const member of members) {
    if (out.has(member)) continue
    for (let salt = 0; ; salt++) {
      const id = fnv1a([kind, appId, member, salt].join('\u0000')) & 0x7fffffff || 1
      if (used.has(id)) continue
      used.add(id)
      out.set(member, id)
      break
    }
  }
  return out
}

/** Member → ID over the sorted set. */
export const idsOfSet = (kind: IdKind, appId: number, members: readonly string[]) =>
  idsInOrder(kind, appId, [...new Set(members)].sort())

/** What an instance ID is minted from: its host and its agent instance name. */
export const instanceMember = (host: string, instanceName: string) => `${host}\u0000${instanceName}`

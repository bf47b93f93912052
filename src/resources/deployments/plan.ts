/**
 * @module resources/deployments/plan
 * v2 deployment requests → NerdGraph variables (pure). The v2 rules (D-deploy "Record and view
 * deployments"; swagger `application_deployments.json`): `revision` required and ≤ 127 characters,
 * `changelog` and `description` ≤ 65535, `user` ≤ 31, no 4-byte UTF-8 characters, `timestamp` ISO
 * 8601 to the second, not in the future and after the latest deployment. NerdGraph adds its own: a
 * timestamp within 24 hours (`ChangeTrackingDeploymentInput.timestamp`), so an older one is refused
 * here in v2's words.
 */
import { V2Error } from '../../core/errors'
import type { V2Params } from '../../http/params'
import { quote } from '../../core/nrql'
import { parseTime } from '../../core/time-range'

/** How far back v2bridge lists deployments: NerdGraph's search defaults to the past hour, v2 listed
 * every deployment [UNCONFIRMED: the retention of change-tracking events; a year is the proposal]. */
export const deploymentHistoryMs = 366 * 24 * 3_600_000
/** `ChangeTrackingSearchFilter.limit` maximum (schema): one search answers at most 2,000, so pages
 * are time windows, each ending where the page before ended. */
export const deploymentSearchLimit = 2000
/** v2 page size for deployments [UNCONFIRMED; proposal 200, as other lists]. */
export const deploymentPageSize = 200

const dayMs = 24 * 3_600_000

export const deploymentTitles = {
  missing: 'missing parameter: deployment', // DPHP PR #175, recorded body; 400 as DOC7091
  revision: 'Revision parameter required', // swagger 1.1 errorResponses, 400
  invalid: 'Validation failed', // [INFERRED] `{title, messages}` form (GO errors.go, opsmatters)
  notLatest: 'Timestamp must be after the latest deployment', // D-deploy rule; [INFERRED] wording
} as const

export interface V2Deployment {
  revision: string
  changelog: string | null
  description: string | null
  user: string | null
  timestamp: number | undefined
}

/** v2 field limits in characters (D-deploy). */
const limits = { revision: 127, changelog: 65535, description: 65535, user: 31 } as const
const labels = {
  revision: 'Revision',
  changelog: 'Changelog',
  description: 'Description',
  user: 'User',
} as const
const astral = /[\u{10000}-\u{10FFFF}]/u

/** The message for a field past v2's limit, or undefined (v2 and v0 take the same fields). */
export function tooLong(name: keyof typeof limits, value: string): string | undefined {
  if (value.length <= limits[name] || [...value].length <= limits[name]) return undefined
  return `${labels[name]} is too long (maximum is ${limits[name]} characters)`
}

/** Reads `deployment[…]` from the merged parameters (JSON, XML, form body or query string). */
export function parseDeployment(p: V2Params, now: number): V2Deployment {
  const field = (name: string) => p.get(`deployment[${name}]`)
  const present = p.entries().some(([k]) => k.startsWith('deployment['))
  if (!present) throw new V2Error(400, deploymentTitles.missing)
  const revision = field('revision')
  if (revision === undefined || revision.trim() === '') {
    throw new V2Error(400, deploymentTitles.revision)
  }
  const messages: string[] = []
  const text = (name: keyof typeof limits): string | null => {
    const value = name === 'revision' ? revision : field(name)
    if (value === undefined || value === '') return null
    const long = tooLong(name, value)
    if (long) messages.push(long)
    if (astral.test(value)) {
      messages.push(
        `${labels[name]} contains 4-byte UTF-8 characters (such as emoji), which are not allowed`
      )
    }
    return value
  }
  const result: V2Deployment = {
    revision: text('revision')!,
    changelog: text('changelog'),
    description: text('description'),
    user: text('user'),
    timestamp: timestampOf(field('timestamp'), now, messages),
  }
  if (messages.length) throw new V2Error(422, deploymentTitles.invalid, { messages })
  return result
}

function timestampOf(raw: string | undefined, now: number, messages: string[]) {
  if (raw === undefined || raw.trim() === '') return undefined
  let ms: number
  try {
    ms = Math.floor(parseTime(raw, 'from') / 1000) * 1000
  } catch {
    messages.push('Timestamp is not an ISO 8601 time')
    return undefined
  }
  if (ms > now) messages.push('Timestamp must not be in the future')
  else if (ms < now - dayMs) {
    messages.push('Timestamp must be within the last 24 hours (NerdGraph change tracking limit)')
  }
  return ms
}

/** `ChangeTrackingDeploymentInput` for a v2 deployment: `revision` is NerdGraph's `version`. */
export function deploymentInput(guid: string, d: V2Deployment): Record<string, unknown> {
  const input: Record<string, unknown> = { entityGuid: guid, version: d.revision }
  for (const key of ['changelog', 'description', 'user', 'timestamp'] as const) {
    if (d[key] != null) input[key] = d[key]
  }
  return input
}

/** `ChangeTrackingSearchFilter` for a deployment at or after `timestamp`, up to NerdGraph's 24 hours
 * ahead (`ChangeTrackingDeploymentInput.timestamp`): one is enough to refuse. */
export function laterSearchFilter(timestamp: number, now: number) {
  return { limit: 1, timeWindow: { startTime: timestamp, endTime: now + dayMs } }
}

/** Where a page starts: the deployments at or before `endTime`, less the first `skip` of those at
 * exactly `endTime` (newest first), which the page before showed. */
export interface PageStart {
  endTime: number
  skip: number
}

/** A page start as a cursor of src/entities/cursor-walk.ts, and back. */
export const startCursor = (s: PageStart) => `${s.endTime}:${s.skip}`
export function startOf(cursor: string | undefined, now: number): PageStart {
  const [endTime, skip] = (cursor ?? '').split(':').map(Number)
  return cursor === undefined ? { endTime: now, skip: 0 } : { endTime: endTime!, skip: skip! }
}

/** `ChangeTrackingSearchFilter` of `limit` deployments from `start` back to the listed history. */
export function searchFilter(start: PageStart, now: number, limit = deploymentSearchLimit) {
  return {
    limit: Math.min(deploymentSearchLimit, limit + start.skip),
    timeWindow: { startTime: now - deploymentHistoryMs, endTime: start.endTime },
  }
}

/** NRQL counting what the window of `start` holds (UNTIL is exclusive: one millisecond past). */
export function countNrql(guid: string, start: PageStart, now: number): string {
  return (
    `SELECT count(*) AS 'count' FROM Deployment WHERE entity.guid = ${quote(guid)} ` +
    `SINCE ${now - deploymentHistoryMs} UNTIL ${start.endTime + 1}`
  )
}

/** Pure: a window's search results (asked with `searchFilter(start, now, size + 1)`) → the `size`
 * shown, and where the next window starts (null at the end). */
export function pageOf<T extends { timestamp: number }>(
  found: readonly T[],
  start: PageStart,
  size = deploymentPageSize
) {
  const rows = found.slice(start.skip)
  const shown = rows.slice(0, size)
  const last = shown.at(-1)
  const hasNext = rows.length > size && last !== undefined
  let next: PageStart | null = null
  if (hasNext) {
    const same = shown.filter((d) => d.timestamp === last.timestamp).length
    next = {
      endTime: last.timestamp,
      skip: same + (last.timestamp === start.endTime ? start.skip : 0),
    }
  }
  return { shown, next }
}

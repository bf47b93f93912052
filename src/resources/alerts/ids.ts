/**
 * @module resources/alerts/ids
 * v2 alerts IDs are integers; NerdGraph issue IDs are UUIDs. Issues and events get stable 31-bit
 * integers minted from what identifies them (src/core/ids.ts); incident (= v2 violation) IDs are numeric
 * in NerdGraph too and are read as they are.
 */
import { mintIds } from '../../core/ids'

/** The v2 incident ID of an AI issue, minted from its UUID. */
export function incidentId(issueId: string): number {
  return mintIds('incident', 0, [issueId]).get(issueId)!
}

/** The v2 event ID of one event of one incident. */
export function eventId(incident: string, eventType: string): number {
  const key = `${incident}/${eventType}`
  return mintIds('event', 0, [key]).get(key)!
}

/** A NerdGraph numeric ID (`ID` or `String`) as the v2 integer, or null. */
export function numericId(id: string | number | null | undefined): number | null {
  const text = String(id ?? '').trim()
  return /^\d{1,15}$/.test(text) ? Number(text) : null
}

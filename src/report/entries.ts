/**
 * @module report/entries
 * The migration report's data (pure): one call as the report keeps it (names, never values), and the
 * per-key aggregation into one entry per v2 operation and client family, with bounds.
 */
import type { SentDocument } from '../explain/client'
import { operationOf } from '../nerdgraph'

/** The end of life of REST API v2 (New Relic docs "REST API v2 end of life"). */
export const endOfLife = '2027-07-31'

/** A NerdGraph document as the report shows it: variable names, literals in NRQL masked. */
export interface DocumentShape {
  operation: string | null
  kind: 'query' | 'mutation'
  document: string
  variables: string[]
  nrql: string[]
}

export interface CallEvent {
  at: number
  method: string
  /** The operation's path template (mappings/operations.ts). */
  path: string
  status: number
  parameters: string[]
  metricNames: string[]
  valueTypes: string[]
  client: string
  documents: DocumentShape[]
}

export interface ReportEntry {
  method: string
  path: string
  client: string
  count: number
  errors: number
  firstSeen: number
  lastSeen: number
  parameters: string[]
  metricNames: string[]
  valueTypes: string[]
  /** From the first call that reached NerdGraph. */
  documents: DocumentShape[]
}

export const bounds = { keys: 10_000, entriesPerKey: 300, namesPerEntry: 200, nameLength: 255 }

/** NRQL with every literal masked: `'…'` strings and numbers become `?`. */
export function maskNrql(nrql: string): string {
  return nrql.replace(/'(?:[^'\\]|\\.)*'/g, "'?'").replace(/\b\d+(?:\.\d+)?\b/g, '?')
}

/** A sent document as the report keeps it (no variable values; literals masked). */
export function shapeOf(sent: SentDocument): DocumentShape {
  const op = operationOf(sent.document)
  const declared = [...sent.document.matchAll(/\$(\w+)\s*:\s*Nrql\b/g)].map((m) => m[1]!)
  return {
    operation: op.name ?? null,
    kind: op.isMutation ? 'mutation' : 'query',
    document: sent.document.replace(/"(?:[^"\\]|\\.)*"/g, '"?"'),
    variables: Object.keys(sent.variables),
    nrql: declared
      .map((name) => sent.variables[name])
      .filter((v): v is string => typeof v === 'string')
      .map(maskNrql),
  }
}

const union = (into: string[], more: readonly string[]) => {
  const before = into.length
  for (const m of more) {
    if (into.length >= bounds.namesPerEntry) break
    const name = m.slice(0, bounds.nameLength)
    if (!into.includes(name)) into.push(name)
  }
  if (into.length > before) into.sort() // a repeated call (the usual one) adds nothing to sort
}

export const entryKey = (e: { method: string; path: string; client: string }) =>
  `${e.method} ${e.path} ${e.client}`

/** Adds one call to a key's entries (in place); a new entry past the bound is dropped. */
export function addCall(entries: Map<string, ReportEntry>, call: CallEvent): void {
  const key = entryKey(call)
  let entry = entries.get(key)
  if (!entry) {
    if (entries.size >= bounds.entriesPerKey) return
    entry = {
      method: call.method,
      path: call.path,
      client: call.client,
      count: 0,
      errors: 0,
      firstSeen: call.at,
      lastSeen: call.at,
      parameters: [],
      metricNames: [],
      valueTypes: [],
      documents: [],
    }
    entries.set(key, entry)
  }
  entry.count += 1
  if (call.status >= 400) entry.errors += 1
  entry.firstSeen = Math.min(entry.firstSeen, call.at)
  entry.lastSeen = Math.max(entry.lastSeen, call.at)
  union(entry.parameters, call.parameters)
  union(entry.metricNames, call.metricNames)
  union(entry.valueTypes, call.valueTypes)
  if (entry.documents.length === 0 && call.documents.length) entry.documents = call.documents
}
